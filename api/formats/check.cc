// Check(): kind detection and the flat field list of every format.
#include "api/formats/check.h"

#include <algorithm>
#include <utility>

#include "api/formats/brcode.h"
#include "api/formats/end_to_end_id.h"
#include "api/formats/internal/digits.h"
#include "api/formats/tax_id.h"
#include "api/formats/utility_slip.h"

namespace balcao::formats {
namespace {

using Type = Field::Type;

// Appends fields; text fields are skipped when empty (absent).
class FieldWriter {
 public:
  explicit FieldWriter(std::vector<Field>& out) : out_(out) {}
  void Text(std::string key, std::string value) {
    if (!value.empty()) out_.push_back({std::move(key), std::move(value), Type::kText});
  }
  void Integer(std::string key, std::int64_t value) {
    out_.push_back({std::move(key), std::to_string(value), Type::kInteger});
  }
  // An amount twice: "<key>_cents" as an integer, then "<key>" as decimal text ("12.34").
  void Cents(const std::string& key, std::int64_t cents) {
    Integer(key + "_cents", cents);
    Text(key, internal::FormatCents(cents));
  }
  void Bool(std::string key, bool value) { out_.push_back({std::move(key), value ? "true" : "false", Type::kBool}); }
  void ListItem(const std::string& key, std::string value) { out_.push_back({key, std::move(value), Type::kListItem}); }

