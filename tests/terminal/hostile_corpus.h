// The hostile requests of serve_hostile_test.cc: every route of `balcao serve` with bad JSON,
// bodies over the limit, header floods, broken framing (a Content-Length far above the body,
// chunked garbage, both at once), path tricks (/../, %2e%2e, //api, NUL), wrong and overlong
// methods, random bytes, invalid UTF-8, JSON nested thousands deep, numbers such as 1e309,
// duplicate keys; some with the cashier's session cookie, some with a forged one or none.
// None of them, if answered as the API says, changes the store: the generator never builds
// a valid request that would (a sale's amount, a cancel reason, an operator's name).
// Deterministic for a seed. Thread-safety: pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace balcao::terminal::testing {

struct HostileCase {
  std::string what;          // its kind, for the counts and the failure messages
  std::string bytes;         // what the client writes
  bool half_close = false;   // the client then ends its side: no answer is fine (nothing to answer yet)
  bool may_succeed = false;  // a GET: 2xx is a fine answer (reads change nothing)
  bool bank = false;         // the bank's webhook: 503 is fine (the bank's key could not be read)
  bool fresh = false;        // on a connection of its own
};

struct CorpusTarget {
  unsigned short port = 0;
  std::string cookie;                 // "balcao_session=<token>" of a logged-in cashier
  std::vector<std::string> sale_ids;  // sales on the box (their routes get the hostile bodies too)
};

std::vector<HostileCase> HostileCorpus(const CorpusTarget& target, std::uint32_t seed, std::size_t count);

// `bytes` with what is not printable ASCII escaped, cut to `limit`: for a failure message.
std::string Printable(const std::string& bytes, std::size_t limit = 160);

}  // namespace balcao::terminal::testing
