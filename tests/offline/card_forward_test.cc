// Card store-and-forward end to end against the sandbox: card sales sealed while
// "offline", forwarded over loopback HTTP across restarts (with the purchase answer
// dropped after the bank committed it, so the lookup path runs), outcomes recorded
// (approved and declined), every record destroyed, a provisional receipt and an outcome
// receipt printed per sale as the terminal would (print queue, spooler, file printer),
// the log written to the data dir, and no card number or security code left in any file
// of the data dir (database, -wal, -shm, log, receipts; ASCII, hex text, packed BCD).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "common/log.h"
#include "offline/api_gateway.h"
#include "offline/card_forwarder.h"
#include "offline/print_jobs.h"
#include "offline/sealed_cards.h"
#include "offline/spooler.h"
#include "printer/format.h"
#include "printer/profile.h"
#include "printer/render.h"
#include "printer/templates.h"
#include "sandbox/sandbox.h"
#include "tests/offline/sandbox_http.h"
#include "tests/offline/test_util.h"
#include "tests/testing/status_matchers.h"

namespace balcao::offline {
namespace {

const printer::Merchant kMerchant{"Padaria Balcao",     "Padaria Balcao Ltda", "12345678000195",
                                  "Rua das Flores, 10", "Sao Paulo - SP",      "T-01"};

std::int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The merchant's notice for a sale declined after the customer left.
printer::Document DeclinedNotice(const CardOutcome& o) {
  return printer::ForwardedDeclineNotice({kMerchant, o.decided_at_ms * 1000, o.amount, o.sale_id, o.masked_pan, "",
                                          o.reason, o.outcome == CardOutcomeKind::kExpired});
}

// The box's receipt printer as the terminal drives it: each receipt is rendered to
// ESC/POS, queued durably in the store, and sent by the spooler to a "file:" printer in
// the data dir; the text rendering (the screen's copy) is appended next to it.
class BoxPrinter {
 public:
  BoxPrinter(Store& store, const std::string& dir)
      : jobs_(store), spooler_(jobs_), target_("file:" + dir + "/receipts.escpos"), text_path_(dir + "/receipts.txt") {}

  void Print(const std::string& sale_id, const std::string& kind, const printer::Document& doc) {
    const printer::PrinterProfile* profile = printer::FindProfile("80mm");
    ASSERT_NE(profile, nullptr);
    auto bytes = printer::RenderEscPos(doc, *profile);
    ASSERT_OK(bytes);
    ASSERT_OK(jobs_.Enqueue(sale_id, kind, target_, *bytes, printer::OpensDrawer(doc, *profile)));
    auto pass = spooler_.RunOnce();
    ASSERT_OK(pass);
    EXPECT_EQ(pass->printed, 1) << sale_id;
    std::ofstream(text_path_, std::ios::app) << printer::RenderText(doc, *profile);
    ++printed_;
  }
  int printed() const { return printed_; }

 private:
  PrintJobs jobs_;
  offline::Spooler spooler_;
  std::string target_;
  std::string text_path_;
  int printed_ = 0;
};

TEST(OfflineCards, StoreAndForwardToTheSandboxLeavesNoCardData) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "box");
  const std::string box = (dir.path() / "box").string();
  sandbox::SandboxOptions options;
  options.https = false;
  options.data_dir = dir.File("sandbox");
  options.db = ":memory:";
  auto sandbox = sandbox::Sandbox::Start(options);
  ASSERT_OK(sandbox);
  auto client = DrainerClient((*sandbox)->credentials().credentials_path);
  ASSERT_OK(client);
  ApiGateway bank(*client);
  BankCardAuthorizer authorizer(bank);

