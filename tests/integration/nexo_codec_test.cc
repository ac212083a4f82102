// The nexo codec and message protection, without sockets: key derivation and encryption
// against vectors computed independently (Python's hashlib.pbkdf2_hmac and `openssl enc`),
// parsing and refusing requests, and the answers a cash register reads.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "integration/nexo/message.h"
#include "integration/nexo/protection.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::integration::nexo {
namespace {

using nlohmann::json;

// hashlib.pbkdf2_hmac('sha1', b'balcao-test-passphrase', b'AdyenNexoV1Salt', 4000, 80).hex()
constexpr const char* kDerivedHex =
    "6a334fbdccda5772d0970d0ebb50be193b14d31d0e33d0e1f2a2fe746d995a77fbf2feb86bbddae182676aca8a1d8e92"
    "3cdcda9aec7c496acf3620c5f462907cf65dd075de953feb633a4099effee8cc";
constexpr const char* kPlain = R"({"SaleToPOIRequest":{"MessageHeader":{}}})";

TEST(NexoProtection, DerivesTheKeysAsPbkdf2HmacSha1Does) {
  EXPECT_EQ(DeriveKeys("balcao-test-passphrase").ToHex(), kDerivedHex);
  auto back = DerivedKeys::FromHex(kDerivedHex);
  ASSERT_OK(back);
  EXPECT_EQ(back->ToHex(), kDerivedHex);
  EXPECT_THAT(DerivedKeys::FromHex("abc"), Not(IsOk()));
}

TEST(NexoProtection, EncryptsAndAuthenticatesAsOpensslEncAndHmacDo) {
  std::array<unsigned char, 16> nonce{};
  for (int i = 0; i < 16; ++i) nonce[i] = static_cast<unsigned char>(i);
  auto sealed = ProtectWithNonce(kPlain, DeriveKeys("balcao-test-passphrase"), "till-1", 1, nonce);
  ASSERT_OK(sealed);
  EXPECT_EQ(sealed->blob, "LSKByOjQ2Gevnq4NRCmcClyt7aoXgI04VBZR2eiVPGRH5Snw9CPNZynu6kxzAByn");
  EXPECT_EQ(sealed->trailer.hmac, "xPCDhOOLq8rW8URxtpBJzILxQXDM6V6aCw/EsXh2Ryw=");
  EXPECT_EQ(sealed->trailer.nonce, "AAECAwQFBgcICQoLDA0ODw==");
  auto plain = Unprotect(sealed->blob, sealed->trailer, DeriveKeys("balcao-test-passphrase"));
  ASSERT_OK(plain);
  EXPECT_EQ(*plain, kPlain);
}

TEST(NexoProtection, RefusesAWrongKeyATamperedBlobAndAWrongHmac) {
  const DerivedKeys keys = DeriveKeys("balcao-test-passphrase");
  auto sealed = Protect(kPlain, keys, "till-1", 1);
  ASSERT_OK(sealed);
  EXPECT_THAT(Unprotect(sealed->blob, sealed->trailer, DeriveKeys("another passphrase")), Not(IsOk()));
  SecurityTrailer wrong_hmac = sealed->trailer;
  wrong_hmac.hmac = Base64(std::string(32, 'x'));
  EXPECT_THAT(Unprotect(sealed->blob, wrong_hmac, keys), StatusIs(StatusCode::kPermissionDenied));
  SecurityTrailer other_nonce = sealed->trailer;
  other_nonce.nonce = Base64(std::string(16, '\0'));
  EXPECT_THAT(Unprotect(sealed->blob, other_nonce, keys), Not(IsOk()));
  EXPECT_THAT(Unprotect("not base64!", sealed->trailer, keys), StatusIs(StatusCode::kInvalidArgument));
  // Two protections of the same text differ: each has its own nonce.
  auto again = Protect(kPlain, keys, "till-1", 1);
  EXPECT_NE(again->blob, sealed->blob);
}

TEST(NexoAmount, ReadsTheDecimalTextIntoCents) {
  EXPECT_EQ(*ParseAmount("12.34"), 1234);
  EXPECT_EQ(*ParseAmount("12.3"), 1230);
  EXPECT_EQ(*ParseAmount("12"), 1200);
  EXPECT_EQ(*ParseAmount("0.01"), 1);
  for (const char* bad :
       {"12.345", "-1.00", "0", "0.00", "1e3", "1.5E2", "NaN", "Infinity", ".5", "5.", "", "1,00", "1234567890.00"}) {
    auto cents = ParseAmount(bad);
    EXPECT_THAT(cents, Not(IsOk())) << bad;
    if (!cents.ok()) {
      EXPECT_NE(cents.status().message().find("RequestedAmount"), std::string::npos);
    }
  }
  EXPECT_EQ(FormatAmount(1234), "12.34");
  EXPECT_EQ(FormatAmount(5), "0.05");
}

std::string PaymentText(const std::string& amount, const std::string& extra = "") {
  return R"({"SaleToPOIRequest":{"MessageHeader":{"ProtocolVersion":"3.0","MessageClass":"Service",)"
         R"("MessageCategory":"Payment","MessageType":"Request","ServiceID":"1001","SaleID":"POS-1","POIID":"BOX-1"},)"
         R"("PaymentRequest":{"SaleData":{"SaleTransactionID":{"TransactionID":"cupom-77","TimeStamp":"2026-11-26T00:00:00Z"},)"
         R"("SaleToAcquirerData":"method=card&x=1"},"PaymentTransaction":{"AmountsReq":{"Currency":"BRL","RequestedAmount":)" +
         amount + "}}" + extra + "}}}";
}

TEST(NexoRequest, ReadsAPaymentWithItsIdentityMethodAndInstallments) {
  auto request = ParseRequest(PaymentText("12.34", R"(,"PaymentData":{"Instalment":{"TotalNbOfPayments":3}})"));
  ASSERT_OK(request);
  EXPECT_FALSE(request->is_protected);
  EXPECT_EQ(request->category, Category::kPayment);
  EXPECT_EQ(request->payment.amount, 1234);
  EXPECT_EQ(request->payment.method, PayMethod::kCard);
  EXPECT_EQ(request->payment.installments, 3);
  EXPECT_EQ(request->payment.identity, (RequestIdentity{"POS-1", "1001", "cupom-77"}));
  EXPECT_EQ(request->header.poi_id, "BOX-1");
}

TEST(NexoRequest, RefusesBadInputNamingTheField) {
  auto refused = [](const std::string& text) {
    auto r = ParseRequest(text);
    return r.ok() ? std::string("accepted") : r.status().message();
  };
  EXPECT_NE(refused(PaymentText("12.345")).find("RequestedAmount"), std::string::npos);
  EXPECT_NE(refused(PaymentText("-5.00")).find("RequestedAmount"), std::string::npos);
  EXPECT_NE(refused(PaymentText("1e2")).find("RequestedAmount"), std::string::npos);
  EXPECT_NE(refused(PaymentText("\"12.34\"")).find("RequestedAmount"), std::string::npos);
  EXPECT_NE(refused("[1]").find("JSON object"), std::string::npos);
  EXPECT_NE(refused("{").find("JSON"), std::string::npos);
  EXPECT_NE(refused(R"({"SaleToPOIRequest":{},"SaleToPOIRequest":{}})").find("twice"), std::string::npos);
  EXPECT_NE(refused(R"({"SaleToPOIRequest":{"MessageHeader":{}}})").find("MessageClass"), std::string::npos);
  std::string deep = std::string(40, '[') + std::string(40, ']');
  EXPECT_NE(refused(R"({"a":)" + deep + "}").find("nested"), std::string::npos);
}

TEST(NexoRequest, ReadsAProtectedEnvelopeAndItsTrailer) {
  const DerivedKeys keys = DeriveKeys("pass");
  auto wrapped = ProtectRequest(PaymentText("10.00"), keys, "till-1", 2);
  ASSERT_OK(wrapped);
  auto outer = ParseRequest(*wrapped);
  ASSERT_OK(outer);
  EXPECT_TRUE(outer->is_protected);
  EXPECT_EQ(outer->trailer.key_identifier, "till-1");
  EXPECT_EQ(outer->trailer.key_version, 2);
  auto plain = Unprotect(outer->blob, outer->trailer, keys);
  ASSERT_OK(plain);
  auto inner = ParseRequest(*plain);
  ASSERT_OK(inner);
  EXPECT_EQ(inner->payment.amount, 1000);
}

TEST(NexoResponse, AnApprovedCardPaymentCarriesResultReceiptsAndTheNfceFields) {
  auto request = ParseRequest(PaymentText("12.34"));
  ASSERT_OK(request);
  PaymentOutcome o;
  o.result = Result::kApproved;
  o.sale_id = "v20261126t000000-1";
  o.time_ms = 1'795'000'000'000;
  o.amount = 1234;
  o.method = PayMethod::kCard;
  o.funding = CardFunding::kCredit;
  o.installments = 3;
  o.card_mask = "411111******1111";
  o.card_brand = "visa";
  o.authorization_code = "5656565656565656";
  o.institution_cnpj = "20018183000180";
  o.cashier_receipt = {"VIA ESTABELECIMENTO", "R$ 12,34"};
  o.customer_receipt = {"VIA CLIENTE"};
  const json answer = json::parse(PaymentResponse(*request, o, "2026-11-26T00:00:01.000Z"));
  const json& r = answer["SaleToPOIResponse"]["PaymentResponse"];
  EXPECT_EQ(answer["SaleToPOIResponse"]["MessageHeader"]["MessageType"], "Response");
  EXPECT_EQ(answer["SaleToPOIResponse"]["MessageHeader"]["ServiceID"], "1001");
  EXPECT_EQ(r["Response"]["Result"], "Success");
  EXPECT_EQ(r["POIData"]["POITransactionID"]["TransactionID"], "v20261126t000000-1");
  EXPECT_EQ(r["SaleData"]["SaleTransactionID"]["TransactionID"], "cupom-77");
  EXPECT_EQ(r["PaymentResult"]["AmountsResp"]["AuthorizedAmount"].dump(), "12.34");
  EXPECT_EQ(r["PaymentResult"]["PaymentInstrumentData"]["CardData"]["MaskedPan"], "411111******1111");
  EXPECT_EQ(r["PaymentResult"]["InstalmentType"]["TotalNbOfPayments"], 3);
  EXPECT_EQ(r["PaymentReceipt"][0]["DocumentQualifier"], "CashierReceipt");
  EXPECT_EQ(r["PaymentReceipt"][1]["OutputContent"]["OutputText"][0]["Text"], "VIA CLIENTE");
  const std::string extra = r["Response"]["AdditionalResponse"].get<std::string>();
  EXPECT_NE(extra.find("tPag=03"), std::string::npos) << extra;
  EXPECT_NE(extra.find("tBand=01"), std::string::npos) << extra;
  EXPECT_NE(extra.find("CNPJ=20018183000180"), std::string::npos) << extra;
  EXPECT_NE(extra.find("cAut=5656565656565656"), std::string::npos) << extra;
  EXPECT_NE(extra.find("fundingSource=CREDIT"), std::string::npos) << extra;
}

// Field names as Adyen's libraries spell them (CardData.MaskedPan: the Node library's model drops
// MaskedPAN), no empty brand, no ApprovalCode (the bank's record has none): the purchase's id is
// the acquirer's transaction id. The Node library's own models read every field of these
// answers in tests/integration/adyen_node/nexo.test.js.
TEST(NexoResponse, CardDataIsSpelledAsAdyenReadsItAndCarriesNoInventedApprovalCode) {
  auto request = ParseRequest(PaymentText("12.34"));
  ASSERT_OK(request);
  PaymentOutcome o;
  o.result = Result::kApproved;
  o.sale_id = "v20261126t000000-2";
  o.amount = 1234;
  o.method = PayMethod::kCard;
  o.card_mask = "545301******5454";
  o.authorization_code = "7878787878787878";
  const json r =
      json::parse(PaymentResponse(*request, o, "2026-11-26T00:00:01.000Z"))["SaleToPOIResponse"]["PaymentResponse"];
  const json& card = r["PaymentResult"]["PaymentInstrumentData"]["CardData"];
  EXPECT_EQ(card["MaskedPan"], "545301******5454");
  EXPECT_FALSE(card.contains("MaskedPAN"));
  EXPECT_FALSE(card.contains("PaymentBrand")) << "no brand known: none sent, never an empty one";
  const json& acquirer = r["PaymentResult"]["PaymentAcquirerData"];
  EXPECT_FALSE(acquirer.contains("ApprovalCode"));
  EXPECT_EQ(acquirer["AcquirerTransactionID"]["TransactionID"], "7878787878787878");
}

TEST(NexoResponse, AReversalAnswerCarriesItsRefundSlip) {
  auto request = ParseRequest(PaymentText("12.34"));
  ASSERT_OK(request);
  ReversalOutcome o;
  o.result = Result::kApproved;
  o.sale_id = "v20261126t000000-3";
  o.amount = 1234;
  o.refund_receipt = {"ESTORNO", "R$ 12,34"};
  const json r =
      json::parse(ReversalResponse(*request, o, "2026-11-26T00:00:02.000Z"))["SaleToPOIResponse"]["ReversalResponse"];
  EXPECT_EQ(r["ReversedAmount"].dump(), "12.34");
  ASSERT_EQ(r["PaymentReceipt"].size(), 2u) << r.dump();
  EXPECT_EQ(r["PaymentReceipt"][1]["DocumentQualifier"], "CustomerReceipt");
  EXPECT_EQ(r["PaymentReceipt"][1]["OutputContent"]["OutputText"][0]["Text"], "ESTORNO");
  o.refund_receipt.clear();
  EXPECT_FALSE(
      json::parse(ReversalResponse(*request, o, "2026-11-26T00:00:02.000Z"))["SaleToPOIResponse"]["ReversalResponse"]
          .contains("PaymentReceipt"));
}

TEST(NexoResponse, RefusalsCarryTheirErrorConditionAndRejectsAreEventNotifications) {
  auto request = ParseRequest(PaymentText("12.34"));
  PaymentOutcome o;
  o.result = Result::kBusy;
  o.reason = "another payment runs";
  const json busy = json::parse(PaymentResponse(*request, o, "now"));
  EXPECT_EQ(busy["SaleToPOIResponse"]["PaymentResponse"]["Response"]["ErrorCondition"], "Busy");
  EXPECT_EQ(busy["SaleToPOIResponse"]["PaymentResponse"]["Response"]["Result"], "Failure");
  const json reject = json::parse(RejectNotification(request->header, "unknown KeyIdentifier", "{}", "now"));
  EXPECT_EQ(reject["SaleToPOIRequest"]["EventNotification"]["EventToNotify"], "Reject");
  EXPECT_EQ(reject["SaleToPOIRequest"]["MessageHeader"]["MessageCategory"], "Event");
}

TEST(NexoResponse, ProtectedResponsesRoundTrip) {
  auto request = ParseRequest(PaymentText("1.00"));
  PaymentOutcome o;
  o.result = Result::kRefused;
  const std::string plain = PaymentResponse(*request, o, "now");
  const DerivedKeys keys = DeriveKeys("pass");
  auto sealed = ProtectResponse(plain, keys, "till-1", 1);
  ASSERT_OK(sealed);
  EXPECT_EQ(json::parse(*sealed)["SaleToPOIResponse"]["MessageHeader"]["ServiceID"], "1001");
  EXPECT_EQ(*UnprotectResponse(*sealed, keys), plain);
  EXPECT_THAT(UnprotectResponse(*sealed, DeriveKeys("other")), Not(IsOk()));
}

TEST(RegisterOutcome, SurvivesItsJsonForm) {
  PaymentOutcome o;
  o.result = Result::kApproved;
  o.sale_id = "s";
  o.amount = 99;
  o.method = PayMethod::kPix;
  o.pix_end_to_end_id = "E123";
  o.cashier_receipt = {"a", "b"};
  auto back = OutcomeFromJson(OutcomeToJson(o));
  ASSERT_OK(back);
  EXPECT_EQ(*back, o);
}

}  // namespace
}  // namespace balcao::integration::nexo
