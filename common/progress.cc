#include "common/progress.h"

#include <unistd.h>

namespace balcao {

ProgressLine::ProgressLine(std::string what) : ProgressLine(std::move(what), stderr, ::isatty(STDERR_FILENO) == 1) {}

ProgressLine::ProgressLine(std::string what, std::FILE* out, bool enabled)
    : what_(std::move(what)), out_(out), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

ProgressLine::~ProgressLine() { Finish(); }

void ProgressLine::Update(std::string_view detail) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  // \r and "erase to end of line": the new text may be shorter than the old.
  std::fprintf(out_, "\r\033[K%s: %.*s, %.1f s", what_.c_str(), static_cast<int>(detail.size()), detail.data(),
               elapsed);
  std::fflush(out_);
}

void ProgressLine::Finish() {
  if (!shown_) return;
  shown_ = false;
  std::fputs("\r\033[K", out_);
  std::fflush(out_);
}

}  // namespace balcao