  const std::string kek = box + "/kek";
  { std::ofstream(kek) << std::string(64, 'c'); }
  ::chmod(kek.c_str(), 0600);
  StoreAndForwardSettings settings{true, kek, 50'000, 1'000'000};

  // (number, code, approved?) — the sandbox's scenario cards.
  const std::vector<std::tuple<std::string, std::string, bool>> cards = {
      {"4242424242424242", "7391", true},  {"4000000000000002", "8264", false}, {"5555555555554444", "6153", true},
      {"4000000000009995", "9472", false}, {"378282246310005", "2846", true},   {"6011111111111117", "5937", true}};
  std::vector<std::string> secrets;
  std::map<std::string, bool> expected;
  int sale = 0;
  std::map<std::string, std::string> kinds_printed;  // sale id -> outcome receipt printed
  auto log = std::make_unique<testing::ScopedLogFile>(box + "/balcao.log");
  for (int round = 0; round < 3; ++round) {
    ASSERT_OK(logging::SetLogFile(box + "/balcao.log"));    // each start reopens and appends
    auto store = std::move(*Store::Open(box + "/box.db"));  // a restart per round
    auto sealed = std::move(*SealedCards::Open(*store, settings));
    BoxPrinter printer(*store, box);
    for (const auto& [number, code, approve] : cards) {
      CardData card;
      card.number = number;
      card.security_code = code;
      card.expiration = "2099-01";
      card.holder_name = "JOAO \"JJ\" PEREIRA";
      const std::string sale_id = "offline-sale-" + std::to_string(sale++);
      ASSERT_OK(sealed->Accept(sale_id, 1000 + sale, card));
      expected[sale_id] = approve;
      secrets.push_back(number);
      secrets.push_back(code);
      // The customer leaves with a provisional receipt. The terminal hands the template
      // the card number as typed: the printer masks it.
      printer.Print(
          sale_id, "offline",
          printer::OfflineProvisionalReceipt({kMerchant, NowMs() * 1000, 1000 + sale, "card", sale_id, number, ""}));
      // A careless log line: the log's last line of defense masks the number.
      logging::Warn("test", "careless: card " + number + " for " + sale_id);
    }
    // The bank commits the first two purchases of the round and the answers are lost.
    ASSERT_EQ(testing::Simulation("POST", "http://127.0.0.1:" + std::to_string((*sandbox)->port()) + "/sandbox/faults",
                                  R"({"POST /v2/merchant-session/{uuid}/purchase":)"
                                  R"(["commit-then-drop-response","commit-then-drop-response"]})"),
              200);
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    for (int pass = 0; pass < 3 && !sealed->Pending()->empty(); ++pass) ASSERT_OK(sealed->ForwardAll(authorizer, now));
    EXPECT_TRUE(sealed->Pending()->empty()) << "round " << round;
    // Each outcome is printed, then taken off the operator's list.
    auto outcomes = sealed->UnreportedOutcomes();
    ASSERT_OK(outcomes);
    for (const CardOutcome& o : *outcomes) {
      if (o.outcome == CardOutcomeKind::kApproved) {
        printer.Print(o.sale_id, "card",
                      printer::CardSaleReceipts(
                          {kMerchant, o.decided_at_ms * 1000, o.amount, "credit", 1, "", o.masked_pan, o.bank_id, ""}));
      } else {
        printer.Print(o.sale_id, "declined", DeclinedNotice(o));
      }
      EXPECT_FALSE(o.bank_id.empty()) << o.sale_id;
      kinds_printed[o.sale_id] = CardOutcomeName(o.outcome);
      ASSERT_OK(sealed->MarkReported(o.sale_id));
    }
    EXPECT_EQ(printer.printed(), 2 * static_cast<int>(cards.size())) << "round " << round;
  }
  auto store = std::move(*Store::Open(box + "/box.db"));
  auto sealed = std::move(*SealedCards::Open(*store, settings));
  EXPECT_TRUE(sealed->UnreportedOutcomes()->empty());
  ASSERT_EQ(kinds_printed.size(), expected.size());
  for (const auto& [sale_id, approve] : expected)
    EXPECT_EQ(kinds_printed[sale_id], approve ? "approved" : "declined") << sale_id;
  // Both kinds of receipt reached the paper, masked.
  const std::string text = testing::ReadBytes(box + "/receipts.txt");
  EXPECT_NE(text.find("424242******4242"), std::string::npos);
  EXPECT_NE(text.find("VENDA NÃO AUTORIZADA"), std::string::npos);
  EXPECT_NE(testing::ReadBytes(box + "/receipts.escpos").find("******"), std::string::npos);
  // The operator's trail: one outcome record per sale, and the careless lines masked.
  const std::string trail = testing::ReadBytes(box + "/balcao.log");
  std::size_t outcomes_logged = 0;
  for (const char* what : {"approved; card data destroyed", "declined after the customer left; card data destroyed"})
    for (std::size_t at = trail.find(what); at != std::string::npos; at = trail.find(what, at + 1)) ++outcomes_logged;
  EXPECT_EQ(outcomes_logged, expected.size());
  EXPECT_NE(trail.find("careless: card 424242******4242"), std::string::npos);
  // Exactly one purchase per sale at the bank, despite the lost answers.
  auto purchases = client->Call("GET", "/v2/merchant-purchase", api::Query().Add("limit", std::int64_t{100}));
  ASSERT_OK(purchases);
  EXPECT_EQ(nlohmann::json::parse(purchases->body)["purchases"].size(), expected.size());
  // Every file of the data dir while the store is open (db, -wal, -shm), and after.
  for (const char* file : {"box.db", "box.db-wal", "box.db-shm", "balcao.log", "receipts.escpos", "receipts.txt"})
    EXPECT_TRUE(std::filesystem::exists(box + "/" + file)) << file;
  EXPECT_EQ(testing::CountSecretHitsInDir(box, secrets), 0);
  // The control: a secret planted in each kind of file is found (card number and code).
  for (const char* file : {"box.db", "box.db-wal", "box.db-shm", "balcao.log", "receipts.escpos", "receipts.txt"}) {
    testing::ExpectPlantFound(box, file, std::get<0>(cards[0]), secrets);
    testing::ExpectPlantFound(box, file, std::get<1>(cards[0]), secrets);
  }
  sealed.reset();
  store.reset();
  log.reset();
  EXPECT_EQ(testing::CountSecretHitsInDir(box, secrets), 0);
}

}  // namespace
}  // namespace balcao::offline
