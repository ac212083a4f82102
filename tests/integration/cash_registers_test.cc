// The store's cash registers (offline/cash_registers.h) on a real SQLite file: keys and their
// versions, nonces seen once, request identities recorded once with their outcome.
#include "offline/cash_registers.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace balcao::offline {
namespace {

class CashRegistersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("balcao-cash-registers-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto store = Store::Open((dir_ / "balcao.db").string());
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    store_ = *std::move(store);
    registers_ = std::make_unique<CashRegisters>(*store_);
  }
  void TearDown() override {
    registers_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  PosKey Key(const std::string& id) { return PosKey{id, "pos-" + id, 1, std::string(160, 'a')}; }

  std::filesystem::path dir_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<CashRegisters> registers_;
};

TEST_F(CashRegistersTest, KeysAreAddedOnceRotatedAndDisabled) {
  ASSERT_TRUE(registers_->AddRegister(Key("CAIXA-1")).ok());
  EXPECT_EQ(registers_->AddRegister(Key("CAIXA-1")).code(), StatusCode::kAlreadyExists);
  auto next = registers_->Rotate("CAIXA-1", std::string(160, 'b'));
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->key_version, 2);
  auto old = registers_->FindKey("pos-CAIXA-1", 1);
  ASSERT_TRUE(old.ok());
  EXPECT_GT(old->retired_at_ms, 0);
  EXPECT_EQ(registers_->FindKey("pos-CAIXA-1", 2)->retired_at_ms, 0);
  EXPECT_EQ(registers_->FindKey("pos-CAIXA-1", 3).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(registers_->Rotate("NOBODY", "x").status().code(), StatusCode::kNotFound);
  ASSERT_TRUE(registers_->Disable("CAIXA-1").ok());
  EXPECT_TRUE(registers_->FindKey("pos-CAIXA-1", 2)->disabled);
  EXPECT_EQ(registers_->List()->size(), 2u);
}

TEST_F(CashRegistersTest, ANonceIsTakenOncePerKey) {
  EXPECT_TRUE(registers_->RememberNonce("pos-A", "bm9uY2U=").ok());
  EXPECT_EQ(registers_->RememberNonce("pos-A", "bm9uY2U=").code(), StatusCode::kAlreadyExists);
  EXPECT_TRUE(registers_->RememberNonce("pos-B", "bm9uY2U=").ok());
}

TEST_F(CashRegistersTest, ARequestIdentityIsRecordedOnceWithItsOutcome) {
  const RegisterRequestRow row{"CAIXA-1", "1001", "cupom-1", "payment", "sale-1", "{}"};
  ASSERT_TRUE(registers_->BeginRequest(row).ok());
  EXPECT_EQ(registers_->BeginRequest(row).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(registers_->Running("payment")->size(), 1u);
  ASSERT_TRUE(registers_->Finish("CAIXA-1", "1001", R"({"result":"approved"})").ok());
  // A second Finish changes nothing: the first outcome stays.
  ASSERT_TRUE(registers_->Finish("CAIXA-1", "1001", R"({"result":"refused"})").ok());
  auto found = registers_->FindRequest("CAIXA-1", "1001");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->outcome, R"({"result":"approved"})");
  EXPECT_EQ(registers_->FindPaymentOfSale("sale-1")->service_id, "1001");
  EXPECT_TRUE(registers_->Running("payment")->empty());
  // Kept across a reopen.
  registers_.reset();
  store_.reset();
  auto reopened = Store::Open((dir_ / "balcao.db").string());
  ASSERT_TRUE(reopened.ok());
  CashRegisters again(**reopened);
  EXPECT_EQ(again.FindRequest("CAIXA-1", "1001")->transaction_id, "cupom-1");
}

}  // namespace
}  // namespace balcao::offline
