// TEF Dial end to end: the real `balcao serve --tef-dial-dir DIR` with its embedded sandbox,
// driven by the repository's TEF Dial client (tefdial_client.h) as a PDV drives a payment
// manager; the money checked at the sandbox's bank, the exchange checked in the service's log.
// The power-cut tests end the service at each step of the exchange (BALCAO_TEF_DIAL_CRASH_AT),
// cut the PDV too, start both again (the PDV's start-up recovery sends NCN for its unfinished
// sale) and compare the final state with an undisturbed run's.
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <thread>

#include "api/client.h"
#include "common/time.h"
#include "integration/tefdial/exchange_log.h"
#include "tests/integration/tefdial_client.h"
#include "tests/terminal/serve_fixture.h"
#include "tests/testing/status_matchers.h"

namespace balcao::tefdial_testing {
namespace {

namespace fs = std::filesystem;
namespace tef = integration::tefdial;
namespace field = integration::tefdial::field;
using terminal::testing::FreshDir;
using terminal::testing::Json;
using terminal::testing::ServeProcess;
using terminal::testing::WithCardCustomer;

class TefDialServe : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = FreshDir("tefdial-serve");
    data_ = root_ / "data";
    tef_ = root_ / "tef";
  }
  void TearDown() override {
    serve_.Kill();
    fs::remove_all(root_);
  }
  void Start(const std::string& method = "pix", std::map<std::string, std::string> env = {},
             std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"--tef-dial-dir", tef_.string(),       "--tef-dial-method",
                                     method,           "--sandbox-autopay", "1"};
    args.insert(args.end(), more.begin(), more.end());
    serve_.Start(data_, args, env);
  }
  TefDialClient Pdv(bool lower = true, bool lf = true) {
    return TefDialClient(ClientOptions{tef_, root_ / "pdv.state", lower, lf});
  }
  // The bank's view through its API, signed with the sandbox's credentials.
  Json Bank(const std::string& path, const api::Query& query = {}) {
    auto client = api::Client::FromEnvironment((data_ / "sandbox" / "credentials.json").string());
    EXPECT_OK(client);
    if (!client.ok()) return Json();
    auto answer = client->Call("GET", path, query);
    EXPECT_OK(answer) << path << ": " << answer.status().message();
    return answer.ok() ? Json::parse(answer->body, nullptr, false) : Json();
  }
  // How many times the deposit that paid the box's sale `sale_id` was reversed at the bank.
  int Reversals(const std::string& sale_id) {
    const Json view = serve_.Get("/api/sales/" + sale_id).json;
    std::string deposit;
    for (const Json& id : view.value("bank_ids", Json::array()))
      if (id.get<std::string>().rfind("deposit/", 0) == 0) deposit = id.get<std::string>().substr(8);
    EXPECT_FALSE(deposit.empty()) << view.dump();
    const Json logs = Bank("/v2/deposit/log", api::Query().Add("depositIds", deposit).Add("types", "reversed"));
    return logs.contains("logs") ? static_cast<int>(logs["logs"].size()) : -1;
  }
  tef::Exchange Journal() {
    auto exchange = tef::ReadExchangeLog((data_ / "tefdial.jsonl").string());
    EXPECT_OK(exchange);
    return exchange.ok() ? *exchange : tef::Exchange{};
  }
  // Waits until no CRT runs and no undo or cancellation is in flight in the journal; with
  // `resolved`, also until no approved sale waits for the PDV's CNF or NCN. The PDV's CNF and NCN
  // return once their status file is written, before the manager's thread has read them (the
  // status comes first by design): a sale the PDV has just resolved is still pending for a moment.
  enum class Until { kAnswered, kResolved };
  tef::Exchange Settled(Until until_state = Until::kAnswered, std::chrono::seconds wait = std::chrono::seconds(30)) {
    const auto until = std::chrono::steady_clock::now() + wait;
    for (;;) {
      tef::Exchange x = Journal();
      // A request still in req/ is not taken yet: a service restarted after a cut at
      // request-read reads it again a moment after it listens, and its sale is not journaled.
      bool busy = RequestWaiting();
      for (const tef::TefSale& sale : x.sales)
        busy = busy || sale.phase == tef::Phase::kRunning || sale.phase == tef::Phase::kUndoing ||
               sale.phase == tef::Phase::kCancelling ||
               (until_state == Until::kResolved && sale.phase == tef::Phase::kPending) ||
               (sale.phase != tef::Phase::kDeclined && !x.answers.count(sale.key));
      if (!busy || std::chrono::steady_clock::now() > until) return x;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
  bool RequestWaiting() const {
    std::error_code ec;
    for (const auto& file : fs::directory_iterator(tef_ / "req", ec)) {
      const std::string name = file.path().filename().string();
      if (name == "IntPos.001" || name == "intpos.001") return true;
    }
    return false;
  }
  std::string WaitForStatus(const std::string& sale_id, const std::string& status) {
    return serve_.WaitFor(sale_id, status).value("status", "");
  }

  fs::path root_, data_, tef_;
  ServeProcess serve_;
};

TEST_F(TefDialServe, PixSaleConfirmedThenASecondUndoneWithNcnReturnsTheMoneyOnce) {
  Start("pix");
  TefDialClient pdv = Pdv();  // lower-case names, LF endings: ACBr's TEF Dial defaults on Linux
  ASSERT_TRUE(pdv.Active());
  auto kept = pdv.Crt(1000, "1001");
  ASSERT_OK(kept);
  ASSERT_EQ(kept->Get(field::kStatus), "0") << tef::Write(*kept);
  EXPECT_EQ(kept->Get(field::kAmount), "1000");
  EXPECT_EQ(kept->Get(field::kCardBrand), "PIX");
  EXPECT_FALSE(kept->Get(field::kAuthorization).empty()) << tef::Write(*kept);
  EXPECT_FALSE(kept->Lines(field::kReceiptLine).empty());
  ASSERT_OK(pdv.Cnf(*kept));
  EXPECT_TRUE(fs::exists(tef_ / "resp") && fs::is_empty(tef_ / "resp"));  // lower-case answers, all read

  auto undone = pdv.Crt(2000, "1002");
  ASSERT_OK(undone);
  ASSERT_EQ(undone->Get(field::kStatus), "0");
  ASSERT_OK(pdv.Ncn(*undone));
  ASSERT_OK(pdv.Ncn(*undone));  // the PDV sent it twice: undone once
  EXPECT_EQ(WaitForStatus(undone->Get(field::kControl), "refunded"), "refunded");
  const tef::Exchange x = Settled(Until::kResolved);
  EXPECT_EQ(x.BySale(kept->Get(field::kControl))->phase, tef::Phase::kConfirmed);
  EXPECT_EQ(x.BySale(undone->Get(field::kControl))->phase, tef::Phase::kUndone);
  EXPECT_EQ(Reversals(undone->Get(field::kControl)), 1);
  EXPECT_EQ(Reversals(kept->Get(field::kControl)), 0);
  EXPECT_EQ(serve_.Get("/api/sales/" + kept->Get(field::kControl)).json.value("status", ""), "paid");

  // The night counts them apart, per fiscal document (a dry run beside the service).
  const std::string day = FormatDate(SystemClock::Instance().Now() - 3 * 3600 * kMicrosPerSecond);
  const fs::path out = root_ / "settle.json";
  const std::string command = "BALCAO_CREDENTIALS='" + (data_ / "sandbox" / "credentials.json").string() + "' '" +
                              BALCAO_CLI + "' settle --day " + day + " --dry-run --json --db '" +
                              (data_ / "balcao.db").string() + "' > '" + out.string() + "' 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(out);
  const Json report =
      Json::parse(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), nullptr, false);
  ASSERT_TRUE(report.contains("tef_dial")) << report.dump();
  const Json& documents = report["tef_dial"]["documents"];
  ASSERT_EQ(documents.size(), 2u) << report["tef_dial"].dump();
  EXPECT_EQ(documents[0]["fiscal_document"], "1001");
  EXPECT_EQ(documents[0]["confirmed"], 1);
  EXPECT_EQ(documents[0]["confirmed_amount"], 1000);
  EXPECT_EQ(documents[1]["fiscal_document"], "1002");
  EXPECT_EQ(documents[1]["undone"], 1);
  EXPECT_EQ(documents[1]["undone_amount"], 2000);
  EXPECT_EQ(report["tef_dial"]["total"]["pending"], 0);
}

