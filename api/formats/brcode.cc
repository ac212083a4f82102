// BR Code reading and validation: docs/formats.md, "BR Code" (strict rule set; "Decisions
// where sources disagree" for the choices).
#include "api/formats/brcode.h"

#include <algorithm>
#include <bitset>

#include "api/formats/internal/digits.h"
#include "api/formats/tax_id.h"

namespace balcao::formats {
namespace {

using internal::AllDigits;
using internal::IsAlnum;

constexpr std::string_view kPixGui = "br.gov.bcb.pix";
constexpr std::size_t kMaxPayloadChars = 512;  // EMV MPM payload limit

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return Lower(x) == Lower(y); });
}

bool IsHex(char c) { return internal::IsDigit(c) || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); }

// Characters of a TLV value (UTF-8 code points) for the length limits.
std::size_t CharCount(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

const TlvObject* Find(const std::vector<TlvObject>& objects, std::string_view id) {
  auto it = std::find_if(objects.begin(), objects.end(), [&](const TlvObject& o) { return o.id == id; });
  return it == objects.end() ? nullptr : &*it;
}

std::string Get(const std::vector<TlvObject>& objects, std::string_view id) {
  const TlvObject* o = Find(objects, id);
  return o ? o->value : std::string();
}

int IdNumber(const std::string& id) { return (id[0] - '0') * 10 + (id[1] - '0'); }

// 54: digits, optional '.', at most 2 decimals, at most 13 chars ("98" and "98." read too).
std::optional<std::int64_t> ParseAmount(std::string_view text) {
  if (text.empty() || text.size() > 13) return std::nullopt;
  std::size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() || !AllDigits(whole) || !AllDigits(frac) || frac.size() > 2) return std::nullopt;
  std::int64_t cents = internal::ParseDigits(whole) * 100;
  if (frac.size() >= 1) cents += (frac[0] - '0') * 10;
  if (frac.size() == 2) cents += frac[1] - '0';
  return cents;
}

bool IsValidTxid(std::string_view txid) {
  return txid == "***" || (!txid.empty() && txid.size() <= 25 && std::all_of(txid.begin(), txid.end(), IsAlnum));
}

// Checks the CRC tail (docs/formats.md, "CRC") and fills crc_declared / crc_computed.
void CheckCrc(std::string_view payload, BrCodeReport& r) {
  std::size_t n = payload.size();
  bool tail = n >= 8 && payload.substr(n - 8, 4) == "6304" && std::all_of(payload.end() - 4, payload.end(), IsHex);
  if (!tail) {
    r.errors.push_back("payload does not end with 6304+4 hex chars");
    return;
  }
  r.crc_declared = std::string(payload.substr(n - 4));
  r.crc_computed = Crc16Hex(payload.substr(0, n - 4));
  if (*r.crc_declared == *r.crc_computed) return;
  if (EqualsIgnoreCase(*r.crc_declared, *r.crc_computed)) {
    r.errors.push_back("CRC (63) must be uppercase hex: declared " + *r.crc_declared + " computed " + *r.crc_computed);
  } else {
    r.errors.push_back("CRC mismatch: declared " + *r.crc_declared + " computed " + *r.crc_computed);
  }
}

void CheckPrintableAscii(std::string_view payload, BrCodeReport& r) {
  auto bad = std::find_if(payload.begin(), payload.end(), [](char c) { return c < 0x20 || c > 0x7E; });
  if (bad == payload.end()) return;
  static constexpr char kHex[] = "0123456789ABCDEF";
  unsigned char b = static_cast<unsigned char>(*bad);
  r.errors.push_back(std::string("payload must be printable ASCII (EMV ans): byte 0x") + kHex[b >> 4] + kHex[b & 0xF] +
                     " at " + std::to_string(bad - payload.begin()));
}

// Splits a template's value; a failure is an error naming the template.
std::vector<TlvObject> ReadTemplate(const TlvObject& object, BrCodeReport& r) {
  auto nested = ParseTlv(object.value);
  if (!nested.ok()) {
    r.errors.push_back("template " + object.id + ": " + nested.status().message());
    return {};
  }
  return std::move(nested).value();
}

