// A wake-up that one thread waits for with a relative timeout: poll() on an eventfd. Not a
// condition variable: libstdc++ waits on the steady clock with an absolute deadline
// (pthread_cond_clockwait), which libfaketime does not translate, so under `faketime -f +10m`
// (which shifts the monotonic clock too) such a wait slept ten minutes and a loop that ticks
// between tasks stopped ticking (docs/adr/0005-bank-time.md).
// Thread-safety: Wake from any thread; Wait from one thread at a time.
#pragma once

#include <chrono>

namespace balcao {

class Wakeup {
 public:
  Wakeup();
  ~Wakeup();
  Wakeup(const Wakeup&) = delete;
  Wakeup& operator=(const Wakeup&) = delete;

  // Ends the current Wait, or the next one when none is waiting.
  void Wake();
  // Until Wake() or `limit` (at least 0). Without an eventfd (no descriptor was left when this
  // was made) nothing can end it early, so it waits at most 100 ms: the caller looks again.
  void Wait(std::chrono::steady_clock::duration limit);

 private:
  int fd_ = -1;
};

}  // namespace balcao
