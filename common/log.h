// The service's operator log: one line per record,
//   2026-11-21T18:08:50.123456+00:00 INFO drainer: answered key=sale-7/invoice kind=invoice.create
// (UTC time, level, component, message, key=value fields; values with spaces, quotes or
// '=' are quoted, control characters escaped, so a record is always one line). Written to
// stderr, or appended to the file named by $BALCAO_LOG_FILE (read once, on the first
// record) or by SetLogFile at startup; $BALCAO_LOG_LEVEL=debug|info|warn|error filters.
// Last line of defense: every card-like digit run (common/card_digits.h, glued ones too)
// is masked to first 6 + last 4 before the line is written. Callers still never log card
// data, request bodies or keys.
// Thread-safety: every function may be called from any thread; a record is one write(2)
// on an O_APPEND descriptor, so lines of concurrent writers never interleave.
#pragma once

#include <concepts>
#include <initializer_list>
#include <string>
#include <string_view>

#include "common/status.h"
#include "common/time.h"

namespace balcao::logging {

enum class Level { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };
const char* LevelName(Level level);  // "DEBUG", "INFO", "WARN", "ERROR"

// One key=value pair; the value is formatted when the field is built.
struct Field {
  Field(std::string_view k, std::string_view v) : key(k), value(v) {}
  Field(std::string_view k, const char* v) : key(k), value(v != nullptr ? v : "") {}
  Field(std::string_view k, const std::string& v) : key(k), value(v) {}
  Field(std::string_view k, bool v) : key(k), value(v ? "true" : "false") {}
  template <std::integral T>
  Field(std::string_view k, T v) : key(k), value(std::to_string(v)) {}

  std::string_view key;  // a literal: [a-z_] by convention
  std::string value;
};

// Writes one record when `level` passes the minimum level.
void Log(Level level, std::string_view component, std::string_view message, std::initializer_list<Field> fields = {});
inline void Debug(std::string_view component, std::string_view message, std::initializer_list<Field> fields = {}) {
  Log(Level::kDebug, component, message, fields);
}
inline void Info(std::string_view component, std::string_view message, std::initializer_list<Field> fields = {}) {
  Log(Level::kInfo, component, message, fields);
}
inline void Warn(std::string_view component, std::string_view message, std::initializer_list<Field> fields = {}) {
  Log(Level::kWarning, component, message, fields);
}
inline void Error(std::string_view component, std::string_view message, std::initializer_list<Field> fields = {}) {
  Log(Level::kError, component, message, fields);
}

// Whether a record at `level` would be written (to skip building expensive fields).
bool Enabled(Level level);

// Sends records to `path` (created with mode 0600 if missing, appended to), or to stderr
// when `path` is empty. Meant for startup; safe at any time (the old file is closed
// after the switch). kFailedPrecondition naming the path when it cannot be opened (the
// previous destination stays).
Status SetLogFile(const std::string& path);
void SetMinLevel(Level level);
// A config file's choice, weaker than the global options and the environment: applied only
// when the log still goes to stderr / no level was chosen yet.
Status SetFallbackLogFile(const std::string& path);
void SetFallbackMinLevel(Level level);
// For interactive commands (`balcao demo`, `balcao checkout`): when the log goes to stderr
// and no level was chosen (SetMinLevel, $BALCAO_LOG_LEVEL), only warnings and errors are
// written, so the operator trail does not drown the command's own output.
void PreferQuietStderr();
// "debug", "info", "warn"/"warning", "error" (any case); kInvalidArgument otherwise.
StatusOr<Level> ParseLevel(std::string_view name);

// The exact line Log would write (with the trailing '\n'), masking included.
std::string FormatRecord(UnixMicros at, Level level, std::string_view component, std::string_view message,
                         std::initializer_list<Field> fields);

}  // namespace balcao::logging
