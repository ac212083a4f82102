// Transfers (API documentation, part 2, "Transfer"): batch create with validation, Pix
// (8-digit ISPB, 24/7) or wire (1-3 digit bank code; scheduled for today after 16:00 BRT,
// or on a weekend, moves to the next business day), externalId unique, and by default one
// transfer per account + amount + day unless an externalId is given; then the shared life
// cycle of payment_flow.h (created -> processing -> success, failed with refund, DELETE
// before processing).
#include <algorithm>
#include <cctype>
#include <regex>

#include "sandbox/internal/payment_flow.h"

namespace balcao::sandbox::internal {
namespace {

constexpr UnixMicros kHour = 3600 * kMicrosPerSecond;
// Internal: (account, amount, day) keys of live transfers sent without an externalId.
constexpr const char* kDedupe = "transfer:dedupe";

bool Matches(const std::string& s, const char* pattern) { return std::regex_match(s, std::regex(pattern)); }

// Wire transfers run on business days (Mon-Fri) until 16:00 BRT.
UnixMicros WireSchedule(UnixMicros at) {
  UnixMicros day = BusinessDayStartOf(at);
  if (at >= day + 16 * kHour) day += kMicrosPerDay, at = day + 9 * kHour;
  for (;;) {
    const int weekday = SaoPauloWeekday(day);  // 0 = Sunday
    if (weekday != 0 && weekday != 6) return std::max(at, day);
    day += kMicrosPerDay;
    at = day + 9 * kHour;
  }
}

Json CreateTransfer(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto account = in.String("accountNumber", Need::kRequired, "invalidAccountNumber", 1, 25);
  auto amount = in.Int("amount", Need::kRequired, 1, 100'000'000'000, "invalidAmount");
  auto bank = in.String("bankCode", Need::kRequired, "invalidBankCode", 1, 8);
  auto branch = in.String("branchCode", Need::kRequired, "invalidBranchCode", 1, 10);
  auto name = in.String("name", Need::kRequired, "invalidName", 1, 200);
  auto tax_id = in.TaxId("taxId", Need::kRequired);
  auto account_type =
      in.Enum("accountType", Need::kOptional, {"checking", "payment", "savings", "salary"}, "invalidAccountType");
  auto description = in.String("description", Need::kOptional, "invalidDescription", 0, 140);
  auto display = in.String("displayDescription", Need::kOptional, "invalidDisplayDescription", 0, 140);
  auto external_id = in.String("externalId", Need::kOptional, "invalidExternalId", 1, 256);
  Json rules = Json::array();
  if (const Json* list = in.ObjectList("rules", Need::kOptional, 5, "invalidRule"))
    for (const auto& r : *list) {
      if (r.value("key", "") != "resendingLimit" || !r.contains("value") || !r["value"].is_number_integer() ||
          r["value"].get<std::int64_t>() < 0 || r["value"].get<std::int64_t>() > 10 || r.size() != 2) {
        in.Fail("rules", "invalidRule", "accepts only {\"key\": \"resendingLimit\", \"value\": 0..10}.",
                "aceita apenas {\"key\": \"resendingLimit\", \"value\": 0..10}.");
        break;
      }
      rules.push_back(r);
    }
  Json metadata = Json::object();
  if (const Json* m = in.Raw("metadata")) {
    if (m->is_object())
      metadata = *m;
    else
      in.Fail("metadata", "invalidMetadata", "must be an object.", "deve ser um objeto.");
  }
  auto scheduled = ReadScheduled(ctx, in);
  auto tags = in.Tags();
  in.RejectUnknown();
  if (account && !Matches(*account, R"(\d{1,20}(-[0-9xX])?)"))
    in.Fail("accountNumber", "invalidAccountNumber", "must be digits, with '-' before a verifier digit.",
            "deve ter dígitos, com '-' antes do dígito verificador.");
  if (branch && !Matches(*branch, R"(\d{1,5}(-\d)?)"))
    in.Fail("branchCode", "invalidBranchCode", "must be digits, with '-' before a verifier digit.",
            "deve ter dígitos, com '-' antes do dígito verificador.");
  const bool pix = bank && Matches(*bank, R"(\d{8})");
  if (bank && !pix && !Matches(*bank, R"(\d{1,3})"))
    in.Fail("bankCode", "invalidBankCode", "must be an 8-digit ISPB (Pix) or a 1-3 digit bank code (wire).",
            "deve ser um ISPB de 8 dígitos (Pix) ou um código de banco de 1 a 3 dígitos (TED).");
  if (external_id && ctx.FindBy("transfer", "externalId", *external_id))
    in.Fail("externalId", "invalidExternalId", "was already used by another transfer (duplicate).",
            "já foi usado por outra transferência (duplicada).");
  if (!problems.empty()) return nullptr;

  const UnixMicros at = pix ? *scheduled : WireSchedule(*scheduled);
  std::string dedupe;
  if (!external_id) {
    dedupe = *bank + "|" + *branch + "|" + *account + "|" + std::to_string(*amount) + "|" + BusinessDayOf(at);
    if (auto other = ctx.Find(kDedupe, dedupe)) {
      in.Fail("externalId", "invalidExternalId",
              "is needed: transfer " + other->doc["transferId"].get<std::string>() +
                  " already sends the same amount to the same account that day (duplicate).",
              "é necessário: a transferência " + other->doc["transferId"].get<std::string>() +
                  " já envia o mesmo valor para a mesma conta nesse dia (duplicada).");
      return nullptr;
    }
  }
  Json doc = {{"accountNumber", *account},
              {"accountType", account_type.value_or("checking")},
              {"amount", *amount},
              {"bankCode", *bank},
              {"branchCode", *branch},
              {"description", description.value_or(*name)},
              {"displayDescription", display.value_or("")},
              {"externalId", external_id.value_or("")},
              {"metadata", metadata},
              {"name", *name},
              {"rules", rules},
              {"tags", tags},
              {"taxId", *tax_id}};
  Json stored = StartFlow(ctx, "transfer", std::move(doc), at);
  if (!dedupe.empty()) ctx.Insert(kDedupe, {{"id", dedupe}, {"transferId", stored["id"]}});
  return stored;
}

// The receipt's lines after the common ones (payment_flow.h).
std::vector<std::string> TransferReceiptLines(const Entity& e) {
  const Json& d = e.doc;
  return {"To: " + d["name"].get<std::string>() + " (" + d["taxId"].get<std::string>() + ")",
          "Bank " + d["bankCode"].get<std::string>() + ", branch " + d["branchCode"].get<std::string>() + ", account " +
              d["accountNumber"].get<std::string>() + " (" + d["accountType"].get<std::string>() + ")",
          "Description: " + d["description"].get<std::string>()};
}

}  // namespace

BALCAO_SANDBOX_FAMILY(transfer) {
  AddFlow(registry, {.resource = "transfer", .create = CreateTransfer},
          {.label = "Transfer", .canceling_log = false, .receipt_lines = TransferReceiptLines});
}

}  // namespace balcao::sandbox::internal
