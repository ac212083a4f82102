#pragma once
// A secret written whole or not at all: credentials, NATS users, keys.

#include <string>

#include "common/status.h"

namespace balcao {

// Writes `text` to `path` with mode 0600: first to `path.new` (fsync'ed), then renamed over
// `path`, so a reader sees the old file or the new one, never half of one, and a crash leaves
// at most a stray `.new`. FailedPrecondition naming the file when it cannot.
Status WritePrivateFile(const std::string& path, const std::string& text);

}  // namespace balcao