 private:
  std::vector<Field>& out_;
};

void BrCodeFields(const BrCodeReport& r, FieldWriter& w) {
  const BrCode& c = r.code;
  if (r.decoded) {
    w.Text("payload_format_indicator", c.payload_format_indicator);
    w.Text("point_of_initiation_method", c.point_of_initiation_method);
    w.Text("pix_template_id", c.pix_template_id);
    w.Text("gui", c.gui);
    w.Text("key", c.key);
    w.Text("url", c.url);
    w.Text("description", c.description);
    w.Text("fss_ispb", c.fss_ispb);
    w.Text("mcc", c.mcc);
    w.Text("currency", c.currency);
    w.Text("amount", c.amount);
    if (c.amount_cents) w.Integer("amount_cents", *c.amount_cents);
    w.Text("country", c.country);
    w.Text("merchant_name", c.merchant_name);
    w.Text("merchant_city", c.merchant_city);
    w.Text("postal_code", c.postal_code);
    w.Text("txid", c.txid);
    for (const auto& [group, templates] :
         {std::pair{"other_merchant_account_templates", &c.other_merchant_account_templates},
          std::pair{"unreserved_templates", &c.unreserved_templates}}) {
      for (const BrCodeTemplate& t : *templates) {
        for (const TlvObject& o : t.objects) w.Text(std::string(group) + "." + t.id + "." + o.id, o.value);
      }
    }
    if (c.kind != BrCodeKind::kUnknown) w.Text("kind", c.kind == BrCodeKind::kStatic ? "static" : "dynamic");
  }
  if (r.crc_declared) w.Text("crc_declared", *r.crc_declared);
  if (r.crc_computed) w.Text("crc_computed", *r.crc_computed);
}

void BoletoFields(const BoletoReport& r, FieldWriter& w) {
  if (!r.decoded) return;
  const Boleto& b = r.boleto;
  w.Text("bank_code", b.bank_code);
  w.Text("currency_code", b.currency_code);
  w.Text("general_dv", b.general_dv);
  w.Text("due_factor", b.due_factor);
  w.Cents("amount", b.amount_cents);
  w.Text("free_field", b.free_field);
  w.Text("barcode", b.barcode);
  w.Text("line", b.line);
  for (Date d : b.due_date_candidates) w.ListItem("due_date_candidates", FormatIsoDate(d));
  if (b.due_date) w.Text("due_date", FormatIsoDate(*b.due_date));
}

void UtilityFields(const UtilitySlipReport& r, FieldWriter& w) {
  if (!r.decoded) return;
  const UtilitySlip& s = r.slip;
  w.Text("segment", s.segment);
  w.Text("segment_name", s.segment_name);
  w.Text("value_id", s.value_id);
  w.Text("value_kind", s.value_kind == UtilityValueKind::kEffective ? "effective" : "reference");
  w.Integer("modulus", s.modulus);
  w.Text("general_dv", s.general_dv);
  w.Text("value_field", s.value_field);
  w.Cents("amount", s.amount_cents);
  w.Text("company_id_4", s.company_id_4);
  w.Text("company_or_cnpj_8", s.company_or_cnpj_8);
  w.Text("free_field_25", s.free_field_25);
  w.Text("barcode", s.barcode);
  w.Text("line", s.line);
}

void TaxIdFields(const TaxIdReport& r, FieldWriter& w) {
  if (!r.shape_ok) return;
  w.Text("normalized", r.normalized);
  if (r.valid()) {
    auto formatted = r.kind == TaxIdKind::kCpf ? FormatCpf(r.normalized) : FormatCnpj(r.normalized);
    if (formatted.ok()) w.Text("formatted", *formatted);
  }
  w.Text("root", r.root);
  w.Text("branch", r.branch);
  w.Text("fiscal_region_digit", r.fiscal_region_digit);
  w.Text("expected_dv", r.expected_dv);
  w.Bool("checksum_ok", r.checksum_ok);
}

void EndToEndIdFields(std::string_view text, CheckResult& out) {
  auto e2e = ParseEndToEndId(text);
  out.valid = e2e.ok();
  if (!e2e.ok()) {
    out.errors.push_back(e2e.status().message());
    return;
  }
  FieldWriter w(out.fields);
  w.Text("ispb", e2e->ispb);
  w.Text("utc_timestamp", e2e->utc_timestamp);
  w.Text("sequence", e2e->sequence);
}

// A report's fields (written by `fields`), its verdict and its errors.
template <typename Report>
void Take(Report report, void (*fields)(const Report&, FieldWriter&), CheckResult& out) {
  FieldWriter w(out.fields);
  fields(report, w);
  out.valid = report.valid();
  out.errors = std::move(report.errors);
}

// Boleto and arrecadação digits, their separators dropped.
std::string SlipDigits(std::string_view text) { return internal::StripChars(text, " .-"); }

// Every kind Check() knows: its name and how it is checked (`text` already trimmed).
struct KindOfFormat {
  FormatKind kind;
  std::string_view name;
  void (*check)(std::string_view text, const CheckOptions& options, CheckResult& out);
};
const KindOfFormat kKinds[] = {
    {FormatKind::kBrCode, "brcode",
     [](std::string_view text, const CheckOptions&, CheckResult& out) {
       Take(InspectBrCode(text), BrCodeFields, out);
     }},
    {FormatKind::kBoletoBarcode, "boleto-barcode",
     [](std::string_view text, const CheckOptions& options, CheckResult& out) {
       Take(InspectBoletoBarcode(SlipDigits(text), options.reference_date), BoletoFields, out);
     }},
    {FormatKind::kBoletoLine, "boleto-line",
     [](std::string_view text, const CheckOptions& options, CheckResult& out) {
       Take(InspectBoletoLine(SlipDigits(text), options.reference_date), BoletoFields, out);
     }},
    {FormatKind::kUtilityBarcode, "utility-barcode",
     [](std::string_view text, const CheckOptions&, CheckResult& out) {
       Take(InspectUtilityBarcode(SlipDigits(text)), UtilityFields, out);
     }},
    {FormatKind::kUtilityLine, "utility-line",
     [](std::string_view text, const CheckOptions&, CheckResult& out) {
       Take(InspectUtilityLine(SlipDigits(text)), UtilityFields, out);
     }},
    {FormatKind::kCpf, "cpf",
     [](std::string_view text, const CheckOptions&, CheckResult& out) { Take(InspectCpf(text), TaxIdFields, out); }},
    {FormatKind::kCnpj, "cnpj",
     [](std::string_view text, const CheckOptions&, CheckResult& out) { Take(InspectCnpj(text), TaxIdFields, out); }},
    {FormatKind::kPixEndToEndId, "pix-e2e",
     [](std::string_view text, const CheckOptions&, CheckResult& out) { EndToEndIdFields(text, out); }},
};

const KindOfFormat* FindKind(FormatKind kind) {
  for (const KindOfFormat& k : kKinds)
    if (k.kind == kind) return &k;
  return nullptr;
}

FormatKind DetectTrimmed(std::string_view text) {
  std::string compact = internal::StripChars(text, " .-/");
  bool digits = !compact.empty() && internal::AllDigits(compact);
  if (digits) {
    switch (compact.size()) {
      case 11:
        return FormatKind::kCpf;
      case 14:
        return FormatKind::kCnpj;
      case 44:
        return compact[0] == '8' ? FormatKind::kUtilityBarcode : FormatKind::kBoletoBarcode;
      case 47:
        return FormatKind::kBoletoLine;
      case 48:
        return FormatKind::kUtilityLine;
      default:
        break;
    }
  }
  if (compact.size() == 14 && std::all_of(compact.begin(), compact.end(), internal::IsAlnum)) return FormatKind::kCnpj;
  if (text.size() >= 2 && text[0] == 'E' && internal::IsDigit(text[1])) return FormatKind::kPixEndToEndId;
  if (text.size() >= 2 && text.substr(0, 2) == "00" && !digits) return FormatKind::kBrCode;
  return FormatKind::kUnknown;
}

std::string UnknownReason(std::string_view text) {
  if (text.empty()) return "empty input";
  std::string compact = internal::StripChars(text, " .-/");
  if (internal::AllDigits(compact)) {
    return std::to_string(compact.size()) +
           " digits: expected 11 (CPF), 14 (CNPJ), 44 (bar code), 47 (boleto line) or 48 (arrecadacao line)";
  }
  return "not a BR Code, boleto, arrecadacao slip, CPF, CNPJ or Pix end-to-end id";
}

}  // namespace

std::string_view FormatKindName(FormatKind kind) {
  const KindOfFormat* k = FindKind(kind);
  return k ? k->name : "unknown";
}

const Field* CheckResult::Find(std::string_view key) const {
  auto it = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.key == key; });
  return it == fields.end() ? nullptr : &*it;
}

FormatKind DetectFormatKind(std::string_view text) { return DetectTrimmed(internal::TrimAsciiSpace(text)); }

FormatKind FormatKindFromName(std::string_view name) {
  for (const KindOfFormat& k : kKinds)
    if (k.name == name) return k.kind;
  return FormatKind::kUnknown;
}

CheckResult Check(std::string_view text, const CheckOptions& options) {
  return CheckAs(DetectFormatKind(text), text, options);
}

CheckResult CheckAs(FormatKind kind, std::string_view raw, const CheckOptions& options) {
  std::string_view text = internal::TrimAsciiSpace(raw);
  CheckResult out;
  out.kind = kind == FormatKind::kUnknown ? DetectTrimmed(text) : kind;
  if (const KindOfFormat* k = FindKind(out.kind))
    k->check(text, options, out);
  else
    out.errors.push_back(UnknownReason(text));
  return out;
}

}  // namespace balcao::formats
