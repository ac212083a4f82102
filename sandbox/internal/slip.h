// Payment slips as the payment families read them (api/formats does the digits): a boleto
// (47-digit line / 44-digit bar code) or an arrecadação slip (48 / 44 digits starting with 8:
// utilities, taxes), the preview `type` each maps to, and which boletos this sandbox issued.
// Implemented in family_payment_preview.cc. Thread-safety: as Context.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "api/formats/brcode.h"
#include "common/status.h"
#include "sandbox/internal/engine.h"
#include "sandbox/internal/validate.h"

namespace balcao::sandbox::internal {

enum class SlipKind { kBoleto, kUtility, kTax };

struct Slip {
  SlipKind kind = SlipKind::kBoleto;
  std::string line;      // digits only
  std::string bar_code;  // 44 digits
  std::int64_t amount = 0;
  std::optional<UnixMicros> due;  // boletos with a due factor
  std::string bank_code;          // boletos: COMPE
  std::string free_field;         // boletos: 25 digits
  int segment = 0;                // arrecadação: 1..9
  std::string tax_type;           // tax slips: iss-iptu (1), federal (5), traffic-fine (7)
};

// Decodes any slip text (line or bar code, separators allowed); nullopt when invalid.
std::optional<Slip> ParseSlip(Context& ctx, std::string_view text);
// Reads `line` and/or `barCode` of a payment body: one is needed, both must name the same
// slip, and it must be of one of the `accepted` kinds (boleto; utility; tax). Problems name
// the field; codes invalidLine / invalidBarCode.
std::optional<Slip> ReadSlip(Context& ctx, Reader& in, std::initializer_list<SlipKind> accepted);
// "boleto-payment", "utility-payment", "tax-payment".
std::string_view PaymentTypeOf(SlipKind kind);

// POST of boleto-, utility- and tax-payment (one element): description (min 10), line /
// barCode of `kind`, scheduled, tags; boletos also taxId (payer) and amount (default: what
// the boleto costs now); then StartFlow.
Json CreateSlipPayment(Context& ctx, const Json& element, Problems& problems, SlipKind kind);
// CreateSlipPayment of one kind: the `create` of that payment's family.
inline auto CreateSlipPaymentOf(SlipKind kind) {
  return [kind](Context& ctx, const Json& element, Problems& problems) {
    return CreateSlipPayment(ctx, element, problems, kind);
  };
}

// A BR Code as payers' apps read it: formats::ParseBrCode, except that a CRC written in
// lowercase hex (which some apps and libraries emit, and payers' apps accept) is read too,
// with a warning on the sandbox's log. The sandbox's own BR Codes stay uppercase.
StatusOr<formats::BrCode> ReadBrCode(std::string_view text);

// Boletos this sandbox issues use bank code 462 and carry their id in the free field.
inline constexpr std::string_view kSandboxBankCode = "462";
std::optional<std::string> SandboxBoletoId(const Slip& slip);
// The amount a payer owes now for a boleto of this sandbox (any workspace): nominal plus
// fine and interest after due, minus a discount; nullopt when it cannot be paid.
std::optional<std::int64_t> SandboxBoletoCharge(Context& ctx, const std::string& boleto_id);

}  // namespace balcao::sandbox::internal