// Template 26 (or whichever of 26-51 carries the Pix GUI): docs/formats.md, "Pix template".
void ReadPixTemplate(const std::string& id, const std::vector<TlvObject>& sub, BrCodeReport& r) {
  BrCode& c = r.code;
  c.pix_template_id = id;
  c.gui = Get(sub, "00");
  c.key = Get(sub, "01");
  c.description = Get(sub, "02");
  c.fss_ispb = Get(sub, "03");
  c.url = Get(sub, "25");
  c.kind = !c.url.empty() ? BrCodeKind::kDynamic : !c.key.empty() ? BrCodeKind::kStatic : BrCodeKind::kUnknown;
  std::string prefix = id + "-";
  if (c.key.empty() == c.url.empty()) {
    r.errors.push_back(c.key.empty() ? "template " + id + " must carry a key (01) or a URL (25)"
                                     : "template " + id + " must not carry both a key (01) and a URL (25)");
  }
  if (!c.key.empty()) {
    Status key = ValidatePixKey(c.key);
    if (!key.ok()) r.errors.push_back(prefix + "01 key: " + key.message());
  }
  if (!c.url.empty()) {
    if (c.url.find("://") != std::string::npos) r.errors.push_back(prefix + "25 URL must not carry a scheme");
    if (CharCount(c.url) > 77) r.errors.push_back(prefix + "25 URL longer than 77 chars");
  }
  if (!c.fss_ispb.empty()) {
    if (c.fss_ispb.size() != 8 || !AllDigits(c.fss_ispb)) r.errors.push_back(prefix + "03 fss must be an 8-digit ISPB");
    if (!c.url.empty()) r.errors.push_back(prefix + "03 (Pix Saque/Troco) is not allowed with a URL (25)");
  }
}

// Root objects 52-62 (docs/formats.md, "Root objects" and "Txid").
void CheckRootFields(const std::vector<TlvObject>& root, BrCodeReport& r) {
  BrCode& c = r.code;
  c.mcc = Get(root, "52");
  c.currency = Get(root, "53");
  c.amount = Get(root, "54");
  c.country = Get(root, "58");
  c.merchant_name = Get(root, "59");
  c.merchant_city = Get(root, "60");
  c.postal_code = Get(root, "61");
  if (c.mcc.empty()) {
    r.errors.push_back("merchant category code (52) missing");
  } else if (c.mcc.size() != 4 || !AllDigits(c.mcc)) {
    r.errors.push_back("merchant category code (52) must be 4 digits");
  }
  if (c.currency.empty()) {
    r.errors.push_back("transaction currency (53) missing");
  } else if (c.currency != "986") {
    r.errors.push_back("transaction currency (53) must be '986' (BRL)");
  }
  if (!c.amount.empty()) {
    c.amount_cents = ParseAmount(c.amount);
    if (!c.amount_cents) {
      r.errors.push_back("54 amount must be digits with optional '.' and <=2 decimals, <=13 chars");
    } else if (*c.amount_cents == 0 && c.kind == BrCodeKind::kStatic && c.fss_ispb.empty()) {
      r.errors.push_back("54 amount must be > 0 in a static payload (0.00 only with Pix Saque/Troco 26-03)");
    }
  }
  if (c.country.empty()) {
    r.errors.push_back("country code (58) missing");
  } else if (c.country != "BR") {
    r.errors.push_back("country code (58) must be 'BR'");
  }
  if (c.merchant_name.empty()) {
    r.errors.push_back("merchant name (59) missing");
  } else if (CharCount(c.merchant_name) > 25) {
    r.errors.push_back("merchant name (59) longer than 25 chars");
  }
  if (c.merchant_city.empty()) {
    r.errors.push_back("merchant city (60) missing");
  } else if (CharCount(c.merchant_city) > 15) {
    r.errors.push_back("merchant city (60) longer than 15 chars");
  }
  if (CharCount(c.postal_code) > 10) r.errors.push_back("postal code (61) longer than 10 chars");

  const TlvObject* additional = Find(root, "62");
  if (additional == nullptr) {
    r.errors.push_back("additional data field template (62) missing (62-05 is mandatory in the Pix manual)");
    return;
  }
  std::vector<TlvObject> sub = ReadTemplate(*additional, r);
  c.txid = Get(sub, "05");
  if (c.txid.empty()) {
    r.errors.push_back("62-05 txid (reference label) missing");
  } else if (c.kind == BrCodeKind::kDynamic && c.txid != "***") {
    r.errors.push_back("62-05 txid must be '***' in a dynamic (URL) payload");
  } else if (!IsValidTxid(c.txid)) {
    r.errors.push_back("62-05 txid must be '***' or 1-25 chars [A-Za-z0-9]");
  }
}

