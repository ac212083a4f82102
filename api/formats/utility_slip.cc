// Arrecadação / convênio slips: docs/formats.md, "Arrecadação slips".
#include "api/formats/utility_slip.h"

#include "api/formats/internal/digits.h"

namespace balcao::formats {
namespace {

using internal::AllDigits;
using internal::JoinErrors;

constexpr std::string_view kLineSeparators = " .-";

std::string_view SegmentName(char segment) {
  switch (segment) {
    case '1':
      return "Prefeituras";
    case '2':
      return "Saneamento";
    case '3':
      return "Energia eletrica e gas";
    case '4':
      return "Telecomunicacoes";
    case '5':
      return "Orgaos governamentais";
    case '6':
      return "Carnes e assemelhados ou demais empresas";
    case '7':
      return "Multas de transito";
    case '9':
      return "Uso exclusivo do banco";
    default:
      return "";
  }
}

// 10 or 11 for value identifiers 6-9, 0 otherwise.
int ModulusOf(char value_id) {
  return (value_id == '6' || value_id == '7') ? 10 : (value_id == '8' || value_id == '9') ? 11 : 0;
}

std::string ExpectedGeneralDv(std::string_view barcode, int modulus) {
  std::string body = std::string(barcode.substr(0, 3)) + std::string(barcode.substr(4));
  return std::string(1, UtilityCheckDigit(body, modulus));
}

std::string LineOf(std::string_view barcode, int modulus) {
  std::string line;
  for (std::size_t block = 0; block < 4; ++block) {
    std::string_view digits = barcode.substr(block * 11, 11);
    line += digits;
    line += UtilityCheckDigit(digits, modulus);
  }
  return line;
}

std::string BarcodeOf(std::string_view line) {
  std::string barcode;
  for (std::size_t block = 0; block < 4; ++block) barcode += line.substr(block * 12, 11);
  return barcode;
}

// "block 3 DV is 2, expected 7" for every wrong block DV of a 48-digit line.
std::vector<std::string> BlockDvErrors(std::string_view line, int modulus) {
  std::vector<std::string> errors;
  for (std::size_t block = 0; block < 4; ++block) {
    char declared = line[block * 12 + 11];
    char expected = UtilityCheckDigit(line.substr(block * 12, 11), modulus);
    if (declared != expected) {
      errors.push_back("block " + std::to_string(block + 1) + " DV is " + declared + ", expected " + expected);
    }
  }
  return errors;
}

// Checks pos 1-3; returns the modulus, or 0 when the value identifier is unknown (then no
// check digit can be judged).
int CheckHeader(std::string_view digits, UtilitySlipReport& r) {
  if (digits[0] != '8') r.errors.push_back("product id (pos 1) must be 8");
  if (SegmentName(digits[1]).empty()) r.errors.push_back("segment (pos 2) must be 1-7 or 9");
  int modulus = ModulusOf(digits[2]);
  if (modulus == 0) r.errors.push_back("value identifier (pos 3) must be 6,7,8 or 9");
  return modulus;
}

void DecodeBarcode(std::string_view b, int modulus, UtilitySlipReport& r) {
  UtilitySlip& s = r.slip;
  r.decoded = true;
  s.barcode = std::string(b);
  if (s.line.empty()) s.line = LineOf(b, modulus);
  s.segment = std::string(1, b[1]);
  s.segment_name = std::string(SegmentName(b[1]));
  s.value_id = std::string(1, b[2]);
  s.value_kind = (b[2] == '6' || b[2] == '8') ? UtilityValueKind::kEffective : UtilityValueKind::kReference;
  s.modulus = modulus;
  s.general_dv = std::string(1, b[3]);
  s.value_field = std::string(b.substr(4, 11));
  s.amount_cents = internal::ParseDigits(s.value_field);
  s.company_id_4 = std::string(b.substr(15, 4));
  s.company_or_cnpj_8 = std::string(b.substr(15, 8));
  s.free_field_25 = std::string(b.substr(19, 25));
  std::string expected = ExpectedGeneralDv(b, modulus);
  if (s.general_dv != expected) r.errors.push_back("general DV (pos 4) is " + s.general_dv + ", expected " + expected);
}

}  // namespace

char UtilityCheckDigit(std::string_view digits, int modulus) {
  return internal::DigitChar(modulus == 11 ? internal::Mod11Utility(digits) : internal::Mod10(digits));
}

UtilitySlipReport InspectUtilityBarcode(std::string_view barcode) {
  UtilitySlipReport r;
  if (barcode.size() != 44 || !AllDigits(barcode)) {
    r.errors.push_back("barcode must be 44 digits");
    return r;
  }
  int modulus = CheckHeader(barcode, r);
  if (modulus != 0) DecodeBarcode(barcode, modulus, r);
  return r;
}

UtilitySlipReport InspectUtilityLine(std::string_view line) {
  UtilitySlipReport r;
  std::string l = internal::StripChars(line, kLineSeparators);
  if (l.size() != 48 || !AllDigits(l)) {
    r.errors.push_back("line must be 48 digits");
    return r;
  }
  int modulus = ModulusOf(l[2]);
  if (modulus != 0) r.errors = BlockDvErrors(l, modulus);
  std::string barcode = BarcodeOf(l);
  CheckHeader(barcode, r);
  if (modulus == 0) return r;
  r.slip.line = l;
  DecodeBarcode(barcode, modulus, r);
  return r;
}

StatusOr<UtilitySlip> ParseUtilitySlip(std::string_view barcode_or_line) {
  std::string digits = internal::StripChars(barcode_or_line, kLineSeparators);
  UtilitySlipReport r = digits.size() == 44 ? InspectUtilityBarcode(digits) : InspectUtilityLine(digits);
  if (!r.valid()) return InvalidArgumentError(JoinErrors("arrecadação slip", r.errors));
  return std::move(r.slip);
}

StatusOr<std::string> UtilityLineFromBarcode(std::string_view barcode) {
  if (barcode.size() != 44 || !AllDigits(barcode)) return InvalidArgumentError("barcode must be 44 digits");
  int modulus = ModulusOf(barcode[2]);
  if (modulus == 0) return InvalidArgumentError("value identifier (pos 3) must be 6,7,8 or 9");
  return LineOf(barcode, modulus);
}

StatusOr<std::string> UtilityBarcodeFromLine(std::string_view line) {
  std::string l = internal::StripChars(line, kLineSeparators);
  if (l.size() != 48 || !AllDigits(l)) return InvalidArgumentError("line must be 48 digits");
  int modulus = ModulusOf(l[2]);
  if (modulus == 0) return InvalidArgumentError("value identifier (pos 3) must be 6,7,8 or 9");
  std::vector<std::string> errors = BlockDvErrors(l, modulus);
  if (!errors.empty()) return InvalidArgumentError(JoinErrors("arrecadação line", errors));
  return BarcodeOf(l);
}

StatusOr<std::string> BuildUtilityBarcode(const UtilitySlipSpec& spec) {
  if (spec.segment < 1 || spec.segment > 9 || spec.segment == 8) {
    return InvalidArgumentError("segment must be 1-7 or 9");
  }
  int modulus = ModulusOf(static_cast<char>('0' + (spec.value_id >= 0 && spec.value_id <= 9 ? spec.value_id : 0)));
  if (modulus == 0) return InvalidArgumentError("value identifier must be 6, 7, 8 or 9");
  if (spec.value < 0 || spec.value > 99'999'999'999)
    return InvalidArgumentError("value must be 0 to 99999999999 (11 digits)");
  bool id4 = spec.company_id.size() == 4;
  if ((!id4 && spec.company_id.size() != 8) || !AllDigits(spec.company_id)) {
    return InvalidArgumentError("company id must be 4 digits (FEBRABAN id) or 8 digits (CNPJ root)");
  }
  std::size_t free_size = id4 ? 25 : 21;
  if (spec.free_field.size() != free_size || !AllDigits(spec.free_field)) {
    return InvalidArgumentError("free field must be " + std::to_string(free_size) + " digits after a " +
                                std::to_string(spec.company_id.size()) + "-digit company id");
  }
  std::string b = "8" + std::to_string(spec.segment) + std::to_string(spec.value_id) + "0" +
                  internal::ZeroPad(spec.value, 11) + spec.company_id + spec.free_field;
  b[3] = ExpectedGeneralDv(b, modulus)[0];
  return b;
}

}  // namespace balcao::formats
