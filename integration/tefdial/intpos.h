// The IntPos file of TEF Dial: the text a cash register ("PDV") and a payment manager exchange
// through two folders (docs/integration.md, "TEF Dial"). One field per line, `NNN-NNN = value`:
// the field number, its repetition index and the value. Parse is lenient where real PDVs differ
// (CRLF or LF, a value with or without double quotes, spaces around '=' missing, fields in any
// order, unknown fields kept); Write is strict (CRLF, "NNN-NNN = value", fields in number order,
// 999-999 last). Pure: no I/O. Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"

namespace balcao::integration::tefdial {

// A field's key: its number (000-999) and its repetition index (000-999), as in "029-004".
struct FieldKey {
  int number = 0;
  int index = 0;
  auto operator<=>(const FieldKey&) const = default;
};

// The fields of the public TEF Dial table this box reads or writes (docs/integration.md lists
// each with its source). Receipt lines are repeated fields: 029-001..029-NNN after 028-000.
namespace field {
inline constexpr FieldKey kCommand{0, 0};           // ATV CRT CNF NCN CNC ADM
inline constexpr FieldKey kId{1, 0};                // the request's id, echoed
inline constexpr FieldKey kFiscalDocument{2, 0};    // the PDV's fiscal document number
inline constexpr FieldKey kAmount{3, 0};            // cents, no separator
inline constexpr FieldKey kCurrency{4, 0};          // 0 = real
inline constexpr FieldKey kStatus{9, 0};            // 0 = approved
inline constexpr FieldKey kNetwork{10, 0};          // the acquirer's name
inline constexpr FieldKey kNetworkTaxId{10, 1};     // the acquirer's CNPJ
inline constexpr FieldKey kTransactionType{11, 0};  // 10 credit, 11 credit by the store in installments, 20 debit
inline constexpr FieldKey kNsu{12, 0};
inline constexpr FieldKey kAuthorization{13, 0};
inline constexpr FieldKey kInstallmentKind{17, 0};  // 0 = by the store
inline constexpr FieldKey kInstallments{18, 0};
inline constexpr FieldKey kReceiptDate{22, 0};  // DDMMAAAA
inline constexpr FieldKey kReceiptTime{23, 0};  // HHMMSS
inline constexpr FieldKey kControl{27, 0};      // "finalização": the transaction's unique code
inline constexpr FieldKey kReceiptLines{28, 0};
inline constexpr int kReceiptLine = 29;  // 029-001..
inline constexpr FieldKey kOperatorMessage{30, 0};
inline constexpr FieldKey kCardBrand{40, 0};  // "administradora"
inline constexpr FieldKey kCustomerLines{712, 0};
inline constexpr int kCustomerLine = 713;
inline constexpr FieldKey kMerchantLines{714, 0};
inline constexpr int kMerchantLine = 715;
inline constexpr FieldKey kConfirmation{729, 0};  // 1 none needed, 2 CNF/NCN needed
inline constexpr FieldKey kOperation{730, 0};     // 1 sale, 51 cancellation, 49 other administrative
inline constexpr FieldKey kCardType{731, 0};      // 0 other, 1 credit, 2 debit
inline constexpr FieldKey kFinancing{732, 0};     // 1 cash, 3 installments by the store
inline constexpr FieldKey kCopies{737, 0};        // 3 = customer and merchant copies
inline constexpr FieldKey kMaskedCard{740, 0};
inline constexpr FieldKey kTrailer{999, 999};
}  // namespace field

// "029-004"
std::string KeyText(FieldKey key);

class IntPos {
 public:
  // Sets (or replaces) a field. Values are kept as given; Write quotes receipt lines.
  void Set(FieldKey key, std::string value);
  // The value, "" when absent.
  std::string Get(FieldKey key) const;
  bool Has(FieldKey key) const { return fields_.count(key) > 0; }
  const std::map<FieldKey, std::string>& fields() const { return fields_; }
  // The lines `number`-001.. in index order (receipt lines), without quotes.
  std::vector<std::string> Lines(int number) const;
  // Sets `count_key` to the number of lines and `number`-001.. to each.
  void SetLines(FieldKey count_key, int number, const std::vector<std::string>& lines);

 private:
  std::map<FieldKey, std::string> fields_;
};

// Reads a file's text. kInvalidArgument naming the line (1-based) and the rule when a line is
// not "NNN-NNN = value" or a key repeats; blank lines are skipped; a UTF-8 BOM is skipped.
// Surrounding double quotes of a value are removed; spaces around the value are trimmed.
StatusOr<IntPos> Parse(std::string_view text);

// The file's text: CRLF line ends, "NNN-NNN = value", fields in number order with 999-999 last
// (added as "0" when missing). Receipt line values (029, 713, 715) are written in double quotes.
// Characters outside printable ASCII are replaced ('?'), as the format allows no others.
std::string Write(const IntPos& file);

// File names, compared without regard to case (Windows PDVs and their shares ignore it).
// The request a PDV renames into req/ ("IntPos.001", "intpos.001", ...).
bool IsRequestName(std::string_view name);
// The status and response names to answer a request named `request_name` in the same case
// style: all lower case when the request was, else PayGo's "IntPos.Sts" / "IntPos.001".
std::string StatusNameFor(std::string_view request_name);
std::string ResponseNameFor(std::string_view request_name);

}  // namespace balcao::integration::tefdial
