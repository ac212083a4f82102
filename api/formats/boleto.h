// Boleto bancário (cobrança): 44-digit bar code <-> 47-digit linha digitável, every check
// digit (mod 10 per field, mod 11 general DV), the due factor with its 2025-02-22 rollover,
// and a bar code builder. docs/formats.md, "Boleto". Pure functions and value types;
// thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace balcao::formats {

using Date = std::chrono::year_month_day;

// "2025-02-22"
std::string FormatIsoDate(Date date);
// Strict "YYYY-MM-DD" (a real calendar date).
StatusOr<Date> ParseIsoDate(std::string_view text);

// --- Due factor (fator de vencimento) -------------------------------------------------
// Factor 1000 was 2000-07-03; 9999 was 2025-02-21; on 2025-02-22 it restarted at 1000 and
// now repeats every 9000 days. A factor F therefore names several dates; the one meant is
// chosen against a reference date (the processing date): the candidate within
// [reference - 3000 days, reference + 5500 days] (brazilian-utils' window), else the nearest.

// The dates factor F can mean, oldest first: the first two cycles (2000-2025, 2025-2049),
// and later ones up to the one the reference resolves to. Empty for factors < 1000.
std::vector<Date> DueDateCandidates(int factor, std::optional<Date> reference = std::nullopt);
// The date factor F means relative to `reference`; nullopt for factors < 1000.
std::optional<Date> ResolveDueFactor(int factor, Date reference);
// The factor of a due date (>= 2000-07-03), e.g. 2025-02-22 -> 1000.
StatusOr<int> DueFactorOf(Date due_date);

// --- Decoded boleto ---------------------------------------------------------------------
struct Boleto {
  std::string barcode;                    // 44 digits
  std::string line;                       // 47 digits, no separators
  std::string bank_code;                  // COMPE, pos 1-3
  std::string currency_code;              // pos 4, "9" = real
  std::string general_dv;                 // pos 5
  std::string due_factor;                 // pos 6-9 as written
  std::int64_t amount_cents = 0;          // pos 10-19
  std::string free_field;                 // pos 20-44 (campo livre), bank-defined
  std::vector<Date> due_date_candidates;  // empty when the factor carries no due date
  std::optional<Date> due_date;           // resolved when a reference date was given
};

// Everything found, valid or not. `errors` is empty iff valid; when the text does not even
// have the right length/alphabet, `decoded` is false and only `errors` is meaningful.
struct BoletoReport {
  Boleto boleto;
  bool decoded = false;
  std::vector<std::string> errors;  // e.g. "general DV (pos 5) is 3, expected 6"
  bool valid() const { return errors.empty(); }
};

// Separators accepted (and dropped) in a line: space, '.', '-'. The bar code is digits only.
// `reference` (the processing date) resolves the due factor; see ResolveDueFactor.
BoletoReport InspectBoletoBarcode(std::string_view barcode, std::optional<Date> reference);
BoletoReport InspectBoletoLine(std::string_view line, std::optional<Date> reference);
// Either form (47 -> line, 44 -> bar code); valid or kInvalidArgument with every error.
StatusOr<Boleto> ParseBoleto(std::string_view barcode_or_line, std::optional<Date> reference);

// Conversions that only rearrange digits and recompute the field DVs (line -> bar code
// checks the field DVs first). They do not judge the general DV: use Inspect* for that.
StatusOr<std::string> BoletoLineFromBarcode(std::string_view barcode);
StatusOr<std::string> BoletoBarcodeFromLine(std::string_view line);

struct BoletoSpec {
  std::string bank_code;          // 3 digits (COMPE)
  int currency_code = 9;          // only 9 (real) is accepted
  std::optional<Date> due_date;   // absent: factor 0000 (no due date)
  std::int64_t amount_cents = 0;  // 0 .. 99'999'999'99
  std::string free_field;         // 25 digits
};
// The 44-digit bar code with its general DV; BoletoLineFromBarcode gives the line.
StatusOr<std::string> BuildBoletoBarcode(const BoletoSpec& spec);

}  // namespace balcao::formats
