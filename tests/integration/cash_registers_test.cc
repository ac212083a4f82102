// The store's cash registers (offline/cash_registers.h) on a real SQLite file: keys and their
// versions, nonces seen once, request identities recorded once with their outcome.
#include "offline/cash_registers.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

using ::balcao::test_util::StatusIs;

namespace balcao::offline {
namespace {

class CashRegistersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open((dir_ / "balcao.db").string());
    ASSERT_OK(store);
    store_ = *std::move(store);
    registers_ = std::make_unique<CashRegisters>(*store_);
  }
  void TearDown() override {
    registers_.reset();
    store_.reset();
  }
  PosKey Key(const std::string& id) { return PosKey{id, "pos-" + id, 1, std::string(160, 'a')}; }

  test_util::TempDir tmp_{"cash-registers"};
  const std::filesystem::path dir_ = tmp_.path();
  std::unique_ptr<Store> store_;
  std::unique_ptr<CashRegisters> registers_;
};

TEST_F(CashRegistersTest, KeysAreAddedOnceRotatedAndDisabled) {
  ASSERT_OK(registers_->AddRegister(Key("CAIXA-1")));
  EXPECT_THAT(registers_->AddRegister(Key("CAIXA-1")), StatusIs(StatusCode::kAlreadyExists));
  auto next = registers_->Rotate("CAIXA-1", std::string(160, 'b'));
  ASSERT_OK(next);
  EXPECT_EQ(next->key_version, 2);
  auto old = registers_->FindKey("pos-CAIXA-1", 1);
  ASSERT_OK(old);
  EXPECT_GT(old->retired_at_ms, 0);
  EXPECT_EQ(registers_->FindKey("pos-CAIXA-1", 2)->retired_at_ms, 0);
  EXPECT_THAT(registers_->FindKey("pos-CAIXA-1", 3), StatusIs(StatusCode::kNotFound));
  EXPECT_THAT(registers_->Rotate("NOBODY", "x"), StatusIs(StatusCode::kNotFound));
  ASSERT_OK(registers_->Disable("CAIXA-1"));
  EXPECT_TRUE(registers_->FindKey("pos-CAIXA-1", 2)->disabled);
  EXPECT_EQ(registers_->List()->size(), 2u);
}

TEST_F(CashRegistersTest, ANonceIsTakenOncePerKey) {
  EXPECT_OK(registers_->RememberNonce("pos-A", "bm9uY2U="));
  EXPECT_THAT(registers_->RememberNonce("pos-A", "bm9uY2U="), StatusIs(StatusCode::kAlreadyExists));
  EXPECT_OK(registers_->RememberNonce("pos-B", "bm9uY2U="));
}

TEST_F(CashRegistersTest, ARequestIdentityIsRecordedOnceWithItsOutcome) {
  const RegisterRequestRow row{"CAIXA-1", "1001", "cupom-1", "payment", "sale-1", "{}"};
  ASSERT_OK(registers_->BeginRequest(row));
  EXPECT_THAT(registers_->BeginRequest(row), StatusIs(StatusCode::kAlreadyExists));
  EXPECT_EQ(registers_->Running("payment")->size(), 1u);
  ASSERT_OK(registers_->Finish("CAIXA-1", "1001", R"({"result":"approved"})"));
  // A second Finish changes nothing: the first outcome stays.
  ASSERT_OK(registers_->Finish("CAIXA-1", "1001", R"({"result":"refused"})"));
  auto found = registers_->FindRequest("CAIXA-1", "1001");
  ASSERT_OK(found);
  EXPECT_EQ(found->outcome, R"({"result":"approved"})");
  EXPECT_EQ(registers_->FindPaymentOfSale("sale-1")->service_id, "1001");
  EXPECT_TRUE(registers_->Running("payment")->empty());
  // Kept across a reopen.
  registers_.reset();
  store_.reset();
  auto reopened = Store::Open((dir_ / "balcao.db").string());
  ASSERT_OK(reopened);
  CashRegisters again(**reopened);
  EXPECT_EQ(again.FindRequest("CAIXA-1", "1001")->transaction_id, "cupom-1");
}

}  // namespace
}  // namespace balcao::offline
