// The nightly settlement's runs that could not settle their day (`balcao settle` exit 2: the
// store or the bank unreachable, nothing recorded), kept in the data dir beside the store
// (`settle-failed.json`) so that the service's /readyz and the touchscreen's health line show
// them the next morning. A file, not a table: the store may be what failed. A settled day is
// in the store's `settlements` table (settlement_records.h); a failure is cleared once its
// day is settled. Thread-safety: one writer (the settle run); readers see the old file or the
// new one (written whole, then renamed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace balcao::offline {

struct FailedNight {
  std::string day;         // the business day the run was for
  std::int64_t at_ms = 0;  // when it failed
  std::string reason;      // what `balcao settle` printed
};

// `<data_dir>/settle-failed.json`.
std::string FailedNightsPath(const std::string& data_dir);
// The failures kept, oldest day first; none when the file is missing. A file that is not
// what this module writes is kInvalidArgument naming it.
StatusOr<std::vector<FailedNight>> ReadFailedNights(const std::string& data_dir);
// Keeps `night` (replacing an earlier failure of its day); at most the last 31 days are kept.
Status RecordFailedNight(const std::string& data_dir, const FailedNight& night);
// Forgets the failure of `day`, if any (the day is settled now).
Status ClearFailedNight(const std::string& data_dir, const std::string& day);

}  // namespace balcao::offline
