// The sale journal: append/read order, replayed writes, open sales, and card data
// refused before it reaches the disk.
#include "offline/journal.h"

#include <gtest/gtest.h>

#include "offline/card_scan.h"
#include "tests/offline/test_util.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::StatusIs;

namespace balcao::offline {
namespace {

class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Store::Open(dir_.File("box.db"));
    ASSERT_OK(opened);
    store_ = std::move(*opened);
    journal_ = std::make_unique<Journal>(*store_);
  }
  testing::TempDir dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Journal> journal_;
};

TEST_F(JournalTest, AppendsAndReadsInOrder) {
  ASSERT_OK(journal_->Append("s-1", 1, "cashier.start", R"({"amount":1500,"method":"pix"})"));
  ASSERT_OK(journal_->Append("s-1", 2, "api.result", R"({"brcode":"000201...","id":"5656565656565656"})"));
  ASSERT_OK(journal_->Append("s-2", 1, "cashier.start", R"({"amount":10})"));
  auto entries = journal_->Read("s-1");
  ASSERT_OK(entries);
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].seq, 1);
  EXPECT_EQ((*entries)[0].kind, "cashier.start");
  EXPECT_EQ((*entries)[1].payload, R"({"brcode":"000201...","id":"5656565656565656"})");
  EXPECT_TRUE(journal_->Read("nobody")->empty());
}

TEST_F(JournalTest, ReplayedAppendIsANoOpAndConflictsAreRefused) {
  ASSERT_OK(journal_->Append("s-1", 1, "a", "{}"));
  EXPECT_OK(journal_->Append("s-1", 1, "a", "{}"));
  EXPECT_THAT(journal_->Append("s-1", 1, "b", "{}"), StatusIs(StatusCode::kAlreadyExists));
  ASSERT_OK(journal_->Append("s-1", 5, "c", "{}"));
  EXPECT_THAT(journal_->Append("s-1", 3, "d", "{}"), StatusIs(StatusCode::kInvalidArgument));
  EXPECT_EQ(journal_->Read("s-1")->size(), 2u);
}

TEST_F(JournalTest, RejectsBadInputNamingTheField) {
  auto s = journal_->Append("", 1, "a", "{}");
  EXPECT_NE(s.message().find("sale_id"), std::string::npos);
  EXPECT_THAT(journal_->Append("s", 1, "", "{}"), StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(journal_->Append("s", -1, "a", "{}"), StatusIs(StatusCode::kInvalidArgument));
  s = journal_->Append("s", 1, "a", "{not json");
  EXPECT_NE(s.message().find("valid JSON"), std::string::npos);
}

TEST_F(JournalTest, OpenSalesAreTheOnesNotClosed) {
  ASSERT_OK(journal_->Append("s-1", 1, "a", "{}"));
  ASSERT_OK(journal_->Append("s-2", 1, "a", "{}"));
  ASSERT_OK(journal_->Append("s-3", 1, "a", "{}"));
  ASSERT_OK(journal_->MarkClosed("s-2", "paid"));
  EXPECT_EQ(*journal_->OpenSales(), (std::vector<std::string>{"s-1", "s-3"}));
  EXPECT_EQ(journal_->Sale("s-2")->final_state, "paid");
  // A late event on a closed sale is journaled and the sale stays closed.
  ASSERT_OK(journal_->Append("s-2", 2, "bank.event", R"({"late":true})"));
  EXPECT_EQ(journal_->OpenSales()->size(), 2u);
  ASSERT_OK(journal_->Reopen("s-2"));
  EXPECT_EQ(journal_->OpenSales()->size(), 3u);
  EXPECT_THAT(journal_->MarkClosed("nobody", "paid"), StatusIs(StatusCode::kNotFound));
  EXPECT_THAT(journal_->MarkClosed("s-1", ""), StatusIs(StatusCode::kInvalidArgument));
}

TEST_F(JournalTest, RefusesCardNumbersAndSecurityCodes) {
  const char* refused[] = {
      R"({"card":"4111111111111111"})",
      R"({"card":"4111 1111 1111 1111"})",
      R"({"card":"5555-5555-5555-4444"})",
      R"({"number":4012888888881881})",
      R"({"note":"customer card 378282246310005 declined"})",
      R"({"cvv":"123"})",
      R"({"card":{"securityCode":"999"}})",
      R"({"cardNumber":"x"})",
      R"({"note":"5511987654325"})",  // the same digits outside a phone field
      R"({"list":[{"deep":["6011111111111117"]}]})",
      R"({"note":"link https://bank.example/4111111111111111"})",  // text around a link is scanned
  };
  for (const char* payload : refused) {
    Status s = journal_->Append("s-9", 1, "card", payload);
    EXPECT_THAT(s, StatusIs(StatusCode::kInvalidArgument)) << payload;
    EXPECT_NE(s.message().find("card data"), std::string::npos) << payload;
    EXPECT_EQ(s.message().find("1111"), std::string::npos) << "the error must not echo the digits";
  }
  EXPECT_TRUE(journal_->Read("s-9")->empty());
}

TEST_F(JournalTest, AcceptsIdsTimestampsAndMaskedNumbers) {
  const char* accepted[] = {
      R"({"id":"4111111111111111"})",  // bank ids are long digit strings
      R"({"purchaseId":"5555555555554444"})",
      R"({"at_us":1732199257123456})",  // micros: start with 1
      R"({"masked":"411111******1111"})", R"({"e2e":"E20018183202405101500abcdef123456"})",
      R"({"brcode":"00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR"})",
      R"({"amount":4111111111111112})",  // fails Luhn
      R"({"cvv":""})",
      R"({"holderPhone":"+55 11 98765-4321","taxId":"33.745.107/0001-08","billingZipCode":"01310-100"})",
      R"({"holderPhone":"5511987654325"})",  // passes Luhn, but a phone number
      // Bank-generated links end in 16-digit bank ids that may pass Luhn.
      R"({"challenge_url":"https://bank.example/challenge/4111111111111111"})",
      R"({"note":"https://bank.example/invoice/5555555555554444"})",
      R"({"text":"000201010212265800144111111111111111"})",  // a BR Code payload
  };
  std::int64_t seq = 1;
  for (const char* payload : accepted) EXPECT_OK(journal_->Append("s-8", seq++, "x", payload)) << payload;
}

TEST(CardScan, LuhnAndFreeText) {
  EXPECT_TRUE(PassesLuhn("4111111111111111"));
  EXPECT_FALSE(PassesLuhn("4111111111111112"));
  EXPECT_FALSE(PassesLuhn("41111a1111111111"));
  EXPECT_TRUE(ContainsCardNumber("paid with 4111111111111111."));
  EXPECT_TRUE(ContainsCardNumber("4111-1111-1111-1111"));
  EXPECT_FALSE(ContainsCardNumber("4111  1111  1111  1111"));  // double spaces split the run
  EXPECT_FALSE(ContainsCardNumber("id4111111111111111"));      // glued to letters
  EXPECT_FALSE(ContainsCardNumber("41111111111111111111"));    // 20 digits
  EXPECT_FALSE(ContainsCardNumber("1111111111111111111"));     // does not start like a card
}

}  // namespace
}  // namespace balcao::offline
