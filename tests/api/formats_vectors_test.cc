// Every vector of tests/data/formats.json (read at run time) gives its expected
// verdict, fields and errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "api/formats/brcode.h"
#include "api/formats/check.h"
#include "api/formats/check_json.h"
#include "api/formats/tax_id.h"
#include "api/formats/threeds_browser.h"
#include "tests/testing/status_matchers.h"

namespace balcao::formats {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

const json& Vectors() {
  static const json vectors = [] {
    std::ifstream in(std::string(BALCAO_TEST_DATA_DIR) + "/formats.json");
    EXPECT_TRUE(in.good()) << "cannot open formats.json under " << BALCAO_TEST_DATA_DIR;
    return json::parse(in);
  }();
  return vectors;
}

// Every expected key is present with the same value; a null expectation means absent.
void ExpectFieldsInclude(const json& actual, const json& expected, const std::string& where) {
  for (const auto& [key, value] : expected.items()) {
    if (value.is_null()) {
      EXPECT_FALSE(actual.contains(key)) << where << ": " << key << " should be absent";
    } else if (!actual.contains(key)) {
      ADD_FAILURE() << where << ": missing field " << key << " (expected " << value.dump() << ")";
    } else if (value.is_object()) {
      ExpectFieldsInclude(actual[key], value, where + "." + key);
    } else {
      EXPECT_EQ(actual[key], value) << where << ": field " << key;
    }
  }
}

std::vector<std::string> Strings(const json& list) {
  std::vector<std::string> out;
  for (const json& s : list) out.push_back(s.get<std::string>());
  return out;
}

std::vector<std::pair<std::string, json>> Entries(const std::string& group) {
  std::vector<std::pair<std::string, json>> out;
  for (const char* verdict : {"valid", "invalid"}) {
    int i = 0;
    for (const json& e : Vectors()[group][verdict]) {
      std::string name = group + "/" + verdict + "/" + e.value("name", std::to_string(i++));
      out.emplace_back(name, e);
    }
  }
  return out;
}

CheckOptions OptionsFor(const json& entry) {
  CheckOptions options;
  if (entry.contains("reference_date_for_factor")) {
    options.reference_date = *ParseIsoDate(entry["reference_date_for_factor"].get<std::string>());
  }
  return options;
}

// Keys of `expected` that describe the verdict rather than fields.
json WithoutVerdict(json expected) {
  for (const char* k : {"valid", "errors", "reason", "fields", "crc_declared", "crc_computed"}) expected.erase(k);
  return expected;
}

// Runs one group through CheckAs(kind) and compares verdict, errors (exactly, when the
// vector lists them; as a substring for "reason") and fields. Returns how many ran.
int RunGroup(const std::string& group, FormatKind kind) {
  int ran = 0;
  for (const auto& [name, entry] : Entries(group)) {
    SCOPED_TRACE(name);
    std::string input = entry["input"].get<std::string>();
    const json& expected = entry["expected"];
    CheckResult r = CheckAs(kind, input, OptionsFor(entry));
    EXPECT_EQ(r.kind, kind);
    EXPECT_EQ(r.valid, expected["valid"].get<bool>()) << ::testing::PrintToString(r.errors);
    EXPECT_EQ(r.valid, r.errors.empty());
    if (expected.contains("errors")) {
      EXPECT_EQ(r.errors, Strings(expected["errors"]));
    }
    if (expected.contains("reason")) {
      EXPECT_THAT(::testing::PrintToString(r.errors), HasSubstr(expected["reason"].get<std::string>()));
    }
    json fields = formats::FieldsToJson<json>(r);
    ExpectFieldsInclude(fields, expected.contains("fields") ? expected["fields"] : WithoutVerdict(expected), name);
    for (const char* crc : {"crc_declared", "crc_computed"}) {
      if (expected.contains(crc)) {
        ExpectFieldsInclude(fields, json{{crc, expected[crc]}}, name);
      }
    }
    // Detection agrees with the group whenever the input has that kind's shape.
    CheckResult detected = Check(input, OptionsFor(entry));
    if (detected.kind == kind) {
      EXPECT_EQ(detected.valid, r.valid);
      EXPECT_EQ(detected.fields, r.fields);
    } else {
      EXPECT_FALSE(expected["valid"].get<bool>()) << "a valid vector must be detected as its kind";
    }
    ++ran;
  }
  return ran;
}

int GroupSize(const std::string& group) {
  const json& g = Vectors()[group];
  return static_cast<int>(g.is_array() ? g.size() : g["valid"].size() + g["invalid"].size());
}

TEST(FormatsVectors, BrCode) { EXPECT_EQ(RunGroup("brcode", FormatKind::kBrCode), GroupSize("brcode")); }
TEST(FormatsVectors, BoletoBarcode) {
  EXPECT_EQ(RunGroup("boleto_barcode", FormatKind::kBoletoBarcode), GroupSize("boleto_barcode"));
}
TEST(FormatsVectors, BoletoLine) {
  EXPECT_EQ(RunGroup("boleto_line", FormatKind::kBoletoLine), GroupSize("boleto_line"));
}
TEST(FormatsVectors, UtilityBarcode) {
  EXPECT_EQ(RunGroup("utility_barcode", FormatKind::kUtilityBarcode), GroupSize("utility_barcode"));
}
TEST(FormatsVectors, UtilityLine) {
  EXPECT_EQ(RunGroup("utility_line", FormatKind::kUtilityLine), GroupSize("utility_line"));
}
TEST(FormatsVectors, Cpf) { EXPECT_EQ(RunGroup("cpf", FormatKind::kCpf), GroupSize("cpf")); }
TEST(FormatsVectors, CnpjAlphanumeric) {
  EXPECT_EQ(RunGroup("cnpj_alnum", FormatKind::kCnpj), GroupSize("cnpj_alnum"));
}
TEST(FormatsVectors, PixEndToEndId) {
  EXPECT_EQ(RunGroup("pix_e2e", FormatKind::kPixEndToEndId), GroupSize("pix_e2e"));
}

// The `cnpj` group is judged by a numeric-only validator (docs/formats.md, "CPF and CNPJ"):
// letters are a shape error there, while the alphanumeric default accepts them.
TEST(FormatsVectors, CnpjNumericOnly) {
  int ran = 0;
  for (const auto& [name, entry] : Entries("cnpj")) {
    SCOPED_TRACE(name);
    const json& expected = entry["expected"];
    TaxIdReport r = InspectCnpj(entry["input"].get<std::string>(), CnpjAlphabet::kNumericOnly);
    EXPECT_EQ(r.valid(), expected["valid"].get<bool>());
    if (expected.contains("normalized")) {
      EXPECT_EQ(r.normalized, expected["normalized"].get<std::string>());
      EXPECT_EQ(r.root, expected["root"].get<std::string>());
      EXPECT_EQ(r.branch, expected["branch"].get<std::string>());
      EXPECT_EQ(r.expected_dv, expected["expected_dv"].get<std::string>());
      EXPECT_EQ(r.checksum_ok, expected["checksum_ok"].get<bool>());
    }
    if (expected.contains("reason")) {
      EXPECT_THAT(::testing::PrintToString(r.errors), HasSubstr(expected["reason"].get<std::string>()));
    }
    ++ran;
  }
  EXPECT_EQ(ran, GroupSize("cnpj"));
  // The same letters pass as an alphanumeric CNPJ (docs/formats.md, "Decisions where sources
  // disagree", item 8).
  EXPECT_TRUE(IsValidCnpj("Q0SLFMBD7VX439"));
}

TEST(FormatsVectors, CnpjWorkedExample) {
  const json& w = Vectors()["cnpj_alnum"]["worked_example"];
  std::string base = w["base"].get<std::string>();
  auto dvs = CnpjCheckDigits(base);
  ASSERT_OK(dvs);
  EXPECT_EQ(*dvs, std::to_string(w["dv1"].get<int>()) + std::to_string(w["dv2"].get<int>()));
  EXPECT_EQ(*FormatCnpj(base + *dvs), "12.ABC.345/01DE-35");
}

TEST(FormatsVectors, Crc16) {
  for (const json& e : Vectors()["crc16"]) {
    std::string input = e["input"].get<std::string>();  // nlohmann decodes to UTF-8 bytes
    EXPECT_EQ(Crc16Hex(input), e["expected"].get<std::string>()) << e["source"];
  }
  EXPECT_EQ(Crc16Hex(""), "FFFF");
}

TEST(FormatsVectors, ThreeDsBrowserData) {
  int ran = 0;
  for (const auto& [name, entry] : Entries("threeds_browser")) {
    SCOPED_TRACE(name);
    const json& in = entry["input"];
    ThreeDsBrowserData data{.accept_header = in["browserAcceptHeader"].get<std::string>(),
                            .ip = in["browserIP"].get<std::string>(),
                            .java_enabled = in["browserJavaEnabled"].get<bool>(),
                            .language = in["browserLanguage"].get<std::string>(),
                            .color_depth = in["browserColorDepth"].get<std::string>(),
                            .screen_height = in["browserScreenHeight"].get<std::string>(),
                            .screen_width = in["browserScreenWidth"].get<std::string>(),
                            .tz = in["browserTZ"].get<std::string>(),
                            .user_agent = in["browserUserAgent"].get<std::string>()};
    if (in.contains("browserJavascriptEnabled")) data.javascript_enabled = in["browserJavascriptEnabled"].get<bool>();
    std::vector<std::string> errors = ValidateThreeDsBrowserData(data);
    EXPECT_EQ(errors.empty(), entry["expected"]["valid"].get<bool>());
    EXPECT_EQ(errors, Strings(entry["expected"]["errors"]));
    ++ran;
  }
  EXPECT_EQ(ran, GroupSize("threeds_browser"));
  EXPECT_EQ(ThreeDsColorDepth(30), "24");
  EXPECT_EQ(ThreeDsColorDepth(24), "24");
  EXPECT_EQ(ThreeDsColorDepth(64), "48");
  EXPECT_EQ(ThreeDsColorDepth(0), "1");
  EXPECT_EQ(ThreeDsBrowserTz(-180), "180");  // Brazil, UTC-3
  EXPECT_EQ(ThreeDsBrowserTz(120), "-120");
  ThreeDsBrowserData bad{.accept_header = "*/*",
                         .ip = "300.1.1.1",
                         .language = "",
                         .color_depth = "024",
                         .screen_height = "0",
                         .screen_width = "1234567",
                         .tz = "-900",
                         .user_agent = ""};
  EXPECT_EQ(ValidateThreeDsBrowserData(bad).size(), 7u);
}

TEST(FormatsVectors, BankIds) {
  for (const json& e : Vectors()["bank_ids"]) {
    std::string cnpj = e["cnpj"].get<std::string>();
    TaxIdReport r = InspectCnpj(cnpj, CnpjAlphabet::kNumericOnly);
    EXPECT_TRUE(r.valid()) << cnpj;
    EXPECT_EQ(r.root == e["ispb"].get<std::string>(), e["ispb_equals_cnpj_root"].get<bool>()) << cnpj;
    EXPECT_EQ(e["compe"].get<std::string>().size(), 3u);
  }
}

}  // namespace
}  // namespace balcao::formats
