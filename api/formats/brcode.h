// Pix BR Code: EMV merchant-presented QR payload as profiled by the BCB. TLV parsing,
// strict validation (docs/formats.md, "BR Code": mandatory objects, template 26, txid,
// amount, CRC), and builders for static (key) and dynamic (location URL) payloads.
// Pure functions and value types; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace balcao::formats {

// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out) over raw bytes.
std::uint16_t Crc16CcittFalse(std::string_view bytes);
// The same as 4 uppercase hex digits: Crc16Hex("123456789") == "29B1".
std::string Crc16Hex(std::string_view bytes);

// One TLV object: a 2-digit id and its value. Templates keep their raw value; use ParseTlv
// on it to read the nested objects.
struct TlvObject {
  std::string id;
  std::string value;
};

// Parses one TLV level. Lengths count characters (UTF-8 code points), so a payload with
// accents still splits where a reader expects; kInvalidArgument names the position (0-based
// byte offset) and the rule: "TLV: non-numeric id/length at 107".
StatusOr<std::vector<TlvObject>> ParseTlv(std::string_view text);

enum class BrCodeKind { kUnknown, kStatic, kDynamic };

// A template (26-51 other than Pix, or 80-99) with its nested objects. (02-25 are
// primitive card-scheme objects, kept in BrCode::objects only.)
struct BrCodeTemplate {
  std::string id;
  std::vector<TlvObject> objects;  // empty when the value is not valid TLV
};

// What a BR Code says. Strings are empty when the object is absent (a TLV value is never
// empty, so "absent" and "empty" cannot be confused).
struct BrCode {
  std::string payload_format_indicator;                          // 00
  std::string point_of_initiation_method;                        // 01: "11" reusable, "12" one use
  std::string pix_template_id;                                   // "26".."51": the template whose GUI is Pix
  std::string gui;                                               // as written (case kept)
  std::string key;                                               // 26-01 (static)
  std::string description;                                       // 26-02 (static)
  std::string fss_ispb;                                          // 26-03 Pix Saque/Troco facilitator
  std::string url;                                               // 26-25 (dynamic), without scheme
  std::string mcc;                                               // 52
  std::string currency;                                          // 53
  std::string amount;                                            // 54 as written, e.g. "10.00"
  std::optional<std::int64_t> amount_cents;                      // 54 read as cents when well formed
  std::string country;                                           // 58
  std::string merchant_name;                                     // 59
  std::string merchant_city;                                     // 60
  std::string postal_code;                                       // 61
  std::string txid;                                              // 62-05
  std::string crc;                                               // 63 as written
  BrCodeKind kind = BrCodeKind::kUnknown;                        // static when 26-01, dynamic when 26-25
  std::vector<BrCodeTemplate> other_merchant_account_templates;  // 26-51 other than Pix
  std::vector<BrCodeTemplate> unreserved_templates;              // 80-99
  std::vector<TlvObject> objects;                                // every root object, in payload order
};

// Everything found in a payload, valid or not. `errors` is empty iff the payload is valid.
// When the root TLV cannot be split, `decoded` is false and only the CRC fields and the
// error are set.
struct BrCodeReport {
  BrCode code;
  bool decoded = false;
  std::optional<std::string> crc_declared;  // when the payload ends with 6304 + 4 hex
  std::optional<std::string> crc_computed;
  std::vector<std::string> errors;  // e.g. "country code (58) must be 'BR'"
  bool valid() const { return errors.empty(); }
};

BrCodeReport InspectBrCode(std::string_view payload);
// The decoded BR Code when valid; otherwise kInvalidArgument with every error, "; "-joined.
StatusOr<BrCode> ParseBrCode(std::string_view payload);

// A static BR Code: the payer's app pays `key` directly.
struct StaticBrCodeSpec {
  std::string key;                           // DICT canonical form: CPF, CNPJ, +55..., lowercase e-mail, EVP
  std::string merchant_name;                 // 1-25 chars after accent folding (see FoldToBrCodeText)
  std::string merchant_city;                 // 1-15 chars after accent folding
  std::optional<std::int64_t> amount_cents;  // > 0 when present
  std::string txid = "***";                  // "***" or 1-25 of [A-Za-z0-9]
  std::string description;                   // 26-02, optional
  std::string mcc = "0000";
  std::string postal_code;  // optional, 8 digits
  bool single_use = false;  // writes 01=12 when true (01 omitted otherwise)
};

// A dynamic BR Code: the payer's PSP fetches the charge from `url`.
struct DynamicBrCodeSpec {
  std::string url;  // location without scheme, <= 77 chars
  std::string merchant_name;
  std::string merchant_city;
  std::optional<std::int64_t> amount_cents;  // >= 0 when present
  std::string mcc = "0000";
  std::string postal_code;
  bool single_use = true;  // 01=12 (BCB dynamic examples); false writes 01=11
};

// Build the payload text (uppercase CRC). Merchant name and city are accent-folded to
// ASCII first; anything still outside printable ASCII, or too long, is kInvalidArgument
// naming the field and the rule. The result always passes InspectBrCode.
StatusOr<std::string> BuildStaticBrCode(const StaticBrCodeSpec& spec);
StatusOr<std::string> BuildDynamicBrCode(const DynamicBrCodeSpec& spec);

// UTF-8 text -> printable ASCII the way BR Code generators do it: Latin-1 letters lose
// their accents ("São João" -> "Sao Joao"), other non-ASCII code points, controls and
// invalid UTF-8 bytes are dropped, runs of spaces collapse, and the result is cut to at
// most `max_chars` characters and trimmed. Use it to fit a merchant's name into 59/60.
std::string FoldToBrCodeText(std::string_view utf8, std::size_t max_chars);

// Validates a Pix key in DICT canonical form; kInvalidArgument names the rule broken.
Status ValidatePixKey(std::string_view key);

}  // namespace balcao::formats
