// What the drainer and the connectivity monitor need from the bank: one request at a
// time, answered with the body of a 200 or a Status that says how far it got
// (Delivery: not sent / outcome unknown / answered, docs/style.md S2 and S7). ApiGateway
// (api_gateway.h) implements it over api::Client; tests may use the sandbox through it.
// Thread-safety: implementations must allow concurrent Call()s.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/status.h"

namespace balcao::offline {

class BankGateway {
 public:
  using Query = std::vector<std::pair<std::string, std::string>>;
  virtual ~BankGateway() = default;
  // `path` is "/v2/...". A POST/PATCH/PUT/DELETE must never be re-sent by the
  // implementation after it may have reached the bank.
  virtual StatusOr<std::string> Call(const std::string& method, const std::string& path, const Query& query,
                                     const std::string& body) = 0;
};

}  // namespace balcao::offline
