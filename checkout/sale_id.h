// A sale's id: what the box's service (the touchscreen, the cash registers) and `balcao
// checkout` name a new sale, and the rule every id a caller brings must follow.
// Thread-safety: MintSaleId from any thread.
#pragma once

#include <string>
#include <string_view>

#include "common/time.h"

namespace balcao::checkout {

// `prefix` ('v' the touchscreen's, 'c' a cash register's, 'l' the command line's), then the
// time in UTC and a per-process counter, digits kept apart by letters so that no id looks like
// a card number to the log's scanners. Unique within a process; two processes collide only
// when they mint in the same microsecond.
std::string MintSaleId(char prefix, UnixMicros now);

}  // namespace balcao::checkout
