// One entry point for "what is this text?": Check() detects the kind (BR Code, boleto bar
// code or line, arrecadação bar code or line, CPF, CNPJ, Pix end-to-end id), validates it
// and returns the decoded fields as an ordered key/value list (no JSON dependency).
// Pure; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/formats/boleto.h"

namespace balcao::formats {

enum class FormatKind {
  kUnknown,
  kBrCode,
  kBoletoBarcode,
  kBoletoLine,
  kUtilityBarcode,
  kUtilityLine,
  kCpf,
  kCnpj,
  kPixEndToEndId,
};

// "brcode", "boleto-barcode", "boleto-line", "utility-barcode", "utility-line", "cpf",
// "cnpj", "pix-e2e", "unknown".
std::string_view FormatKindName(FormatKind kind);

// One decoded field. Keys with '.' nest ("unreserved_templates.80.00" is object
// "unreserved_templates" -> "80" -> "00"). Consecutive kListItem fields with the same key
// form one list.
struct Field {
  enum class Type { kText, kInteger, kBool, kListItem };
  std::string key;
  std::string value;  // integers in decimal, bools "true"/"false"
  Type type = Type::kText;
  bool operator==(const Field&) const = default;
};

struct CheckResult {
  FormatKind kind = FormatKind::kUnknown;
  bool valid = false;
  std::vector<Field> fields;
  std::vector<std::string> errors;
  // The value of the first field with this key, or nullptr.
  const Field* Find(std::string_view key) const;
};

struct CheckOptions {
  // Resolves boleto due factors (docs/formats.md, "Due factor"); pass the processing date.
  // Without it the candidates are listed but no due_date is chosen.
  std::optional<Date> reference_date;
};

// Leading/trailing whitespace is ignored. Detection, in order: only digits and separators
// (space . - /) -> by digit count: 11 cpf, 14 cnpj, 44 bar code (utility when it starts
// with 8), 47 boleto line, 48 utility line; 14 alphanumerics once separators are dropped
// -> cnpj; "E" + digit -> pix-e2e; text starting "00" -> brcode; else unknown (invalid).
CheckResult Check(std::string_view text, const CheckOptions& options = {});

// The kind Check() would pick for `text` (already trimmed or not).
FormatKind DetectFormatKind(std::string_view text);

// Validates `text` as the given kind, skipping detection (e.g. a 43-digit "line" is judged
// as a boleto line and told it must be 47 digits). kUnknown behaves like Check().
CheckResult CheckAs(FormatKind kind, std::string_view text, const CheckOptions& options = {});

// "boleto-line" -> kBoletoLine; kUnknown for any other text.
FormatKind FormatKindFromName(std::string_view name);

}  // namespace balcao::formats
