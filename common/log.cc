// The operator log (see log.h). Records are formatted and masked outside the lock; the
// lock only guards the descriptor (SetLogFile may swap it) and keeps each record one
// write(2) call.
#include "common/log.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "common/card_digits.h"

namespace balcao::logging {
namespace {

struct Sink {
  std::once_flag configured;
  std::atomic<int> min_level{static_cast<int>(Level::kInfo)};
  std::atomic<bool> level_chosen{false};  // by SetMinLevel or $BALCAO_LOG_LEVEL
  std::mutex mu;
  int fd = STDERR_FILENO;  // guarded by mu
};

// Never destroyed: records may be written from other objects' destructors at exit.
Sink& TheSink() {
  static Sink* sink = new Sink;
  return *sink;
}

// False when the bytes could not all be written (a full disk under the log file).
bool WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

StatusOr<int> OpenForAppend(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    return FailedPreconditionError("log file " + path + ": cannot open for appending (" + std::strerror(errno) + ")");
  return fd;
}

Status SwitchTo(Sink& sink, const std::string& path) {
  int fd = STDERR_FILENO;
  if (!path.empty()) {
    BALCAO_ASSIGN_OR_RETURN(fd, OpenForAppend(path));
  }
  int old = STDERR_FILENO;
  {
    std::lock_guard<std::mutex> lock(sink.mu);
    old = sink.fd;
    sink.fd = fd;
  }
  if (old != STDERR_FILENO) ::close(old);
  return OkStatus();
}

// $BALCAO_LOG_FILE and $BALCAO_LOG_LEVEL, once, before the first record or setting.
void Configure(Sink& sink) {
  std::call_once(sink.configured, [&sink] {
    if (const char* level = std::getenv("BALCAO_LOG_LEVEL"); level != nullptr && *level != '\0') {
      auto parsed = ParseLevel(level);
      if (parsed.ok()) {
        sink.min_level = static_cast<int>(*parsed);
        sink.level_chosen = true;
      }
    }
    if (const char* path = std::getenv("BALCAO_LOG_FILE"); path != nullptr && *path != '\0') {
      Status s = SwitchTo(sink, path);
      if (!s.ok()) WriteAll(STDERR_FILENO, "balcao: " + s.message() + "; logging to stderr\n");
    }
  });
}

void AppendEscaped(std::string& out, std::string_view text, bool quoted) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      if (quoted && (c == '"' || c == '\\')) out += '\\';
      out += c;
    }
  }
}

bool NeedsQuotes(std::string_view value) {
  if (value.empty()) return true;
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (c == ' ' || c == '"' || c == '=' || c == '\\' || u < 0x20 || u == 0x7f) return true;
  }
  return false;
}

}  // namespace

const char* LevelName(Level level) {
  switch (level) {
    case Level::kDebug:
      return "DEBUG";
    case Level::kInfo:
      return "INFO";
    case Level::kWarning:
      return "WARN";
    case Level::kError:
      return "ERROR";
  }
  return "?";
}

StatusOr<Level> ParseLevel(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower == "debug") return Level::kDebug;
  if (lower == "info") return Level::kInfo;
  if (lower == "warn" || lower == "warning") return Level::kWarning;
  if (lower == "error") return Level::kError;
  return InvalidArgumentError("log level: must be debug, info, warn or error");
}

std::string FormatRecord(UnixMicros at, Level level, std::string_view component, std::string_view message,
                         std::initializer_list<Field> fields) {
  std::string line;
  line.reserve(48 + component.size() + message.size() + 24 * fields.size());
  line += FormatTimestamp(at);
  line += ' ';
  line += LevelName(level);
  line += ' ';
  AppendEscaped(line, component, false);
  line += ": ";
  AppendEscaped(line, message, false);
  for (const Field& field : fields) {
    line += ' ';
    AppendEscaped(line, field.key, false);
    line += '=';
    if (NeedsQuotes(field.value)) {
      line += '"';
      AppendEscaped(line, field.value, true);
      line += '"';
    } else {
      line += field.value;
    }
  }
  MaskCardNumbers(line);
  line += '\n';
  return line;
}

bool Enabled(Level level) {
  Sink& sink = TheSink();
  Configure(sink);
  return static_cast<int>(level) >= sink.min_level.load(std::memory_order_relaxed);
}

void Log(Level level, std::string_view component, std::string_view message, std::initializer_list<Field> fields) {
  if (!Enabled(level)) return;
  const std::string line = FormatRecord(SystemClock::Instance().Now(), level, component, message, fields);
  Sink& sink = TheSink();
  std::lock_guard<std::mutex> lock(sink.mu);
  // A log file the disk refuses (the disk the store also fills, often): the record goes to
  // stderr too (the journal, under systemd), since "disk full" is exactly what it may say.
  if (!WriteAll(sink.fd, line) && sink.fd != STDERR_FILENO) WriteAll(STDERR_FILENO, line);
}

Status SetLogFile(const std::string& path) {
  Sink& sink = TheSink();
  Configure(sink);
  return SwitchTo(sink, path);
}

void SetMinLevel(Level level) {
  Sink& sink = TheSink();
  Configure(sink);
  sink.min_level = static_cast<int>(level);
  sink.level_chosen = true;
}

Status SetFallbackLogFile(const std::string& path) {
  Sink& sink = TheSink();
  Configure(sink);
  {
    std::lock_guard<std::mutex> lock(sink.mu);
    if (sink.fd != STDERR_FILENO) return OkStatus();
  }
  return SwitchTo(sink, path);
}

void SetFallbackMinLevel(Level level) {
  Sink& sink = TheSink();
  Configure(sink);
  if (!sink.level_chosen.exchange(true)) sink.min_level = static_cast<int>(level);
}

void PreferQuietStderr() {
  Sink& sink = TheSink();
  Configure(sink);
  std::lock_guard<std::mutex> lock(sink.mu);
  if (!sink.level_chosen && sink.fd == STDERR_FILENO) sink.min_level = static_cast<int>(Level::kWarning);
}

}  // namespace balcao::logging
