// BR Code builders and the accent folding they rely on (docs/formats.md, "BR Code").
#include <algorithm>
#include <cstdio>

#include "api/formats/brcode.h"
#include "api/formats/internal/digits.h"

namespace balcao::formats {
namespace {

using internal::AllDigits;
using namespace std::string_view_literals;

// ASCII for U+00C0..U+00FF ('\0' = no ASCII form); U+00C6, U+00DF and U+00E6 take two letters.
constexpr std::string_view kLatin1Fold = "AAAAAA\0CEEEEIIIIDNOOOOO\0OUUUUY\0\0aaaaaa\0ceeeeiiiidnooooo\0ouuuuy\0y"sv;
static_assert(kLatin1Fold.size() == 64);

std::string FoldCodePoint(std::uint32_t cp) {
  if (cp >= 0x20 && cp < 0x7F) return std::string(1, static_cast<char>(cp));
  if (cp == 0xA0) return " ";
  if (cp == 0xC6) return "AE";
  if (cp == 0xE6) return "ae";
  if (cp == 0xDF) return "ss";
  if (cp >= 0xC0 && cp <= 0xFF && kLatin1Fold[cp - 0xC0] != '\0') return std::string(1, kLatin1Fold[cp - 0xC0]);
  return {};
}

struct Folded {
  std::string text;
  std::string first_unfoldable;  // "U+2615", "byte 0xFF", or empty when all folded
};

Folded FoldAscii(std::string_view utf8) {
  Folded out;
  std::size_t i = 0;
  while (i < utf8.size()) {
    unsigned char lead = static_cast<unsigned char>(utf8[i]);
    std::size_t len = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
    std::uint32_t cp = len == 1 ? lead : len == 2 ? lead & 0x1F : len == 3 ? lead & 0x0F : lead & 0x07;
    bool ok = len != 0 && i + len <= utf8.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      unsigned char next = static_cast<unsigned char>(utf8[i + k]);
      ok = (next & 0xC0) == 0x80;
      cp = (cp << 6) | (next & 0x3F);
    }
    std::string folded = ok ? FoldCodePoint(cp) : std::string();
    if (folded.empty() && out.first_unfoldable.empty()) {
      char buf[16];
      std::snprintf(buf, sizeof buf, ok ? "U+%04X" : "byte 0x%02X", ok ? cp : lead);
      out.first_unfoldable = buf;
    }
    out.text += folded;
    i += ok ? len : 1;
  }
  return out;
}

// Folds a text field for the payload and checks it is 1..max_chars long.
StatusOr<std::string> FoldField(std::string_view name, std::string_view utf8, std::size_t max_chars) {
  Folded f = FoldAscii(utf8);
  if (!f.first_unfoldable.empty()) {
    return InvalidArgumentError(std::string(name) + " has a character with no ASCII form (" + f.first_unfoldable + ")");
  }
  if (f.text.empty()) return InvalidArgumentError(std::string(name) + " is empty");
  if (f.text.size() > max_chars) {
    return InvalidArgumentError(std::string(name) + " is " + std::to_string(f.text.size()) + " chars, limit " +
                                std::to_string(max_chars));
  }
  return f.text;
}

void AppendTlv(std::string& out, std::string_view id, std::string_view value) {
  out += id;
  out += internal::ZeroPad(static_cast<std::int64_t>(value.size()), 2);
  out += value;
}

// The merchant-and-amount part shared by both kinds, after template 26.
struct CommonFields {
  std::string mcc;
  std::optional<std::int64_t> amount_cents;
  std::string merchant_name;
  std::string merchant_city;
  std::string postal_code;
  std::string txid;
};

constexpr std::int64_t kMaxAmountCents = 999'999'999'999;  // "9999999999.99": 13 chars

Status CheckCommon(const CommonFields& f, std::int64_t min_cents) {
  if (f.mcc.size() != 4 || !AllDigits(f.mcc)) return InvalidArgumentError("mcc (52) must be 4 digits");
  if (f.amount_cents && (*f.amount_cents < min_cents || *f.amount_cents > kMaxAmountCents)) {
    return InvalidArgumentError("amount (54) must be between " + internal::FormatCents(min_cents) +
                                " and 9999999999.99");
  }
  if (!f.postal_code.empty() && (f.postal_code.size() != 8 || !AllDigits(f.postal_code))) {
    return InvalidArgumentError("postal code (61) must be a CEP of 8 digits");
  }
  return OkStatus();
}

std::string Finish(std::string payload, const CommonFields& f) {
  AppendTlv(payload, "52", f.mcc);
  AppendTlv(payload, "53", "986");
  if (f.amount_cents) AppendTlv(payload, "54", internal::FormatCents(*f.amount_cents));
  AppendTlv(payload, "58", "BR");
  AppendTlv(payload, "59", f.merchant_name);
  AppendTlv(payload, "60", f.merchant_city);
  if (!f.postal_code.empty()) AppendTlv(payload, "61", f.postal_code);
  std::string additional;
  AppendTlv(additional, "05", f.txid);
  AppendTlv(payload, "62", additional);
  payload += "6304";
  payload += Crc16Hex(payload);
  return payload;
}

StatusOr<CommonFields> ReadCommon(const std::string& mcc, std::optional<std::int64_t> amount, std::string_view name,
                                  std::string_view city, const std::string& postal_code, std::string txid,
                                  std::int64_t min_cents) {
  CommonFields f{mcc, amount, {}, {}, postal_code, std::move(txid)};
  BALCAO_ASSIGN_OR_RETURN(f.merchant_name, FoldField("merchant name (59)", name, 25));
  BALCAO_ASSIGN_OR_RETURN(f.merchant_city, FoldField("merchant city (60)", city, 15));
  BALCAO_RETURN_IF_ERROR(CheckCommon(f, min_cents));
  return f;
}

std::string Header(bool write_poi, bool single_use) {
  std::string out;
  AppendTlv(out, "00", "01");
  if (write_poi) AppendTlv(out, "01", single_use ? "12" : "11");
  return out;
}

}  // namespace

