// Split receivers (API documentation, part 2, "Split Receiver"): the accounts splits are
// paid to. Batch create with accountNumber / branchCode ('-' before a verifier digit),
// bankCode (8-digit ISPB: Pix; 1-3 digits: wire), accountType, name, taxId, tags; status
// created.
#include <regex>

#include "sandbox/internal/family.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {
namespace {

Json CreateReceiver(Context& ctx, const Json& element, Problems& problems) {
  Reader in(element, problems);
  auto account = in.String("accountNumber", Need::kRequired, "invalidAccountNumber", 1, 25);
  auto type =
      in.Enum("accountType", Need::kRequired, {"checking", "savings", "salary", "payment"}, "invalidAccountType");
  auto bank = in.String("bankCode", Need::kRequired, "invalidBankCode", 1, 8);
  auto branch = in.String("branchCode", Need::kRequired, "invalidBranchCode", 1, 10);
  auto name = in.String("name", Need::kRequired, "invalidName", 1, 200);
  auto tax_id = in.TaxId("taxId", Need::kRequired);
  auto tags = in.Tags();
  in.RejectUnknown();
  if (account && !std::regex_match(*account, std::regex(R"(\d{1,20}(-[0-9xX])?)")))
    in.Fail("accountNumber", "invalidAccountNumber", "must be digits, with '-' before a verifier digit.",
            "deve ter dígitos, com '-' antes do dígito verificador.");
  if (branch && !std::regex_match(*branch, std::regex(R"(\d{1,5}(-\d)?)")))
    in.Fail("branchCode", "invalidBranchCode", "must be digits, with '-' before a verifier digit.",
            "deve ter dígitos, com '-' antes do dígito verificador.");
  if (bank && !std::regex_match(*bank, std::regex(R"(\d{8}|\d{1,3})")))
    in.Fail("bankCode", "invalidBankCode", "must be an 8-digit ISPB or a 1-3 digit bank code.",
            "deve ser um ISPB de 8 dígitos ou um código de banco de 1 a 3 dígitos.");
  if (!problems.empty()) return nullptr;
  Entity e = ctx.Insert("split-receiver", {{"accountNumber", *account},
                                           {"accountType", *type},
                                           {"bankCode", *bank},
                                           {"branchCode", *branch},
                                           {"name", *name},
                                           {"taxId", *tax_id},
                                           {"status", "created"},
                                           {"tags", tags}});
  ctx.AddLog(e, "created");
  return e.doc;
}

}  // namespace

BALCAO_SANDBOX_FAMILY(split_receiver) {
  registry.Add({.resource = "split-receiver",
                .statuses = {"created", "canceled", "updated"},
                .log_types = {"created", "canceled", "failed", "processing", "success", "updated"},
                .not_found_code = "invalidSplitReceiver",
                .create = CreateReceiver});
}

}  // namespace balcao::sandbox::internal
