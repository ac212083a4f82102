// Build -> parse round trips for every format, builder error messages, and the due factor
// arithmetic across the 2025 rollover.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "api/formats/boleto.h"
#include "api/formats/brcode.h"
#include "api/formats/check.h"
#include "api/formats/end_to_end_id.h"
#include "api/formats/tax_id.h"
#include "api/formats/utility_slip.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::testing::Not;

namespace balcao::formats {
namespace {

using std::chrono::day;
using std::chrono::days;
using std::chrono::month;
using std::chrono::sys_days;
using std::chrono::year;
using ::testing::HasSubstr;

Date D(int y, unsigned m, unsigned d) { return Date{year{y}, month{m}, day{d}}; }

// --- BR Code ----------------------------------------------------------------------------

TEST(BrCodeBuild, ReproducesTheBcbStaticExample) {
  StaticBrCodeSpec spec;
  spec.key = "123e4567-e12b-12d1-a456-426655440000";
  spec.merchant_name = "Fulano de Tal";
  spec.merchant_city = "BRASILIA";
  auto payload = BuildStaticBrCode(spec);
  ASSERT_OK(payload);
  EXPECT_EQ(*payload,
            "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de "
            "Tal6008BRASILIA62070503***63041D3D");
}

TEST(BrCodeBuild, ReproducesTheBcbDynamicExample) {
  DynamicBrCodeSpec spec;
  spec.url = "pix.example.com/8b3da2f39a4140d1a91abd93113bd441";
  spec.merchant_name = "Fulano de Tal";
  spec.merchant_city = "BRASILIA";
  auto payload = BuildDynamicBrCode(spec);
  ASSERT_OK(payload);
  EXPECT_EQ(
      *payload,
      "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR"
      "5913Fulano de Tal6008BRASILIA62070503***630464E4");
}

TEST(BrCodeBuild, StaticRoundTripKeepsEveryField) {
  StaticBrCodeSpec spec;
  spec.key = "+5561912345678";
  spec.merchant_name = "Padaria São João";
  spec.merchant_city = "São Paulo";
  spec.amount_cents = 123456;
  spec.txid = "Venda42";
  spec.description = "Pão de queijo";
  spec.postal_code = "01310100";
  spec.mcc = "5462";
  spec.single_use = true;
  auto payload = BuildStaticBrCode(spec);
  ASSERT_OK(payload);
  auto code = ParseBrCode(*payload);
  ASSERT_OK(code);
  EXPECT_EQ(code->kind, BrCodeKind::kStatic);
  EXPECT_EQ(code->key, spec.key);
  EXPECT_EQ(code->merchant_name, "Padaria Sao Joao");
  EXPECT_EQ(code->merchant_city, "Sao Paulo");
  EXPECT_EQ(code->amount, "1234.56");
  EXPECT_EQ(code->amount_cents, 123456);
  EXPECT_EQ(code->txid, "Venda42");
  EXPECT_EQ(code->description, "Pao de queijo");
  EXPECT_EQ(code->postal_code, "01310100");
  EXPECT_EQ(code->mcc, "5462");
  EXPECT_EQ(code->point_of_initiation_method, "12");
  EXPECT_EQ(code->crc, Crc16Hex(std::string_view(*payload).substr(0, payload->size() - 4)));
}

TEST(BrCodeBuild, DynamicRoundTripAndCheckFields) {
  DynamicBrCodeSpec spec;
  spec.url = "qr.balcao.example/v2/cobv/7f3a";
  spec.merchant_name = "Loja";
  spec.merchant_city = "Recife";
  spec.amount_cents = 0;
  spec.single_use = false;
  auto payload = BuildDynamicBrCode(spec);
  ASSERT_OK(payload);
  CheckResult r = Check(*payload);
  EXPECT_EQ(r.kind, FormatKind::kBrCode);
  EXPECT_TRUE(r.valid) << ::testing::PrintToString(r.errors);
  EXPECT_EQ(r.Find("url")->value, spec.url);
  EXPECT_EQ(r.Find("kind")->value, "dynamic");
  EXPECT_EQ(r.Find("txid")->value, "***");
  EXPECT_EQ(r.Find("point_of_initiation_method")->value, "11");
  EXPECT_EQ(r.Find("amount")->value, "0.00");
}

TEST(BrCodeBuild, EveryKeyKindBuildsAndParses) {
  for (const char* key : {"52998224725", "12ABC34501DE35", "11222333000181", "+5511987654321", "caixa@padaria.com.br",
                          "123e4567-e12b-12d1-a456-426655440000"}) {
    StaticBrCodeSpec spec{.key = key, .merchant_name = "Padaria", .merchant_city = "Natal", .amount_cents = 1};
    auto payload = BuildStaticBrCode(spec);
    ASSERT_OK(payload) << key << ": " << payload.status().message();
    EXPECT_TRUE(InspectBrCode(*payload).valid()) << key;
  }
}

TEST(BrCodeBuild, RejectsWhatAReaderWouldReject) {
  auto error = [](StaticBrCodeSpec spec) {
    auto r = BuildStaticBrCode(spec);
    return r.ok() ? std::string("ok") : r.status().message();
  };
  StaticBrCodeSpec base{.key = "52998224725", .merchant_name = "Padaria", .merchant_city = "Natal"};
  auto with = [&](auto mutate) {
    StaticBrCodeSpec s = base;
    mutate(s);
    return error(s);
  };
  EXPECT_EQ(error(base), "ok");
  EXPECT_THAT(with([](auto& s) { s.merchant_name = std::string(26, 'A'); }),
              HasSubstr("merchant name (59) is 26 chars, limit 25"));
  EXPECT_EQ(with([](auto& s) { s.merchant_name = std::string(25, 'A'); }), "ok");
  EXPECT_THAT(with([](auto& s) { s.merchant_city = "Presidente Prudente"; }), HasSubstr("merchant city (60)"));
  EXPECT_EQ(with([](auto& s) { s.merchant_city = "Presidente Prud"; }), "ok");
  EXPECT_THAT(with([](auto& s) { s.merchant_name = ""; }), HasSubstr("merchant name (59) is empty"));
  EXPECT_THAT(with([](auto& s) { s.merchant_name = "Caf\xE2\x98\x95"; }), HasSubstr("no ASCII form (U+2615)"));
  EXPECT_THAT(with([](auto& s) { s.merchant_name = "Bad\xFF"; }), HasSubstr("byte 0xFF"));
  EXPECT_THAT(with([](auto& s) { s.key = "529.982.247-25"; }), HasSubstr("key (26-01)"));
  EXPECT_THAT(with([](auto& s) { s.key = "52998224726"; }), HasSubstr("CPF key has wrong check digits"));
  EXPECT_THAT(with([](auto& s) { s.key = "Caixa@Padaria.com"; }), HasSubstr("e-mail key must be lowercase"));
  EXPECT_THAT(with([](auto& s) { s.key = "123E4567-E12B-12D1-A456-426655440000"; }), HasSubstr("lowercase UUID"));
  EXPECT_THAT(with([](auto& s) { s.txid = "my_transaction_id"; }), HasSubstr("txid (62-05)"));
  EXPECT_THAT(with([](auto& s) { s.txid = std::string(26, 'A'); }), HasSubstr("txid (62-05)"));
  EXPECT_THAT(with([](auto& s) { s.amount_cents = 0; }), HasSubstr("amount (54)"));
  EXPECT_THAT(with([](auto& s) { s.amount_cents = 1'000'000'000'000; }), HasSubstr("amount (54)"));
  EXPECT_EQ(with([](auto& s) { s.amount_cents = 999'999'999'999; }), "ok");
  EXPECT_THAT(with([](auto& s) { s.mcc = "12"; }), HasSubstr("mcc (52)"));
  EXPECT_THAT(with([](auto& s) { s.postal_code = "01310-100"; }), HasSubstr("postal code (61)"));
  EXPECT_THAT(with([](auto& s) { s.description = std::string(63, 'x'); }), HasSubstr("template 26 would be"));

  DynamicBrCodeSpec dyn{.url = "https://pix.example.com/x", .merchant_name = "Loja", .merchant_city = "Natal"};
  EXPECT_THAT(BuildDynamicBrCode(dyn).status().message(), HasSubstr("must not carry a scheme"));
  dyn.url = std::string(78, 'a');
  EXPECT_THAT(BuildDynamicBrCode(dyn).status().message(), HasSubstr("limit 77"));
  dyn.url = std::string(77, 'a');
  EXPECT_OK(BuildDynamicBrCode(dyn));
}

TEST(BrCodeBuild, FoldToBrCodeTextFitsNamesAndCities) {
  EXPECT_EQ(FoldToBrCodeText("São José dos Campos", 15), "Sao Jose dos Ca");
  EXPECT_EQ(FoldToBrCodeText("  Açaí   & Cia ☕  ", 25), "Acai & Cia");
  EXPECT_EQ(FoldToBrCodeText("ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝßàáâãäåæçèéêëìíîïñòóôõöøùúûüýÿ", 99),
            "AAAAAAAECEEEEIIIINOOOOOOUUUUYssaaaaaaaeceeeeiiiinoooooouuuuyy");
  EXPECT_EQ(FoldToBrCodeText("ab\x01\x7F\xC3", 10), "ab");
}

TEST(BrCodeParse, StrictRulesOnHandBuiltPayloads) {
  // Re-CRC a body so that only the rule under test fails.
  auto payload = [](std::string body) { return body + "6304" + Crc16Hex(body + "6304"); };
  const std::string head = "000201";
  const std::string pix = "26330014br.gov.bcb.pix011152998224725";
  const std::string tail = "5204000053039865802BR5907Padaria6005Natal62070503***";
  EXPECT_TRUE(InspectBrCode(payload(head + pix + tail)).valid());
  auto errors = [&](std::string body) { return InspectBrCode(payload(body)).errors; };
  EXPECT_THAT(errors(head + pix + "540412.3" + tail), ::testing::IsEmpty());  // "12.3" reads as 12.30
  EXPECT_THAT(errors(head + pix + "540298" + tail), ::testing::IsEmpty());
  EXPECT_THAT(errors(head + pix + "54031,5" + tail), ::testing::ElementsAre(HasSubstr("54 amount")));
  EXPECT_THAT(errors(head + pix + "54051.234" + tail), ::testing::ElementsAre(HasSubstr("54 amount")));
  EXPECT_THAT(errors(head + pix + "54040.00" + tail), ::testing::ElementsAre(HasSubstr("must be > 0")));
  EXPECT_THAT(errors("000202" + pix + tail), ::testing::ElementsAre("payload format indicator (00) must be '01'"));
  EXPECT_THAT(errors(pix + head + tail),
              ::testing::ElementsAre("id 00 (payload format indicator) is not the first object"));
  EXPECT_THAT(errors(head + pix + tail + "5907Padaria"), ::testing::ElementsAre("id 59 appears more than once"));
  EXPECT_THAT(errors(head + pix + "53038405802BR5907Padaria6005Natal62070503***5204000"),
              ::testing::Contains(HasSubstr("TLV")));
  EXPECT_THAT(errors(head + "26180014br.gov.bcb.pix" + tail),
              ::testing::ElementsAre(HasSubstr("must carry a key (01) or a URL (25)")));
  EXPECT_THAT(
      errors(head + "26650014br.gov.bcb.pix01115299822472525260pix.example.com/abcdefghijklmnopqrstuvwxyz0123456789" +
             tail),
      ::testing::Contains(HasSubstr("TLV")));
  // Pix in template 27 with another arrangement in 26: found by its GUI.
  CheckResult moved = Check(payload(head + "26160012br.com.outro" + "27330014BR.GOV.BCB.PIX011152998224725" + tail));
  EXPECT_TRUE(moved.valid) << ::testing::PrintToString(moved.errors);
  EXPECT_EQ(moved.Find("pix_template_id")->value, "27");
  EXPECT_EQ(moved.Find("other_merchant_account_templates.26.00")->value, "br.com.outro");
  // Lowercase CRC: the rule is named, not reported as a bare mismatch.
  EXPECT_THAT(InspectBrCode("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"
                            "5913Fulano de Tal6008BRASILIA62070503***63041d3d")
                  .errors,
              ::testing::ElementsAre("CRC (63) must be uppercase hex: declared 1d3d computed 1D3D"));
  // A dynamic payload with a real txid, and Pix Saque with a URL.
  EXPECT_THAT(
      errors(head + "26300014br.gov.bcb.pix2508pix.a/b1" + "5204000053039865802BR5907Padaria6005Natal62100506abc123"),
      ::testing::ElementsAre("62-05 txid must be '***' in a dynamic (URL) payload"));
  // Non-ASCII in a value: lengths count characters, the rule is reported.
  std::vector<std::string> accents = errors(head + pix + "5204000053039865802BR5907Padaria6009São Paulo62070503***");
  EXPECT_THAT(accents, ::testing::ElementsAre(HasSubstr("printable ASCII")));
}

// --- Boleto ------------------------------------------------------------------------------

TEST(BoletoBuild, ReproducesAPublishedBarcode) {
  BoletoSpec spec{
      .bank_code = "001", .due_date = D(2032, 8, 21), .amount_cents = 100, .free_field = "0500940144816060680935031"};
  auto barcode = BuildBoletoBarcode(spec);
  ASSERT_OK(barcode);
  EXPECT_EQ(*barcode, "00193373700000001000500940144816060680935031");
  EXPECT_EQ(*BoletoLineFromBarcode(*barcode), "00190500954014481606906809350314337370000000100");
}

TEST(BoletoBuild, RandomRoundTripsThroughLineAndBack) {
  std::mt19937_64 rng(20250222);
  for (int i = 0; i < 2000; ++i) {
    BoletoSpec spec;
    spec.bank_code = std::to_string(100 + rng() % 900);
    spec.amount_cents = static_cast<std::int64_t>(rng() % 10'000'000'000ULL);
    for (int k = 0; k < 25; ++k) spec.free_field.push_back(static_cast<char>('0' + rng() % 10));
    Date due = Date{sys_days{D(2000, 7, 3)} + days{static_cast<int>(rng() % 20000)}};
    if (i % 10 != 0) spec.due_date = due;
    auto barcode = BuildBoletoBarcode(spec);
    ASSERT_OK(barcode);
    auto line = BoletoLineFromBarcode(*barcode);
    ASSERT_OK(line);
    EXPECT_EQ(*BoletoBarcodeFromLine(*line), *barcode);
    // Resolved against its own due date (as a processing date near issue would be).
    auto parsed = ParseBoleto(*line, due);
    ASSERT_OK(parsed);
    EXPECT_EQ(parsed->barcode, *barcode);
    EXPECT_EQ(parsed->bank_code, spec.bank_code);
    EXPECT_EQ(parsed->amount_cents, spec.amount_cents);
    EXPECT_EQ(parsed->free_field, spec.free_field);
    EXPECT_EQ(parsed->due_date, spec.due_date);
    EXPECT_TRUE(InspectBoletoBarcode(*barcode, due).valid());
  }
}

TEST(BoletoBuild, RejectsBadSpecs) {
  BoletoSpec ok{.bank_code = "341", .amount_cents = 1, .free_field = std::string(25, '1')};
  EXPECT_OK(BuildBoletoBarcode(ok));
  auto message = [&](auto mutate) {
    BoletoSpec s = ok;
    mutate(s);
    auto r = BuildBoletoBarcode(s);
    return r.ok() ? std::string("ok") : r.status().message();
  };
  EXPECT_THAT(message([](auto& s) { s.bank_code = "34"; }), HasSubstr("bank code"));
  EXPECT_THAT(message([](auto& s) { s.currency_code = 5; }), HasSubstr("currency code must be 9"));
  EXPECT_THAT(message([](auto& s) { s.amount_cents = -1; }), HasSubstr("amount"));
  EXPECT_THAT(message([](auto& s) { s.amount_cents = 10'000'000'000; }), HasSubstr("amount"));
  EXPECT_THAT(message([](auto& s) { s.free_field = "123"; }), HasSubstr("free field must be 25 digits"));
  EXPECT_THAT(message([](auto& s) { s.due_date = D(2000, 7, 2); }), HasSubstr("before 2000-07-03"));
}

TEST(DueFactor, RolloverDatesFromFormatsMd) {
  EXPECT_EQ(*DueFactorOf(D(2000, 7, 3)), 1000);
  EXPECT_EQ(*DueFactorOf(D(2025, 2, 21)), 9999);
  EXPECT_EQ(*DueFactorOf(D(2025, 2, 22)), 1000);
  EXPECT_EQ(*DueFactorOf(D(2049, 10, 13)), 9999);
  EXPECT_EQ(*DueFactorOf(D(2049, 10, 14)), 1000);
  EXPECT_EQ(ResolveDueFactor(3737, D(2025, 6, 15)), D(2032, 8, 21));
  EXPECT_EQ(ResolveDueFactor(3737, D(2008, 1, 1)), D(2007, 12, 31));
  EXPECT_EQ(ResolveDueFactor(9999, D(2025, 6, 15)), D(2025, 2, 21));
  EXPECT_EQ(ResolveDueFactor(999, D(2025, 6, 15)), std::nullopt);
  EXPECT_EQ(DueDateCandidates(1000), (std::vector<Date>{D(2000, 7, 3), D(2025, 2, 22)}));
  // Reference 2060-01-01: 2049-10-14 is 3731 days back (outside -3000), 2074-06-05 is in.
  EXPECT_EQ(ResolveDueFactor(1000, D(2060, 1, 1)), D(2074, 6, 5));
  EXPECT_EQ(DueDateCandidates(1000, D(2060, 1, 1)),
            (std::vector<Date>{D(2000, 7, 3), D(2025, 2, 22), D(2049, 10, 14), D(2074, 6, 5)}));
  EXPECT_TRUE(DueDateCandidates(0).empty());
  // Every day from the first factor to 2070 resolves back to itself around its own date.
  for (sys_days d = sys_days{D(2000, 7, 3)}; d < sys_days{D(2070, 1, 1)}; d += days{1}) {
    int factor = *DueFactorOf(Date{d});
    ASSERT_GE(factor, 1000);
    ASSERT_LE(factor, 9999);
    ASSERT_EQ(ResolveDueFactor(factor, Date{d + days{30}}), Date{d}) << FormatIsoDate(Date{d});
  }
}

TEST(IsoDate, ParsesOnlyRealDates) {
  EXPECT_EQ(*ParseIsoDate("2024-02-29"), D(2024, 2, 29));
  EXPECT_THAT(ParseIsoDate("2023-02-29"), Not(IsOk()));
  EXPECT_THAT(ParseIsoDate("2023-2-01"), Not(IsOk()));
  EXPECT_THAT(ParseIsoDate("2023-13-01"), Not(IsOk()));
  EXPECT_EQ(FormatIsoDate(D(2025, 2, 22)), "2025-02-22");
}

// --- Arrecadação -------------------------------------------------------------------------

TEST(UtilityBuild, EveryValueIdAndCompanyIdWidthRoundTrips) {
  std::mt19937_64 rng(848);
  for (int value_id : {6, 7, 8, 9}) {
    for (int segment : {1, 2, 3, 4, 5, 6, 7, 9}) {
      for (std::size_t id_width : {4u, 8u}) {
        UtilitySlipSpec spec{
            .segment = segment, .value_id = value_id, .value = static_cast<std::int64_t>(rng() % 100'000'000'000ULL)};
        for (std::size_t k = 0; k < id_width; ++k) spec.company_id.push_back(static_cast<char>('0' + rng() % 10));
        for (std::size_t k = 0; k < 29 - id_width; ++k) spec.free_field.push_back(static_cast<char>('0' + rng() % 10));
        auto barcode = BuildUtilityBarcode(spec);
        ASSERT_OK(barcode);
        auto line = UtilityLineFromBarcode(*barcode);
        ASSERT_OK(line);
        EXPECT_EQ(*UtilityBarcodeFromLine(*line), *barcode);
        auto slip = ParseUtilitySlip(*line);
        ASSERT_OK(slip);
        EXPECT_EQ(slip->amount_cents, spec.value);
        EXPECT_EQ(slip->modulus, value_id <= 7 ? 10 : 11);
        EXPECT_EQ(slip->value_kind, value_id % 2 == 0 ? UtilityValueKind::kEffective : UtilityValueKind::kReference);
        EXPECT_EQ(slip->segment, std::to_string(segment));
        EXPECT_EQ(slip->company_or_cnpj_8.substr(0, id_width), spec.company_id);
        EXPECT_EQ(Check(*barcode).kind, FormatKind::kUtilityBarcode);
        EXPECT_TRUE(Check(*line).valid);
      }
    }
  }
}

TEST(UtilityBuild, Mod11SpecialCases) {
  // docs/formats.md, "Check digits": r = 1 gives DV 0 (not 1); r = 0 gives 0.
  EXPECT_EQ(UtilityCheckDigit("83148300001", 11), '0');
  EXPECT_EQ(UtilityCheckDigit("83860000005", 11), '0');
  UtilitySlipSpec bad{
      .segment = 8, .value_id = 6, .value = 1, .company_id = "0001", .free_field = std::string(25, '0')};
  EXPECT_THAT(BuildUtilityBarcode(bad).status().message(), HasSubstr("segment"));
  bad.segment = 1;
  bad.value_id = 5;
  EXPECT_THAT(BuildUtilityBarcode(bad).status().message(), HasSubstr("value identifier"));
  bad.value_id = 6;
  bad.free_field = std::string(21, '0');
  EXPECT_THAT(BuildUtilityBarcode(bad).status().message(), HasSubstr("free field must be 25 digits"));
}

// --- CPF / CNPJ --------------------------------------------------------------------------

TEST(TaxIdBuild, CheckDigitsFormatAndDetect) {
  EXPECT_EQ(*FormatCpf("33745107608"), "337.451.076-08");
  EXPECT_EQ(*FormatCnpj("91642017000106"), "91.642.017/0001-06");
  EXPECT_EQ(*FormatCnpj("12abc34501de35"), "12.ABC.345/01DE-35");
  EXPECT_THAT(FormatCpf("33745107609"), Not(IsOk()));
  EXPECT_FALSE(IsValidCpf("111.111.111-11"));
  EXPECT_FALSE(IsValidCnpj("11.111.111/1111-11"));
  std::mt19937_64 rng(2229);
  const std::string alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  for (int i = 0; i < 500; ++i) {
    std::string cpf;
    for (int k = 0; k < 9; ++k) cpf.push_back(static_cast<char>('0' + rng() % 10));
    cpf += *CpfCheckDigits(cpf);
    auto tax = TaxId::Parse(*FormatCpf(cpf));
    ASSERT_OK(tax) << cpf;
    EXPECT_EQ(tax->kind(), TaxIdKind::kCpf);
    EXPECT_EQ(tax->normalized(), cpf);
    std::string cnpj;
    for (int k = 0; k < 12; ++k) cnpj.push_back(alnum[rng() % alnum.size()]);
    cnpj += *CnpjCheckDigits(cnpj);
    auto company = TaxId::Parse(cnpj);
    ASSERT_OK(company) << cnpj;
    EXPECT_EQ(company->kind(), TaxIdKind::kCnpj);
    EXPECT_EQ(company->formatted(), *FormatCnpj(cnpj));
    EXPECT_EQ(Check(company->formatted()).kind, FormatKind::kCnpj);
    EXPECT_TRUE(Check(company->formatted()).valid);
  }
  EXPECT_THAT(TaxId::Parse("123").status().message(), HasSubstr("CPF (11 digits) or a CNPJ (14 characters)"));
  EXPECT_THAT(CpfCheckDigits("12345678"), Not(IsOk()));
  EXPECT_THAT(CnpjCheckDigits("12ABC34501D!"), Not(IsOk()));
}

// --- Pix end-to-end id -------------------------------------------------------------------

TEST(EndToEndIdBuild, RoundTripAndTruncatesToTheMinute) {
  UnixMicros t = (DaysFromCivil(2022, 1, 20) * 86400 + 14 * 3600 + 50 * 60 + 59) * kMicrosPerSecond + 123;
  auto id = BuildEndToEndId("20018183", t, "u34sDGd19lz");
  ASSERT_OK(id);
  EXPECT_EQ(*id, "E20018183202201201450u34sDGd19lz");
  auto parsed = ParseEndToEndId(*id);
  ASSERT_OK(parsed);
  EXPECT_EQ(parsed->utc_time, t - 59 * kMicrosPerSecond - 123);
  EXPECT_EQ(parsed->utc_timestamp, "2022-01-20T14:50Z");
  EXPECT_EQ(parsed->sequence, "u34sDGd19lz");
  EXPECT_THAT(BuildEndToEndId("2001818", t, "u34sDGd19lz"), Not(IsOk()));
  EXPECT_THAT(BuildEndToEndId("20018183", t, "u34sDGd19l-"), Not(IsOk()));
  for (const char* bad :
       {"E20018183202213201450u34sDGd19lz", "E20018183202202301450u34sDGd19lz", "E20018183202201202450u34sDGd19lz",
        "E20018183202201201460u34sDGd19lz", "E2001818320220120145-u34sDGd19lz", "E20018183202201201450u34sDGd19l_",
        "E2001818A202201201450u34sDGd19lz"}) {
    EXPECT_THAT(ParseEndToEndId(bad).status().message(), HasSubstr("does not match E + 8-digit ISPB")) << bad;
  }
}

}  // namespace
}  // namespace balcao::formats
