// An in-memory bank for the drainer's unit tests: creates entities (tagged), lists
// them by tag, reads and patches them by id, and injects the faults the drainer must
// survive: not sent, reset before processing, HTTP 500 without effect, and
// commit-then-drop-response. It counts how often each key's create took effect, which
// is what "exactly once" is checked against. (The kill test uses the real sandbox.)
#pragma once

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "offline/bank_gateway.h"

namespace balcao::offline::testing {

class FakeBank : public BankGateway {
 public:
  enum Fault { kNone, kNotSent, kResetBefore, kHttp500, kCommitThenDrop };

  explicit FakeBank(double fault_rate = 0.0, unsigned seed = 1) : fault_rate_(fault_rate), rng_(seed) {}

  StatusOr<std::string> Call(const std::string& method, const std::string& path, const Query& query,
                             const std::string& body) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++calls_;
    const Fault fault = NextFault();
    if (fault == kNotSent) return Status(StatusCode::kUnavailable, "connect refused", {0, Delivery::kNotSent, {}});
    if (fault == kResetBefore)
      return Status(StatusCode::kDeadlineExceeded, "reset", {0, Delivery::kOutcomeUnknown, {}});
    if (fault == kHttp500)
      return Status(StatusCode::kInternal, "500", {500, Delivery::kAnswered, {{"internalError", "try later"}}});
    auto answer = Handle(method, path, query, body);
    if (fault == kCommitThenDrop && method != "GET")
      return Status(StatusCode::kDeadlineExceeded, "response lost", {0, Delivery::kOutcomeUnknown, {}});
    return answer;
  }

  void Script(std::vector<Fault> faults) {
    std::lock_guard<std::mutex> lock(mu_);
    script_ = std::move(faults);
  }
  void Reject(const std::string& tag) {  // a create tagged so is refused with a 400
    std::lock_guard<std::mutex> lock(mu_);
    reject_.push_back(tag);
  }
  // How many times a create tagged `tag` took effect.
  int Effects(const std::string& tag) {
    std::lock_guard<std::mutex> lock(mu_);
    return effects_[tag];
  }
  std::vector<std::string> EffectOrder() {
    std::lock_guard<std::mutex> lock(mu_);
    return order_;
  }
  nlohmann::json Entity(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    return entities_.at(id);
  }
  std::string CreateDirect(const std::string& tag) {
    std::lock_guard<std::mutex> lock(mu_);
    nlohmann::json e = {{"tags", {tag}}, {"status", "created"}, {"amount", 100}};
    return Store(e);
  }
  int calls() {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }

 private:
  Fault NextFault() {
    if (!script_.empty()) {
      Fault f = script_.front();
      script_.erase(script_.begin());
      return f;
    }
    if (fault_rate_ <= 0 || std::uniform_real_distribution<double>(0, 1)(rng_) >= fault_rate_) return kNone;
    return static_cast<Fault>(1 + rng_() % 4);
  }

  std::string Store(nlohmann::json e) {
    const std::string id = std::to_string(5'000'000'000LL + static_cast<long long>(entities_.size()));
    e["id"] = id;
    entities_[id] = e;
    return id;
  }

  static Status BadRequest(const std::string& code) {
    return Status(StatusCode::kInvalidArgument, code, {400, Delivery::kAnswered, {{code, "refused"}}});
  }

  StatusOr<std::string> Handle(const std::string& method, const std::string& path, const Query& query,
                               const std::string& body) {
    using nlohmann::json;
    const std::string base = "/v2/item";
    if (method == "POST" && path == base) {
      json doc = json::parse(body);
      json created = json::array();
      for (json e : doc.at("items")) {
        const std::string tag = e.at("tags").at(0).get<std::string>();
        for (const auto& r : reject_)
          if (r == tag) return BadRequest("invalidAmount");
        e["status"] = "created";
        const std::string id = Store(e);
        ++effects_[tag];
        order_.push_back(tag);
        created.push_back(entities_[id]);
      }
      return json{{"items", created}}.dump();
    }
    if (method == "GET" && path == base) {
      std::string tag;
      for (const auto& [k, v] : query)
        if (k == "tags") tag = v;
      json list = json::array();
      for (const auto& [id, e] : entities_)
        for (const auto& t : e.at("tags"))
          if (t.get<std::string>() == tag) list.push_back(e);
      return json{{"cursor", nullptr}, {"items", list}}.dump();
    }
    const std::string id = path.substr(base.size() + 1);
    auto it = entities_.find(id);
    if (it == entities_.end())
      return Status(StatusCode::kNotFound, "invalidItem",
                    {400, Delivery::kAnswered, {{"invalidItem", "no such item"}}});
    if (method == "GET") return json{{"item", it->second}}.dump();
    if (method == "PATCH") {
      json changes = json::parse(body);
      if (it->second.at("status") == "canceled") return BadRequest("invalidOperation");
      for (auto c = changes.begin(); c != changes.end(); ++c) it->second[c.key()] = c.value();
      ++effects_["patch:" + id];
      return json{{"item", it->second}}.dump();
    }
    return BadRequest("invalidRoute");
  }

  std::mutex mu_;
  double fault_rate_;
  std::mt19937 rng_;
  std::vector<Fault> script_;
  std::vector<std::string> reject_;
  std::map<std::string, nlohmann::json> entities_;
  std::map<std::string, int> effects_;
  std::vector<std::string> order_;
  int calls_ = 0;
};

}  // namespace balcao::offline::testing
