// Payer-side helpers shared by the receivable families (invoice, dynamic brcode, deposit):
// who pays (read from a simulation body, with sandbox defaults) and the deposit a Pix
// cash-in creates. Thread-safety: as Context.
#pragma once

#include <string>
#include <vector>

#include "sandbox/internal/engine.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {

struct Payer {
  std::string name = "Sandbox Payer";
  std::string tax_id = "012.345.678-90";
  std::string bank_code = "20018183";  // ISPB
  std::string branch_code = "0001";
  std::string account_number = "10000-0";
  std::string account_type = "checking";
  std::string end_to_end_id;
};

// Reads name, taxId, bankCode, branchCode, accountNumber, accountType (all optional) and
// mints an end-to-end id.
Payer ReadPayer(Context& ctx, Reader& in);
Json PayerJson(const Payer& payer, std::int64_t amount, const std::string& method);
// False (with a problem) when the rules' allowedTaxIds (or the workspace's) exclude the payer.
bool PayerAllowed(Context& ctx, const Json& rules, const Payer& payer, Problems& problems);
// A deposit (status created) with its ledger credit and logs "created" and "credited".
Entity CreateDeposit(Context& ctx, std::int64_t amount, const Payer& payer, const std::string& type,
                     std::vector<std::string> tags);

}  // namespace balcao::sandbox::internal