std::string FoldToBrCodeText(std::string_view utf8, std::size_t max_chars) {
  std::string folded = FoldAscii(utf8).text;
  std::string out;
  for (char c : folded) {
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out.push_back(c);
  }
  if (out.size() > max_chars) out.resize(max_chars);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

StatusOr<std::string> BuildStaticBrCode(const StaticBrCodeSpec& spec) {
  Status key = ValidatePixKey(spec.key);
  if (!key.ok()) return InvalidArgumentError("key (26-01): " + key.message());
  bool txid_ok = spec.txid == "***" || (!spec.txid.empty() && spec.txid.size() <= 25 &&
                                        std::all_of(spec.txid.begin(), spec.txid.end(), internal::IsAlnum));
  if (!txid_ok) return InvalidArgumentError("txid (62-05) must be '***' or 1-25 chars [A-Za-z0-9]");
  BALCAO_ASSIGN_OR_RETURN(CommonFields common, ReadCommon(spec.mcc, spec.amount_cents, spec.merchant_name,
                                                          spec.merchant_city, spec.postal_code, spec.txid, 1));
  std::string account;
  AppendTlv(account, "00", "br.gov.bcb.pix");
  AppendTlv(account, "01", spec.key);
  if (!spec.description.empty()) {
    BALCAO_ASSIGN_OR_RETURN(std::string description, FoldField("description (26-02)", spec.description, 99));
    AppendTlv(account, "02", description);
  }
  if (account.size() > 99) {
    return InvalidArgumentError("template 26 would be " + std::to_string(account.size()) +
                                " chars, limit 99: shorten the description (26-02)");
  }
  std::string payload = Header(spec.single_use, true);
  AppendTlv(payload, "26", account);
  return Finish(std::move(payload), common);
}

StatusOr<std::string> BuildDynamicBrCode(const DynamicBrCodeSpec& spec) {
  const std::string& url = spec.url;
  if (url.empty()) return InvalidArgumentError("url (26-25) is empty");
  if (url.find("://") != std::string::npos) return InvalidArgumentError("url (26-25) must not carry a scheme");
  if (url.size() > 77) return InvalidArgumentError("url (26-25) is " + std::to_string(url.size()) + " chars, limit 77");
  if (!std::all_of(url.begin(), url.end(), [](char c) { return c > 0x20 && c < 0x7F; })) {
    return InvalidArgumentError("url (26-25) must be printable ASCII without spaces");
  }
  BALCAO_ASSIGN_OR_RETURN(CommonFields common, ReadCommon(spec.mcc, spec.amount_cents, spec.merchant_name,
                                                          spec.merchant_city, spec.postal_code, "***", 0));
  std::string account;
  AppendTlv(account, "00", "br.gov.bcb.pix");
  AppendTlv(account, "25", url);
  std::string payload = Header(true, spec.single_use);
  AppendTlv(payload, "26", account);
  return Finish(std::move(payload), common);
}

}  // namespace balcao::formats
