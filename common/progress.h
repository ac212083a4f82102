// A one-line progress display for long commands (`balcao settle`, `queue drain`,
// `api list --all`): what is done so far and the time elapsed, redrawn in place on stderr at
// most ten times a second. Only when stderr is a terminal: piped or logged output stays clean,
// so scripts and the systemd journal never see it.
// Thread-safety: one thread at a time.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

namespace balcao {

class ProgressLine {
 public:
  // Shown on `out` when `enabled`; by default, when stderr is a terminal.
  explicit ProgressLine(std::string what);
  ProgressLine(std::string what, std::FILE* out, bool enabled);
  ~ProgressLine();  // Finish()
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool enabled() const { return enabled_; }
  // "<what>: <detail>, <elapsed> s"; skipped when the last line is under 100 ms old.
  void Update(std::string_view detail);
  // Erases the line, so that the command's own output starts on a clean line.
  void Finish();

 private:
  std::string what_;
  std::FILE* out_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace balcao