TEST_F(TefDialServe, ASaleThePdvNeverResolvesIsUndoneByPolicyAndFlaggedOnTheTouchscreen) {
  const fs::path config = root_ / "balcao.conf";
  std::ofstream(config) << R"({"tef_dial": {"unresolved": "undo", "unresolved_after_s": 2}})";
  Start("pix", {}, {"--config", config.string()});
  TefDialClient pdv = Pdv();
  auto sale = pdv.Crt(1200, "4001");
  ASSERT_OK(sale);
  ASSERT_EQ(sale->Get(field::kStatus), "0");
  const std::string id = sale->Get(field::kControl);  // and the PDV goes silent
  EXPECT_EQ(WaitForStatus(id, "refunded"), "refunded");
  const Json view = serve_.Get("/api/sales/" + id).json;
  ASSERT_TRUE(view.contains("flags")) << view.dump();
  EXPECT_NE(view["flags"].dump().find("never confirmed nor undone by the PDV"), std::string::npos) << view.dump();
  const tef::Exchange x = Settled();
  EXPECT_EQ(x.BySale(id)->phase, tef::Phase::kUndone);
  EXPECT_EQ(x.BySale(id)->resolved_by, "policy-undo");
  EXPECT_EQ(Reversals(id), 1);
  auto late = pdv.Crt(800, "4002");  // the counter is free again
  ASSERT_OK(late);
  EXPECT_EQ(late->Get(field::kStatus), "0");
}

