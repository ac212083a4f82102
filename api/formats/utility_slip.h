// Arrecadação / convênio slips (utilities, taxes, DARF numerado): 44-digit bar codes that
// start with 8 and 48-digit lines of four 11+1 blocks. The value identifier (3rd digit)
// picks mod 10 (6, 7) or mod 11 (8, 9) for every check digit. docs/formats.md,
// "Arrecadação slips".
// Pure functions and value types; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace balcao::formats {

enum class UtilityValueKind { kEffective, kReference };  // BRL amount vs reference quantity

struct UtilitySlip {
  std::string barcode;       // 44 digits
  std::string line;          // 48 digits, no separators
  std::string segment;       // pos 2: 1..7 or 9
  std::string segment_name;  // "Telecomunicacoes", ...
  std::string value_id;      // pos 3: 6, 7, 8 or 9
  UtilityValueKind value_kind = UtilityValueKind::kEffective;
  int modulus = 10;               // 10 or 11
  std::string general_dv;         // pos 4
  std::string value_field;        // pos 5-15 as written
  std::int64_t amount_cents = 0;  // pos 5-15 read with 2 decimals (a quantity when reference)
  std::string company_id_4;       // pos 16-19 (FEBRABAN company/agency id)
  std::string company_or_cnpj_8;  // pos 16-23 (CNPJ root, when the issuer uses it)
  std::string free_field_25;      // pos 20-44
};

struct UtilitySlipReport {
  UtilitySlip slip;
  bool decoded = false;             // false: wrong length/alphabet or unknown value identifier
  std::vector<std::string> errors;  // e.g. "block 3 DV is 2, expected 7"
  bool valid() const { return errors.empty(); }
};

// Separators accepted (and dropped) in a line: space, '.', '-'.
UtilitySlipReport InspectUtilityBarcode(std::string_view barcode);
UtilitySlipReport InspectUtilityLine(std::string_view line);
StatusOr<UtilitySlip> ParseUtilitySlip(std::string_view barcode_or_line);

// The check digit of `digits` under the slip's modulus. mod 10: weights 2,1 from the
// right, digits of each product summed, (10 - S%10) % 10. mod 11: weights 2..9 from the
// right, r = S%11, DV = 0 when r < 2, else 11 - r (unlike the boleto rule; docs/formats.md,
// "Check digits").
char UtilityCheckDigit(std::string_view digits, int modulus);

StatusOr<std::string> UtilityLineFromBarcode(std::string_view barcode);
StatusOr<std::string> UtilityBarcodeFromLine(std::string_view line);

struct UtilitySlipSpec {
  int segment = 1;         // 1..7 or 9
  int value_id = 6;        // 6, 7, 8 or 9
  std::int64_t value = 0;  // cents (or the reference quantity x100), 11 digits max
  std::string company_id;  // 4 digits (FEBRABAN id) or 8 digits (CNPJ root)
  std::string free_field;  // 25 digits after a 4-digit id, 21 after an 8-digit root
};
// The 44-digit bar code with its general DV; UtilityLineFromBarcode gives the line.
StatusOr<std::string> BuildUtilityBarcode(const UtilitySlipSpec& spec);

}  // namespace balcao::formats
