#include "terminal/internal/crash_report.h"

#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <cstddef>
#include <initializer_list>

namespace balcao::terminal {
namespace {

const char* g_command = "";

// Only async-signal-safe calls from here on: write(2) of text made without allocating.
void WriteText(const char* text) {
  for (std::size_t left = ::strlen(text); left > 0;) {
    const ssize_t n = ::write(STDERR_FILENO, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<std::size_t>(n);
  }
}

void WriteNumber(int value) {
  char digits[16];
  int at = sizeof digits - 1;
  digits[at] = '\0';
  do {
    digits[--at] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0 && at > 0);
  WriteText(digits + at);
}

void OnFatalSignal(int signal_number) {
  WriteText("balcao ");
  WriteText(g_command);
  WriteText(": fatal signal ");
  WriteNumber(signal_number);
  WriteText(" (SIG");
  WriteText(::sigabbrev_np(signal_number) != nullptr ? ::sigabbrev_np(signal_number) : "?");
  WriteText("); stack:\n");
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