// The card is entered on the box's touchscreen, as a cashier would.
std::string SaleWaitingForCard(ServeProcess& serve) {
  for (int i = 0; i < 600; ++i) {  // up to a minute: a loaded CI machine opens card sessions slowly
    const Json day = serve.Get("/api/sales").json;
    if (day.contains("sales"))
      for (const Json& sale : day["sales"])
        if (sale.value("status", "") == "enter-card") return sale.value("id", "");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return "";
}

TEST_F(TefDialServe, CardDeclinedWithItsMessageThenApprovedConfirmedAndCancelledWithCnc) {
  Start("card");
  TefDialClient pdv = Pdv(/*lower=*/false, /*lf=*/false);
  ASSERT_TRUE(pdv.Active());
  ASSERT_OK(pdv.Send("CRT", {{field::kFiscalDocument, "2001"}, {field::kAmount, "3000"}}));
  std::string sale = SaleWaitingForCard(serve_);
  ASSERT_FALSE(sale.empty());
  auto card = [&](const std::string& number) {
    return serve_.Post(
        "/api/sales/" + sale + "/card",
        WithCardCustomer(
            {{"number", number}, {"expiry", "12/30"}, {"security_code", "123"}, {"holder_name", "CLIENTE TESTE"}}));
  };
  EXPECT_EQ(card("4000000000009995").status, 200);  // insufficient funds
  auto declined = pdv.AwaitResponse(std::chrono::seconds(30));
  ASSERT_OK(declined);
  EXPECT_NE(declined->Get(field::kStatus), "0");
  EXPECT_FALSE(declined->Get(field::kOperatorMessage).empty());

  ASSERT_TRUE(pdv.Active());
  ASSERT_OK(pdv.Send("CRT", {{field::kFiscalDocument, "2002"}, {field::kAmount, "3000"}}));
  sale = SaleWaitingForCard(serve_);
  ASSERT_FALSE(sale.empty());
  EXPECT_EQ(card("5448280000000007").status, 200);
  auto approved = pdv.AwaitResponse(std::chrono::seconds(30));
  ASSERT_OK(approved);
  ASSERT_EQ(approved->Get(field::kStatus), "0") << tef::Write(*approved);
  EXPECT_EQ(approved->Get(field::kMaskedCard).substr(0, 6), "544828");
  EXPECT_EQ(approved->Get(field::kCardBrand), "MASTERCARD");
  EXPECT_EQ(approved->Get(field::kControl), sale);
  ASSERT_OK(pdv.Cnf(*approved));

  auto cancelled = pdv.Cnc(*approved);
  ASSERT_OK(cancelled);
  EXPECT_EQ(cancelled->Get(field::kStatus), "0") << tef::Write(*cancelled);
  EXPECT_EQ(WaitForStatus(sale, "refunded"), "refunded");
  EXPECT_EQ(Journal().BySale(sale)->phase, tef::Phase::kCancelled);
}

// --- power cuts ---

struct Cut {
  const char* step;
  bool pdv_confirms;      // the PDV's CNF went out before the cut: the sale is kept
  std::size_t sales = 1;  // 0: the request never reached the box's journal, and the PDV took it back
};

// The test's parameter in gtest's output: the step and what the PDV did (not the struct's bytes).
void PrintTo(const Cut& cut, std::ostream* out) {
  *out << "cut at " << cut.step << (cut.pdv_confirms ? ", the PDV confirmed" : "") << ", " << cut.sales << " sale(s)";
}

class TefDialPowerCut : public TefDialServe, public ::testing::WithParamInterface<Cut> {};

TEST_P(TefDialPowerCut, EndsAsAnUndisturbedRunWouldAfterBothRestart) {
  const Cut cut = GetParam();
  Start("pix", {{"BALCAO_TEF_DIAL_CRASH_AT", cut.step}});
  {
    TefDialClient pdv = Pdv();
    pdv.Active();
    auto sale = pdv.Crt(1500, "3001", std::chrono::seconds(8));
    if (sale.ok() && sale->Get(field::kStatus) == "0") {
      if (std::string(cut.step) == "cnf-read") {
        ASSERT_OK(pdv.Cnf(*sale));
      }
      if (std::string(cut.step) == "undo-sent") {
        ASSERT_OK(pdv.Ncn(*sale));
      }
    }
    // The service ended itself at the step (fault injection): its port stops answering.
    bool ended = false;
    for (int i = 0; i < 100 && !ended; ++i) {
      ended = serve_.Get("/healthz").status == 0;
      if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_TRUE(ended) << "the service did not stop at " << cut.step;
  }  // the PDV loses power too
  serve_.Kill();
  Start("pix");
  Settled();                  // the resumed CRT answered: the PDV's recovery may find its response
  TefDialClient pdv = Pdv();  // the PDV starts again: its recovery
  auto recovered = pdv.Recover();
  ASSERT_OK(recovered);
  const tef::Exchange x = Settled(Until::kResolved);
  ASSERT_EQ(x.sales.size(), cut.sales) << cut.step;
  for (const tef::TefSale& sale : x.sales) {
    EXPECT_NE(sale.phase, tef::Phase::kRunning) << cut.step;
    EXPECT_NE(sale.phase, tef::Phase::kPending) << cut.step << ": left pending without a rule";
    if (sale.phase == tef::Phase::kConfirmed) {
      EXPECT_TRUE(cut.pdv_confirms) << cut.step;
      EXPECT_EQ(Reversals(sale.sale_id), 0) << cut.step;
      EXPECT_EQ(serve_.Get("/api/sales/" + sale.sale_id).json.value("status", ""), "paid");
    } else if (sale.phase == tef::Phase::kUndone) {
      EXPECT_FALSE(cut.pdv_confirms) << cut.step;
      EXPECT_EQ(WaitForStatus(sale.sale_id, "refunded"), "refunded") << cut.step;
      EXPECT_EQ(Reversals(sale.sale_id), 1) << cut.step << ": the money went back once";
    } else {
      ADD_FAILURE() << cut.step << ": ended " << tef::PhaseName(sale.phase);
    }
  }
  // No answer left for the PDV that contradicts the journal.
  for (const auto& file : fs::directory_iterator(tef_ / "resp")) {
    std::ifstream in(file.path());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto answer = tef::Parse(text);
    ASSERT_OK(answer);
    if (answer->Get(field::kCommand) == "CRT" && answer->Get(field::kStatus) == "0") {
      const tef::TefSale* sale = x.BySale(answer->Get(field::kControl));
      ASSERT_NE(sale, nullptr);
      EXPECT_NE(sale->phase, tef::Phase::kRunning);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EachStep, TefDialPowerCut,
                         ::testing::Values(Cut{"request-read", false}, Cut{"status-written", false},
                                           Cut{"crt-journaled", false}, Cut{"sale-approved", false},
                                           Cut{"response-written", false}, Cut{"cnf-read", true},
                                           Cut{"undo-sent", false}),
                         [](const auto& info) {
                           std::string name = info.param.step;
                           for (char& c : name)
                             if (c == '-') c = '_';
                           return name;
                         });

}  // namespace
}  // namespace balcao::tefdial_testing