void CheckObjects(const std::vector<TlvObject>& root, BrCodeReport& r) {
  BrCode& c = r.code;
  c.objects = root;
  c.payload_format_indicator = Get(root, "00");
  c.point_of_initiation_method = Get(root, "01");
  c.crc = Get(root, "63");
  if (root.empty() || root.front().id != "00")
    r.errors.push_back("id 00 (payload format indicator) is not the first object");
  if (root.empty() || root.back().id != "63") r.errors.push_back("id 63 (CRC) is not the last object");
  std::bitset<100> seen;
  std::bitset<100> reported;
  for (const TlvObject& o : root) {
    int n = IdNumber(o.id);
    if (seen[n] && !reported[n]) r.errors.push_back("id " + o.id + " appears more than once");
    reported[n] = seen[n];
    seen[n] = true;
  }
  if (!c.payload_format_indicator.empty() && c.payload_format_indicator != "01") {
    r.errors.push_back("payload format indicator (00) must be '01'");
  }
  if (!c.point_of_initiation_method.empty() && c.point_of_initiation_method != "11" &&
      c.point_of_initiation_method != "12") {
    r.errors.push_back("point of initiation method (01) must be 11 or 12");
  }
  for (const TlvObject& o : root) {
    int n = IdNumber(o.id);
    bool merchant_account = n >= 26 && n <= 51;
    if (!merchant_account && !(n >= 80 && n <= 99)) continue;
    std::vector<TlvObject> sub = ReadTemplate(o, r);
    if (merchant_account && c.pix_template_id.empty() && EqualsIgnoreCase(Get(sub, "00"), kPixGui)) {
      ReadPixTemplate(o.id, sub, r);
    } else {
      (merchant_account ? c.other_merchant_account_templates : c.unreserved_templates)
          .push_back({o.id, std::move(sub)});
    }
  }
  if (c.pix_template_id.empty()) r.errors.push_back("no merchant account template (26-51) with GUI br.gov.bcb.pix");
  CheckRootFields(root, r);
}

}  // namespace

BrCodeReport InspectBrCode(std::string_view payload) {
  BrCodeReport r;
  CheckCrc(payload, r);
  auto root = ParseTlv(payload);
  if (!root.ok()) {
    r.errors.push_back(root.status().message());
    return r;
  }
  r.decoded = true;
  if (payload.size() > kMaxPayloadChars) r.errors.push_back("payload longer than 512 chars (EMV limit)");
  CheckPrintableAscii(payload, r);
  CheckObjects(*root, r);
  return r;
}

StatusOr<BrCode> ParseBrCode(std::string_view payload) {
  BrCodeReport r = InspectBrCode(payload);
  if (r.valid()) return std::move(r.code);
  return InvalidArgumentError(internal::JoinErrors("BR Code", r.errors));
}

Status ValidatePixKey(std::string_view key) {
  if (key.empty()) return InvalidArgumentError("key is empty");
  if (key.size() > 77) return InvalidArgumentError("key longer than 77 chars");
  if (key.size() == 11 && AllDigits(key)) {
    return IsValidCpf(key) ? OkStatus() : InvalidArgumentError("CPF key has wrong check digits");
  }
  if (key.size() == 14 && std::all_of(key.begin(), key.end(), internal::IsUpperAlnum)) {
    return IsValidCnpj(key) ? OkStatus() : InvalidArgumentError("CNPJ key has wrong check digits");
  }
  if (key.front() == '+') {
    std::string_view digits = key.substr(1);
    bool ok = digits.size() >= 2 && digits.size() <= 15 && digits.front() != '0' && AllDigits(digits);
    return ok ? OkStatus() : InvalidArgumentError("phone key must be '+' and 2-15 digits (E.164), e.g. +5561912345678");
  }
  if (key.find('@') != std::string_view::npos) {
    std::size_t at = key.find('@');
    std::string_view domain = key.substr(at + 1);
    bool shape = at > 0 && domain.find('@') == std::string_view::npos && domain.find('.') != std::string_view::npos &&
                 domain.front() != '.' && domain.back() != '.' &&
                 std::all_of(key.begin(), key.end(), [](char c) { return c > 0x20 && c < 0x7F; });
    if (!shape) return InvalidArgumentError("e-mail key must look like name@domain.tld");
    bool lower = std::none_of(key.begin(), key.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
    return lower ? OkStatus() : InvalidArgumentError("e-mail key must be lowercase");
  }
  if (key.size() == 36) {
    bool uuid = true;
    bool upper = false;
    for (std::size_t i = 0; i < 36; ++i) {
      bool dash_pos = i == 8 || i == 13 || i == 18 || i == 23;
      uuid = uuid && (dash_pos ? key[i] == '-' : IsHex(key[i]));
      upper = upper || (key[i] >= 'A' && key[i] <= 'F');
    }
    if (uuid) return upper ? InvalidArgumentError("EVP key must be a lowercase UUID") : OkStatus();
  }
  return InvalidArgumentError("key is not a DICT key (CPF, CNPJ, +phone, e-mail or EVP)");
}

}  // namespace balcao::formats
