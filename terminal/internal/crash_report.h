// What a crashing `balcao serve` says on its way out. It never dumps core (card numbers pass
// through its memory), so without this a crash at a customer's counter, or in a test that ran
// once in hundreds, left nothing but "it ended" (docs/reliability.md, "Soak"). On SIGSEGV, SIGBUS, SIGILL, SIGFPE
// and SIGABRT the handler writes "balcao <command>: fatal signal N (NAME)" and the stack's return
// addresses with their symbols (backtrace_symbols_fd: no memory contents, so no card data) to
// stderr, then ends the process by the same signal, so whoever waits for it still sees how.
#pragma once

namespace balcao::terminal {

// `command` ("serve") names the process in the report; kept by pointer (a literal).
void InstallCrashReport(const char* command);

}  // namespace balcao::terminal
