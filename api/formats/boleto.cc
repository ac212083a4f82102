// Boleto bancário: docs/formats.md, "Boleto" (bar code, line, DVs, due factor and its rollover).
#include "api/formats/boleto.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "api/formats/internal/digits.h"

namespace balcao::formats {
namespace {

using internal::AllDigits;
using internal::DigitChar;
using internal::JoinErrors;
using std::chrono::days;
using std::chrono::sys_days;

constexpr std::string_view kLineSeparators = " .-";
constexpr int kCycleDays = 9000;  // factors 1000..9999
// Factor F of cycle k is the date kBase + F + 9000 k (kBase + 1000 = 2000-07-03).
const sys_days kBase = sys_days{std::chrono::year{1997} / 10 / 7};

// The digits of the line's three fields without their DVs, as (begin, length) in the line.
struct LineField {
  std::size_t begin;
  std::size_t length;
};
constexpr LineField kLineFields[3] = {{0, 9}, {10, 10}, {21, 10}};

std::string ExpectedGeneralDv(std::string_view barcode) {
  std::string body = std::string(barcode.substr(0, 4)) + std::string(barcode.substr(5));
  return std::string(1, DigitChar(internal::Mod11Boleto(body)));
}

// Line from a 44-digit bar code, field DVs recomputed (docs/formats.md, "Conversions").
std::string LineOf(std::string_view b) {
  std::string fields[3] = {std::string(b.substr(0, 4)) + std::string(b.substr(19, 5)), std::string(b.substr(24, 10)),
                           std::string(b.substr(34, 10))};
  std::string line;
  for (const std::string& f : fields) line += f + DigitChar(internal::Mod10(f));
  line += b.substr(4, 15);
  return line;
}

std::string BarcodeOf(std::string_view l) {
  return std::string(l.substr(0, 4)) + std::string(l.substr(32, 15)) + std::string(l.substr(4, 5)) +
         std::string(l.substr(10, 10)) + std::string(l.substr(21, 10));
}

// Field DV errors of a 47-digit line: "field1 DV is 2, expected 9".
std::vector<std::string> FieldDvErrors(std::string_view line) {
  std::vector<std::string> errors;
  for (int i = 0; i < 3; ++i) {
    std::string_view digits = line.substr(kLineFields[i].begin, kLineFields[i].length);
    char declared = line[kLineFields[i].begin + kLineFields[i].length];
    char expected = DigitChar(internal::Mod10(digits));
    if (declared != expected) {
      errors.push_back("field" + std::to_string(i + 1) + " DV is " + declared + ", expected " + expected);
    }
  }
  return errors;
}

void DecodeBarcode(std::string_view b, std::optional<Date> reference, BoletoReport& r) {
  Boleto& x = r.boleto;
  r.decoded = true;
  x.barcode = std::string(b);
  if (x.line.empty()) x.line = LineOf(b);
  x.bank_code = std::string(b.substr(0, 3));
  x.currency_code = std::string(b.substr(3, 1));
  x.general_dv = std::string(b.substr(4, 1));
  x.due_factor = std::string(b.substr(5, 4));
  x.amount_cents = internal::ParseDigits(b.substr(9, 10));
  x.free_field = std::string(b.substr(19, 25));
  int factor = static_cast<int>(internal::ParseDigits(x.due_factor));
  x.due_date_candidates = DueDateCandidates(factor, reference);
  if (reference) x.due_date = ResolveDueFactor(factor, *reference);
  std::string expected = ExpectedGeneralDv(b);
  if (x.general_dv != expected) r.errors.push_back("general DV (pos 5) is " + x.general_dv + ", expected " + expected);
  if (x.currency_code != "9") r.errors.push_back("currency code (pos 4) is " + x.currency_code + ", not 9 (real)");
}

}  // namespace

std::string FormatIsoDate(Date date) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()));
  return buf;
}

StatusOr<Date> ParseIsoDate(std::string_view text) {
  bool shape = text.size() == 10 && text[4] == '-' && text[7] == '-' && AllDigits(text.substr(0, 4)) &&
               AllDigits(text.substr(5, 2)) && AllDigits(text.substr(8, 2));
  if (shape) {
    Date d{std::chrono::year{static_cast<int>(internal::ParseDigits(text.substr(0, 4)))},
           std::chrono::month{static_cast<unsigned>(internal::ParseDigits(text.substr(5, 2)))},
           std::chrono::day{static_cast<unsigned>(internal::ParseDigits(text.substr(8, 2)))}};
    if (d.ok()) return d;
  }
  return InvalidArgumentError("date must be a calendar date written YYYY-MM-DD, got '" + std::string(text) + "'");
}

