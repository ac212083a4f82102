#include "terminal/internal/crash_report.h"

#include <execinfo.h>
#include <signal.h>
#include <string.h>  // sigabbrev_np
#include <unistd.h>

#include <cstddef>
#include <initializer_list>

namespace balcao::terminal {
namespace {

const char* g_command = "";

// Only async-signal-safe calls from here on: text put together on the stack, then write(2).
class Line {
 public:
  Line& operator<<(const char* text) {
    while (*text != '\0' && size_ < sizeof text_) text_[size_++] = *text++;
    return *this;
  }
  Line& operator<<(int value) {
    char digits[12];
    int at = sizeof digits;
    do {
      digits[--at] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value > 0 && at > 0);
    while (at < static_cast<int>(sizeof digits) && size_ < sizeof text_) text_[size_++] = digits[at++];
    return *this;
  }
  // One write: a line shorter than PIPE_BUF is never interleaved with another thread's output.
  void Write() const { (void)!::write(STDERR_FILENO, text_, size_); }

 private:
  char text_[256];
  std::size_t size_ = 0;
};

void OnFatalSignal(int signal_number) {
  const char* name = ::sigabbrev_np(signal_number);
  (Line() << "balcao " << g_command << ": fatal signal " << signal_number << " (SIG" << (name != nullptr ? name : "?")
          << "); stack:\n")
      .Write();
  void* frames[64];
  const int count = ::backtrace(frames, 64);
  ::backtrace_symbols_fd(frames, count, STDERR_FILENO);
  // SA_RESETHAND put the default action back: the same signal ends the process.
  ::raise(signal_number);
}

}  // namespace

void InstallCrashReport(const char* command) {
  g_command = command;
  // backtrace() loads libgcc on its first call, which allocates: done here, not in the handler.
  void* warm[1];
  (void)::backtrace(warm, 1);
  struct sigaction action {};
  action.sa_handler = OnFatalSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (const int signal_number : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
    ::sigaction(signal_number, &action, nullptr);
}

}  // namespace balcao::terminal
