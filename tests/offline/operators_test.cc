// Operators on a real SQLite file: PIN rules by role, the hash is Argon2id and the PIN is
// nowhere in the file, five wrong PINs lock (the right PIN refused until the lock expires,
// growing with each further wrong PIN), disable and reset.
#include "offline/operators.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

using ::balcao::test_util::StatusIs;

namespace balcao::offline {
namespace {

class StepClock final : public Clock {
 public:
  UnixMicros Now() const override { return now_.load(); }
  void Advance(std::int64_t seconds) { now_ += seconds * kMicrosPerSecond; }

 private:
  std::atomic<UnixMicros> now_{1'780'000'000LL * kMicrosPerSecond};
};

class OperatorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::Open((dir_ / "box.db").string());
    ASSERT_OK(store);
    store_ = std::move(*store);
    operators_ = std::make_unique<Operators>(*store_, clock_);
  }
  void TearDown() override {
    operators_.reset();
    store_.reset();
  }
  std::string FileBytes() const {
    std::string all;
    for (const auto& entry : std::filesystem::directory_iterator(dir_)) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      all += text.str();
    }
    return all;
  }

  test_util::TempDir tmp_{"operators"};
  const std::filesystem::path dir_ = tmp_.path();
  StepClock clock_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Operators> operators_;
};

TEST_F(OperatorsTest, PinRulesByRoleAndNamesAreUnique) {
  EXPECT_EQ(operators_->Add("ana", OperatorRole::kCashier, "123").status().message(),
            "pin: a cashier's PIN is 4 to 8 digits");
  EXPECT_EQ(operators_->Add("ana", OperatorRole::kCashier, "12a4").status().message(),
            "pin: a cashier's PIN is 4 to 8 digits");
  EXPECT_EQ(operators_->Add("bia", OperatorRole::kSupervisor, "12345").status().message(),
            "pin: a supervisor's PIN is 6 to 12 digits");
  EXPECT_THAT(operators_->Add("", OperatorRole::kCashier, "1234"), StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(operators_->Add("x;drop", OperatorRole::kCashier, "1234"), StatusIs(StatusCode::kInvalidArgument));
  ASSERT_OK(operators_->Add("Ana Lima", OperatorRole::kCashier, "4821"));
  EXPECT_EQ(operators_->Add("ana lima", OperatorRole::kSupervisor, "482100").status().code(),
            StatusCode::kAlreadyExists);
  ASSERT_OK(operators_->Add("Bia", OperatorRole::kSupervisor, "902211"));
  auto list = operators_->List();
  ASSERT_OK(list);
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].name, "Ana Lima");
  EXPECT_EQ((*list)[1].role, OperatorRole::kSupervisor);
}

TEST_F(OperatorsTest, TheRightPinLogsInAndThePinIsNowhereInTheStore) {
  ASSERT_OK(operators_->Add("ana", OperatorRole::kCashier, "48213377"));
  auto in = operators_->Authenticate("ANA", "48213377");
  ASSERT_OK(in);
  EXPECT_EQ(in->name, "ana");
  EXPECT_THAT(operators_->Authenticate("ana", "48213378"), StatusIs(StatusCode::kPermissionDenied));
  EXPECT_EQ(operators_->Authenticate("nobody", "48213377").status().message(), "wrong operator or PIN");
  store_.reset();  // checkpoint nothing away: read the db and its WAL as they are
  const std::string bytes = FileBytes();
  EXPECT_EQ(bytes.find("48213377"), std::string::npos);
  EXPECT_NE(bytes.find("$argon2id$"), std::string::npos);
}

TEST_F(OperatorsTest, TheScreensLanguageIsKeptPerOperatorAndCheckedByName) {
  ASSERT_OK(operators_->Add("Ana", OperatorRole::kCashier, "4821").status());
  EXPECT_EQ(operators_->Get("Ana")->language, "");  // none chosen yet
  ASSERT_OK(operators_->SetLanguage("Ana", "en-US"));
  EXPECT_EQ(operators_->Get("Ana")->language, "en-US");
  auto in = operators_->Authenticate("Ana", "4821");  // the PIN still checks with the new column
  ASSERT_OK(in.status());
  EXPECT_EQ(in->language, "en-US");
  const Status bad = operators_->SetLanguage("Ana", "fr-FR");
  EXPECT_THAT(bad, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_NE(bad.message().find("language"), std::string::npos);
  EXPECT_THAT(operators_->SetLanguage("Nobody", "pt-BR"), StatusIs(StatusCode::kNotFound));
  EXPECT_EQ(operators_->Get("Ana")->language, "en-US");
}

TEST_F(OperatorsTest, FiveWrongPinsLockEvenTheRightPinUntilTheLockExpiresAndLocksGrow) {
  ASSERT_OK(operators_->Add("ana", OperatorRole::kCashier, "4821"));
  for (int i = 0; i < kFreeAttempts; ++i)
    EXPECT_THAT(operators_->Authenticate("ana", "0000"), StatusIs(StatusCode::kPermissionDenied)) << i;
  // The 6th attempt, with the right PIN: refused while locked.
  auto sixth = operators_->Authenticate("ana", "4821");
  EXPECT_THAT(sixth, StatusIs(StatusCode::kResourceExhausted));
  EXPECT_EQ(sixth.status().message(), "operator 'ana' is locked after 5 wrong PINs; try again in 30 s");
  clock_.Advance(29);
  EXPECT_THAT(operators_->Authenticate("ana", "4821"), StatusIs(StatusCode::kResourceExhausted));
  clock_.Advance(1);
  // The lock is over; one more wrong PIN locks again, for twice as long.
  EXPECT_THAT(operators_->Authenticate("ana", "1111"), StatusIs(StatusCode::kPermissionDenied));
  EXPECT_NE(operators_->Authenticate("ana", "4821").status().message().find("in 60 s"), std::string::npos);
  clock_.Advance(60);
  ASSERT_OK(operators_->Authenticate("ana", "4821"));
  EXPECT_EQ(operators_->Get("ana")->failed_attempts, 0);
}

TEST_F(OperatorsTest, DisabledOperatorsAreRefusedAndAResetClearsTheLock) {
  ASSERT_OK(operators_->Add("ana", OperatorRole::kCashier, "4821"));
  for (int i = 0; i < kFreeAttempts; ++i) (void)operators_->Authenticate("ana", "0000");
  ASSERT_OK(operators_->ResetPin("ana", "5930"));
  EXPECT_OK(operators_->Authenticate("ana", "5930"));
  EXPECT_THAT(operators_->Authenticate("ana", "4821"), StatusIs(StatusCode::kPermissionDenied));
  ASSERT_OK(operators_->Disable("ana"));
  EXPECT_THAT(operators_->Authenticate("ana", "5930"), StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_THAT(operators_->Disable("nobody"), StatusIs(StatusCode::kNotFound));
  EXPECT_THAT(operators_->ResetPin("ana", "12"), StatusIs(StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace balcao::offline
