// The TEF Dial manager on real folders and a real exchange log, driven by the repository's TEF
// Dial client, against a counter that keeps the Counter contract (identity: a request seen
// before starts nothing and gets its first outcome) and records the money it moved. The box's
// own counter is exercised end to end by tefdial_serve_test.cc.
#include "integration/tefdial/manager.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <deque>
#include <filesystem>
#include <map>
#include <mutex>

#include "tests/integration/tefdial_client.h"

namespace balcao::integration::tefdial {
namespace {

namespace fs = std::filesystem;
using tefdial_testing::ClientOptions;
using tefdial_testing::TefDialClient;

// Pays or declines as told; every reversal identity moves money once.
class ScriptedCounter : public Counter {
 public:
  Result next = Result::kApproved;
  PayMethod method = PayMethod::kPix;
  bool hold = false;  // keep the payment running (never answer)

  void Pay(const PaymentRequest& request, std::chrono::milliseconds,
           std::function<void(PaymentOutcome)> done) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++pays;
    if (auto it = payments_.find(request.identity.service_id); it != payments_.end()) return done(it->second);
    if (hold) return;
    PaymentOutcome o;
    o.result = next;
    o.sale_id = "sale-" + std::to_string(payments_.size() + 1);
    o.time_ms = 1'764'100'000'000;
    o.method = method;
    o.amount = next == Result::kApproved ? request.amount : 0;
    o.reason = next == Result::kRefused ? "saldo insuficiente" : "";
    if (method == PayMethod::kCard) {
      o.card_mask = "411111******1111";
      o.funding = CardFunding::kCredit;
      o.authorization_code = "purchase-7";
    } else {
      o.pix_end_to_end_id = "E20018183202511251946abcdefghij";
    }
    amounts_[o.sale_id] = request.amount;
    payments_[request.identity.service_id] = o;
    done(o);
  }
  void Abort(const AbortRequest&, std::function<void(Status)> done) override { done(OkStatus()); }
  void Reverse(const ReversalRequest& request, std::function<void(ReversalOutcome)> done) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = reversals_.find(request.identity.service_id); it != reversals_.end()) return done(it->second);
    ReversalOutcome o{Result::kApproved, "", request.sale_id, amounts_[request.sale_id], false};
    returned[request.sale_id] += o.amount;
    reversals_[request.identity.service_id] = o;
    done(o);
  }
  void Lookup(const RequestIdentity&, std::function<void(StatusLookup)> done) override { done(StatusLookup{}); }

  std::map<std::string, Cents> returned;  // sale -> cents given back
  int pays = 0;

 private:
  std::mutex mu_;
  std::map<std::string, PaymentOutcome> payments_;
  std::map<std::string, ReversalOutcome> reversals_;
  std::map<std::string, Cents> amounts_;
};

class ManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("tefdial-manager-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override {
    manager_.reset();
    fs::remove_all(root_);
  }
  void StartManager(Counter& counter, std::int64_t unresolved_after_s = 600, Unresolved policy = Unresolved::kUndo) {
    ManagerOptions options;
    options.folder = FolderOptions{(root_ / "tef").string()};
    options.log_path = (root_ / "exchange.jsonl").string();
    options.merchant = Merchant{"LOJA EXEMPLO", "00000000000191"};
    options.unresolved_after_s = unresolved_after_s;
    options.unresolved = policy;
    auto manager = Manager::Open(options, counter, SystemClock::Instance(),
                                 [this](const std::string& sale, const std::string& text) {
                                   std::lock_guard<std::mutex> lock(mu_);
                                   notices_.push_back(sale + ": " + text);
                                 });
    ASSERT_TRUE(manager.ok()) << manager.status().message();
    manager_ = *std::move(manager);
    manager_->Start();
  }
  TefDialClient Client(bool lower = false, bool lf = false) {
    return TefDialClient(ClientOptions{root_ / "tef", root_ / "pdv.state", lower, lf});
  }
  const TefSale* Sale(const Exchange& x, const std::string& sale_id) { return x.BySale(sale_id); }

  // The counters outlive the managers that call them (declared first, destroyed last).
  ScriptedCounter& NewCounter() { return counters_.emplace_back(); }

  std::deque<ScriptedCounter> counters_;
  fs::path root_;
  std::unique_ptr<Manager> manager_;
  std::mutex mu_;
  std::vector<std::string> notices_;
};

TEST_F(ManagerTest, AtvCrtCnfThenNcnOfTheNextSaleGivesTheMoneyBackOnce) {
  ScriptedCounter& counter = NewCounter();
  StartManager(counter);
  TefDialClient pdv = Client();
  ASSERT_TRUE(pdv.Active());
  auto first = pdv.Crt(1000, "101");
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->Get(field::kStatus), "0");
  EXPECT_EQ(first->Get(field::kAmount), "1000");
  EXPECT_EQ(first->Get(field::kAuthorization), "E20018183202511251946abcdefghij");
  EXPECT_EQ(first->Get(field::kCardBrand), "PIX");
  EXPECT_EQ(first->Get(field::kConfirmation), "2");
  EXPECT_FALSE(first->Lines(field::kReceiptLine).empty());
  ASSERT_TRUE(pdv.Cnf(*first).ok());
  auto second = pdv.Crt(2500, "102");
  ASSERT_TRUE(second.ok());
  ASSERT_TRUE(pdv.Ncn(*second).ok());
  ASSERT_TRUE(pdv.Ncn(*second).ok());  // sent twice: undone once
  for (int i = 0; i < 50 && manager_->Snapshot().BySale("sale-2")->phase != Phase::kUndone; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const Exchange x = manager_->Snapshot();
  EXPECT_EQ(Sale(x, "sale-1")->phase, Phase::kConfirmed);
  EXPECT_EQ(Sale(x, "sale-2")->phase, Phase::kUndone);
  EXPECT_EQ(counter.returned["sale-2"], 2500);
  EXPECT_EQ(counter.returned.count("sale-1"), 0u);
}

