#include "terminal/internal/stop_signals.h"

#include <pthread.h>

namespace balcao::terminal {

StopSignals::StopSignals() {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGINT);
  sigaddset(&signals_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
}

int StopSignals::Wait() const {
  int signal_number = 0;
  sigwait(&signals_, &signal_number);
  return signal_number;
}

}  // namespace balcao::terminal
