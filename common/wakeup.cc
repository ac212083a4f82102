#include "common/wakeup.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

namespace balcao {

Wakeup::Wakeup() : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

Wakeup::~Wakeup() {
  if (fd_ >= 0) ::close(fd_);
}

void Wakeup::Wake() {
  const std::uint64_t one = 1;
  // Fails only when the counter is full: a wake-up is pending anyway.
  if (fd_ >= 0) (void)!::write(fd_, &one, sizeof one);
}

void Wakeup::Wait(std::chrono::steady_clock::duration limit) {
  using std::chrono::milliseconds;
  const milliseconds longest = fd_ >= 0 ? milliseconds(std::chrono::hours(24)) : milliseconds(100);
  const auto ms = std::clamp(std::chrono::ceil<milliseconds>(limit), milliseconds(0), longest);
  pollfd p{fd_, POLLIN, 0};  // a negative fd is ignored: a plain sleep
  if (::poll(&p, 1, static_cast<int>(ms.count())) > 0) {
    std::uint64_t count = 0;
    (void)!::read(fd_, &count, sizeof count);  // resets it
  }
}

}  // namespace balcao
