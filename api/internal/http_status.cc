#include "api/internal/http_status.h"

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "api/internal/json_codec.h"
#include "api/resources.h"

namespace balcao::api::internal {
namespace {

// invalid<Resource> codes, derived from the resource table (the pattern of docs/wire.md,
// "Error codes"), plus
// the irregular ones seen in the SDK tests.
const std::set<std::string, std::less<>>& UnknownIdCodes() {
  static const std::set<std::string, std::less<>> codes = [] {
    std::set<std::string, std::less<>> s = {"invalidWebhookId", "invalidPayment", "invalidPaymentLog",
                                            "invalidBrcodePaymentLog", "invalidLog"};
    for (const auto& r : Resources()) {
      for (const std::string& base : {PascalName(r.name), PascalName(r.single_key)}) {
        s.insert("invalid" + base);
        s.insert("invalid" + base + "Id");
        s.insert("invalid" + base + "Log");
      }
    }
    return s;
  }();
  return codes;
}

bool IsStateCode(std::string_view code) {
  static const std::set<std::string, std::less<>> codes = {
      "invalidOperation",   "invalidAction",     "immediatePaymentOutOfTime", "finalHolmesStatus", "repeatedHolmes",
      "invalidCredentials", "invalidProject",    "invalidOrganization",       "invalidWorkspace",  "invalidSignature",
      "invalidAccessId",    "invalidAccessTime", "invalidAccessSignature",    "expiredAccessTime", "unauthorized",
      "blockedWorkspace"};
  return codes.count(code) != 0;
}

Status Answered(StatusCode code, std::string message, int http_status, std::vector<ErrorEntry> errors = {}) {
  BankErrorDetail detail;
  detail.http_status = http_status;
  detail.delivery = Delivery::kAnswered;
  detail.errors = std::move(errors);
  return Status(code, std::move(message), std::move(detail));
}

// The {code,message} list of a 400 body, or false when the body is not that shape.
bool ReadErrors(std::string_view body, std::vector<ErrorEntry>& out) {
  nlohmann::json j;
  if (!ParseJson(body, "error body", j).ok() || !j.is_object()) return false;
  auto it = j.find("errors");
  if (it == j.end() || !it->is_array() || it->empty()) return false;
  for (const auto& e : *it) {
    if (!e.is_object()) return false;
    ErrorEntry entry;
    auto c = e.find("code");
    auto m = e.find("message");
    if (c == e.end() || !c->is_string()) return false;
    entry.code = c->get<std::string>();
    if (m != e.end() && m->is_string()) entry.message = m->get<std::string>();
    out.push_back(std::move(entry));
  }
  return true;
}

std::string Snippet(std::string_view body) {
  std::string s(body.substr(0, 200));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return s;
}

}  // namespace

StatusCode CodeOfBankError(std::string_view code, bool by_id_route) {
  if (IsStateCode(code)) return StatusCode::kFailedPrecondition;
  if (by_id_route && UnknownIdCodes().count(code) != 0) return StatusCode::kNotFound;
  return StatusCode::kInvalidArgument;
}

Status AsStatus(int http_status, std::string_view body, std::string_view what, bool by_id_route) {
  const std::string where = std::string(what) + ": ";
  if (http_status == 200) return OkStatus();
  if (http_status == 400) {
    std::vector<ErrorEntry> errors;
    if (!ReadErrors(body, errors))
      return Answered(StatusCode::kInternal,
                      where + "malformed bank response: HTTP 400 without an errors array: '" + Snippet(body) + "'",
                      400);
    // One code for the whole answer: all entries agree, or it is a validation failure.
    StatusCode code = CodeOfBankError(errors.front().code, by_id_route);
    for (const auto& e : errors)
      if (CodeOfBankError(e.code, by_id_route) != code) code = StatusCode::kInvalidArgument;
    std::string message = where + errors.front().code + ": " + errors.front().message;
    if (errors.size() > 1) message += " (and " + std::to_string(errors.size() - 1) + " more errors)";
    return Answered(code, std::move(message), 400, std::move(errors));
  }
  std::vector<ErrorEntry> errors;
  ReadErrors(body, errors);  // a 500 or a proxy's answer may or may not carry them
  if (http_status == 500)
    return Answered(StatusCode::kInternal, where + "bank internal error (HTTP 500): '" + Snippet(body) + "'", 500,
                    std::move(errors));
  return Answered(StatusCode::kUnknown,
                  where + "unexpected HTTP " + std::to_string(http_status) + ": '" + Snippet(body) + "'", http_status,
                  std::move(errors));
}

}  // namespace balcao::api::internal
