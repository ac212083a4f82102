// The stop signals of a command that runs until interrupted (`serve`, `sandbox`, `hub serve`,
// `printer-emulator`): SIGINT and SIGTERM are blocked from construction, which comes before the
// command starts its threads (each thread inherits the mask, so none is interrupted by them),
// and are taken on the command's own thread by Wait(). Programs the command starts inherit the
// mask as well (exec keeps it).
// Thread-safety: construct and Wait on the command's main thread.
#pragma once

#include <csignal>

namespace balcao::terminal {

class StopSignals {
 public:
  StopSignals();  // blocks SIGINT and SIGTERM in this thread and those it starts from now on
  // Waits for SIGINT or SIGTERM: the number of the one that came.
  int Wait() const;

 private:
  sigset_t signals_;
};

}  // namespace balcao::terminal