std::vector<Date> DueDateCandidates(int factor, std::optional<Date> reference) {
  std::vector<Date> out;
  if (factor < 1000 || factor > 9999) return out;
  long last_cycle = 1;
  if (reference) {
    auto resolved = (sys_days{*ResolveDueFactor(factor, *reference)} - kBase).count();
    last_cycle = std::max(last_cycle, static_cast<long>((resolved - factor) / kCycleDays));
  }
  for (long k = 0; k <= last_cycle; ++k) out.push_back(Date{kBase + days{factor + kCycleDays * k}});
  return out;
}

std::optional<Date> ResolveDueFactor(int factor, Date reference) {
  if (factor < 1000 || factor > 9999) return std::nullopt;
  sys_days ref{reference};
  std::optional<sys_days> best;
  for (int k = 0;; ++k) {
    sys_days candidate = kBase + days{factor + kCycleDays * k};
    auto offset = (candidate - ref).count();
    if (offset >= -3000 && offset <= 5500) return Date{candidate};
    // No candidate in the window (a 500-day gap between cycles): the nearest one.
    if (!best || std::abs((candidate - ref).count()) < std::abs((*best - ref).count())) best = candidate;
    if (offset > 5500) return Date{*best};
  }
}

StatusOr<int> DueFactorOf(Date due_date) {
  if (!due_date.ok()) return InvalidArgumentError("due date is not a calendar date");
  auto since = (sys_days{due_date} - kBase).count();
  if (since < 1000) return InvalidArgumentError("due date before 2000-07-03 has no due factor");
  return static_cast<int>(1000 + (since - 1000) % kCycleDays);
}

BoletoReport InspectBoletoBarcode(std::string_view barcode, std::optional<Date> reference) {
  BoletoReport r;
  if (barcode.size() != 44 || !AllDigits(barcode)) {
    r.errors.push_back("barcode must be 44 digits");
    return r;
  }
  DecodeBarcode(barcode, reference, r);
  return r;
}

BoletoReport InspectBoletoLine(std::string_view line, std::optional<Date> reference) {
  BoletoReport r;
  std::string l = internal::StripChars(line, kLineSeparators);
  if (l.size() != 47 || !AllDigits(l)) {
    r.errors.push_back("line must be 47 digits");
    return r;
  }
  r.errors = FieldDvErrors(l);
  r.boleto.line = l;
  DecodeBarcode(BarcodeOf(l), reference, r);
  return r;
}

StatusOr<Boleto> ParseBoleto(std::string_view barcode_or_line, std::optional<Date> reference) {
  std::string digits = internal::StripChars(barcode_or_line, kLineSeparators);
  BoletoReport r = digits.size() == 44 ? InspectBoletoBarcode(digits, reference) : InspectBoletoLine(digits, reference);
  if (!r.valid()) return InvalidArgumentError(JoinErrors("boleto", r.errors));
  return std::move(r.boleto);
}

StatusOr<std::string> BoletoLineFromBarcode(std::string_view barcode) {
  if (barcode.size() != 44 || !AllDigits(barcode)) return InvalidArgumentError("barcode must be 44 digits");
  return LineOf(barcode);
}

StatusOr<std::string> BoletoBarcodeFromLine(std::string_view line) {
  std::string l = internal::StripChars(line, kLineSeparators);
  if (l.size() != 47 || !AllDigits(l)) return InvalidArgumentError("line must be 47 digits");
  std::vector<std::string> errors = FieldDvErrors(l);
  if (!errors.empty()) return InvalidArgumentError(JoinErrors("boleto line", errors));
  return BarcodeOf(l);
}

StatusOr<std::string> BuildBoletoBarcode(const BoletoSpec& spec) {
  if (spec.bank_code.size() != 3 || !AllDigits(spec.bank_code)) {
    return InvalidArgumentError("bank code must be 3 digits (COMPE)");
  }
  if (spec.currency_code != 9) return InvalidArgumentError("currency code must be 9 (real)");
  if (spec.amount_cents < 0 || spec.amount_cents > 99'999'999'99) {
    return InvalidArgumentError("amount must be between 0.00 and 99999999.99 (10 digits)");
  }
  if (spec.free_field.size() != 25 || !AllDigits(spec.free_field)) {
    return InvalidArgumentError("free field must be 25 digits");
  }
  int factor = 0;
  if (spec.due_date) {
    BALCAO_ASSIGN_OR_RETURN(factor, DueFactorOf(*spec.due_date));
  }
  std::string b = spec.bank_code + "9" + "0" + internal::ZeroPad(factor, 4) + internal::ZeroPad(spec.amount_cents, 10) +
                  spec.free_field;
  b[4] = ExpectedGeneralDv(b)[0];
  return b;
}

}  // namespace balcao::formats