TEST_F(ManagerTest, DeclineCarriesTheOperatorMessageAndFreesTheCounter) {
  ScriptedCounter& counter = NewCounter();
  counter.next = Result::kRefused;
  StartManager(counter);
  TefDialClient pdv = Client();
  auto declined = pdv.Crt(1000, "201");
  ASSERT_TRUE(declined.ok());
  EXPECT_EQ(declined->Get(field::kStatus), "1");
  EXPECT_EQ(declined->Get(field::kOperatorMessage), "NEGADA: SALDO INSUFICIENTE");
  counter.next = Result::kApproved;
  auto approved = pdv.Crt(1000, "202");
  ASSERT_TRUE(approved.ok());
  EXPECT_EQ(approved->Get(field::kStatus), "0");
}

TEST_F(ManagerTest, ANewCrtWhileOneIsPendingIsRefusedUntilItIsResolved) {
  ScriptedCounter& counter = NewCounter();
  StartManager(counter);
  TefDialClient pdv = Client();
  auto first = pdv.Crt(1000, "301");
  ASSERT_TRUE(first.ok());
  auto refused = pdv.Crt(500, "302");
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->Get(field::kStatus), "1");
  EXPECT_EQ(refused->Get(field::kOperatorMessage), "PENDENTE NSU " + first->Get(field::kNsu) + ": ENVIE CNF OU NCN");
  ASSERT_TRUE(pdv.Cnf(*first).ok());
  auto next = pdv.Crt(500, "302");
  ASSERT_TRUE(next.ok());
  EXPECT_EQ(next->Get(field::kStatus), "0");
}

TEST_F(ManagerTest, CncOfAConfirmedCardSaleAndAdmReprint) {
  ScriptedCounter& counter = NewCounter();
  counter.method = PayMethod::kCard;
  StartManager(counter);
  TefDialClient pdv = Client();
  auto sale = pdv.Crt(4200, "401");
  ASSERT_TRUE(sale.ok());
  EXPECT_EQ(sale->Get(field::kMaskedCard), "411111******1111");
  EXPECT_EQ(sale->Get(field::kCardBrand), "VISA");
  ASSERT_TRUE(pdv.Cnf(*sale).ok());
  auto adm = pdv.Adm();
  ASSERT_TRUE(adm.ok());
  EXPECT_EQ(adm->Get(field::kNsu), sale->Get(field::kNsu));
  auto cancel = pdv.Cnc(*sale);
  ASSERT_TRUE(cancel.ok()) << cancel.status().message();
  EXPECT_EQ(cancel->Get(field::kStatus), "0");
  EXPECT_EQ(cancel->Get({25, 0}), sale->Get(field::kNsu));
  auto again = pdv.Cnc(*sale);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->Get(field::kOperatorMessage), "TRANSACAO JA CANCELADA");
  EXPECT_EQ(counter.returned["sale-1"], 4200);
}

TEST_F(ManagerTest, LowerCaseNamesWithLfEndings) {
  ScriptedCounter& counter = NewCounter();
  StartManager(counter);
  TefDialClient pdv = Client(/*lower=*/true, /*lf=*/true);
  ASSERT_TRUE(pdv.Active());
  auto sale = pdv.Crt(1500, "501");
  ASSERT_TRUE(sale.ok()) << sale.status().message();
  EXPECT_EQ(sale->Get(field::kStatus), "0");
  ASSERT_TRUE(pdv.Cnf(*sale).ok());
  EXPECT_FALSE(fs::exists(root_ / "tef" / "resp" / "IntPos.001"));
}

TEST_F(ManagerTest, ARestartAsksTheCounterAgainAndAnswersTheWaitingPdv) {
  ScriptedCounter& holding = NewCounter();
  holding.hold = true;  // the box went down before the sale ended
  StartManager(holding);
  TefDialClient pdv = Client();
  ASSERT_TRUE(pdv.Active());
  ASSERT_TRUE(pdv.Send("CRT", {{field::kFiscalDocument, "601"}, {field::kAmount, "900"}}).ok());
  for (int i = 0; i < 40 && manager_->Snapshot().sales.empty(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  manager_.reset();
  ScriptedCounter& counter = NewCounter();  // the box's counter after the restart: the sale ends approved
  StartManager(counter);
  auto response = pdv.AwaitResponse(std::chrono::seconds(10));
  ASSERT_TRUE(response.ok()) << response.status().message();
  EXPECT_EQ(response->Get(field::kStatus), "0");
  EXPECT_EQ(manager_->Snapshot().sales.size(), 1u);  // the same CRT, not a second one
}

TEST_F(ManagerTest, AnUnresolvedSaleIsUndoneByPolicyAndShownToTheOperator) {
  ScriptedCounter& counter = NewCounter();
  StartManager(counter, /*unresolved_after_s=*/1, Unresolved::kUndo);
  TefDialClient pdv = Client();
  auto sale = pdv.Crt(700, "701");
  ASSERT_TRUE(sale.ok());
  for (int i = 0; i < 60 && counter.returned["sale-1"] == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(counter.returned["sale-1"], 700);
  EXPECT_EQ(manager_->Snapshot().BySale("sale-1")->resolved_by, "policy-undo");
  std::lock_guard<std::mutex> lock(mu_);
  ASSERT_EQ(notices_.size(), 1u);
  EXPECT_NE(notices_[0].find("never confirmed nor undone"), std::string::npos);
}

}  // namespace
}  // namespace balcao::integration::tefdial
