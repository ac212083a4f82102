// A TEF Dial request read from an IntPos file and checked against the public field table
// (docs/integration.md, "The message table"): which fields each command needs and their
// formats. Pure. Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "integration/tefdial/intpos.h"

namespace balcao::integration::tefdial {

using Cents = std::int64_t;

enum class Command { kAtv, kCrt, kCnf, kNcn, kCnc, kAdm };
const char* CommandName(Command command);  // "CRT"

struct Request {
  Command command = Command::kAtv;
  std::string id;               // 001-000: digits, what the answers echo
  std::string fiscal_document;  // 002-000: digits, "" when absent
  Cents amount = 0;             // 003-000: CRT and CNC
  std::string network;          // 010-000 of the approved CRT (CNF, NCN, CNC)
  std::string nsu;              // 012-000
  std::string control;          // 027-000 ("finalização")
  std::string receipt_date;     // 022-000 DDMMAAAA of the original sale (CNC), "" when absent
  std::string receipt_time;     // 023-000 HHMMSS, likewise
  // Not in the file: the store's day (DDMMAAAA) the request came on, set by the manager. A
  // request is a repeat only on the same day: ACBr's ids are the second of the day, so the same
  // id, amount and (absent) fiscal document may come again on another day as a new sale.
  std::string day;
};

// kInvalidArgument naming the field and the rule ("003-000: a whole number of cents from 1 to
// 999999999999"); kUnimplemented for a command this box does not run (its status file is
// still written, and its response says so).
StatusOr<Request> ReadRequest(const IntPos& file);

// The status file of any request that has a 000-000 and a 001-000 (echoed), and 999-999 = 0:
// written first, so that the PDV knows within its 7 s that the manager is active.
IntPos StatusFile(const IntPos& request);

// The identity of a request: a repeated request with the same identity gets the first one's
// answer and changes nothing. The id alone is not enough (a PDV's counter may start again:
// ACBr's starts at the second of the day), so the fields that define the operation and the
// day are in it.
std::string RequestKey(const Request& request);

}  // namespace balcao::integration::tefdial
