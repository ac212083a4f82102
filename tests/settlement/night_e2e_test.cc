// The night an accountant trusts (docs/settlement.md, "Every centavo"), with `balcao settle`
// itself on a lane's store file and the in-process sandbox:
// - the clean day: exit 0 for the lane and for `--store`, difference R$ 0,00;
// - changes made behind the box's back with the account's credentials (a QR with the lane's
//   tags and no sale, paid; one of the box's Pix deposits lowered; an invoice with no tags):
//   each flagged, exit 1 for the lane, `--store` and `--account`, and the one line says by how
//   much and why;
// - a day settled again after a journal row was changed: the re-run verifies the chain again,
//   says it is broken (exit 1) and never prints the record's "holds";
// - a day settled again reads the bank again: nothing changed (exit 0, says so), then a deposit
//   lowered and a QR with the lane's tags paid behind the box's back since the record: each
//   change said against the record (exit 1), the record kept.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "checkout/types.h"
#include "tests/settlement/settle_fixture.h"

namespace balcao::settlement::e2e {
namespace {

constexpr const char* kStore = "loja-n";
constexpr const char* kTerminal = "caixa-1";

struct CliRun {
  int code = -1;
  std::string out;
};
CliRun Shell(const std::string& cmd) {
  CliRun run;
  FILE* pipe = ::popen((cmd + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.out.append(buffer, n);
  const int status = ::pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

class NightE2E : public SettleE2E {
 protected:
  void SetUp() override {
    SettleE2E::SetUp();
    settings_.lane = checkout::LaneRoot(kStore, kTerminal);
    config_ = db_ + ".conf";
    std::ofstream(config_) << json{{"store_id", kStore},
                                   {"terminal_id", kTerminal},
                                   {"bank", {{"credentials", sandbox().credentials().credentials_path}}}}
                                  .dump();
  }
  void TearDown() override {
    SettleE2E::TearDown();
    std::filesystem::remove(config_);
  }
  CliRun Settle(const std::string& args) {
    const std::string lang = args.find("--lang") == std::string::npos ? " --lang en-US" : "";
    return Shell("'" + std::string(BALCAO_CLI) + "' settle --db '" + db_ + "' --config '" + config_ + "' --day " +
                 Today() + lang + " " + args);
  }
  std::string config_;
};

TEST_F(NightE2E, TheCleanDayExitsZeroWithNoDifference) {
  using namespace checkout;
  ASSERT_EQ(StateOf(Paid(NewSaleId(), {.method = Method::kPix, .amount = 1250})), "Paid");
  ASSERT_EQ(StateOf(Paid(NewSaleId(), {.method = Method::kCard, .amount = 4000})), "Paid");
  AdvanceSandbox(31);  // the card purchase is captured and credited
  const CliRun lane = Settle("");
  EXPECT_EQ(lane.code, 0) << lane.out;
  EXPECT_NE(lane.out.find("Bank R$ 52,50, journal R$ 52,50, difference R$ 0,00; 0 item(s) to look at"),
            std::string::npos)
      << lane.out;
  const CliRun store = Settle(std::string("--store ") + kStore);
  EXPECT_EQ(store.code, 0) << store.out;
  EXPECT_NE(store.out.find("RECONCILED"), std::string::npos) << store.out;
  EXPECT_NE(store.out.find("lane caixa-1's night on this box: reconciled"), std::string::npos) << store.out;
}

TEST_F(NightE2E, ChangesBehindTheBoxsBackAreEachFlagged) {
  using namespace checkout;
  const Sale lowered = Paid(NewSaleId(), {.method = Method::kPix, .amount = 1250});
  ASSERT_EQ(StateOf(lowered), "Paid");
  ASSERT_EQ(StateOf(Paid(NewSaleId(), {.method = Method::kPix, .amount = 2000})), "Paid");
  // Behind the box's back: the deposit lowered from R$ 12,50 to R$ 9,50 at the bank...
  ASSERT_EQ(api().Patch("/v2/deposit/" + lowered.payment_line()->ref.id, {{"amount", 950}}).status, 200);
  // ...an R$ 18,00 QR with the store's and the lane's tags and no sale, paid...
  const auto qr = api().Post(
      "/v2/dynamic-brcode",
      {{"brcodes", {{{"amount", 1800}, {"tags", {std::string("store/") + kStore, LaneRoot(kStore, kTerminal)}}}}}});
  ASSERT_EQ(qr.status, 200) << qr.body;
  ASSERT_EQ(api()
                .Sim("/sandbox/dynamic-brcode/pay", {{"uuid", qr.json["brcodes"][0]["uuid"]}, {"name", "Joao Silva"}})
                .status,
            200);
  // ...and an R$ 77,70 invoice with no tags, left open.
  const auto invoice = api().Post(
      "/v2/invoice", {{"invoices", {{{"amount", 7770}, {"name", "Cliente Avulso"}, {"taxId", "337.451.076-08"}}}}});
  ASSERT_EQ(invoice.status, 200) << invoice.body;

  // The owner's language (the box's default): the same line in pt-BR, the accountant's words.
  const CliRun pt = Settle("--dry-run --lang pt-BR");
  EXPECT_EQ(pt.code, 1) << pt.out;
  EXPECT_NE(pt.out.find("Banco R$ 47,50, diário do caixa R$ 32,50, diferença R$ 15,00, explicada por 1 sem venda no "
                        "diário R$ 18,00; 1 divergência -R$ 3,00"),
            std::string::npos)
      << pt.out;
  EXPECT_NE(pt.out.find("estornado no banco: R$ 3,00"), std::string::npos) << pt.out;

  const CliRun lane = Settle("--json");
  EXPECT_EQ(lane.code, 1) << lane.out;
  const json doc = json::parse(lane.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << lane.out;
  EXPECT_EQ(SaleIn(doc, lowered.id)["class"], "discrepancy");
  ASSERT_EQ(doc["orphans"].size(), 1u) << lane.out;
  EXPECT_EQ(doc["orphans"][0]["kind"], "deposit");
  EXPECT_EQ(doc["orphans"][0]["amount"], 1800);
  EXPECT_NE(doc["orphans"][0]["party"].get<std::string>().find("Joao Silva"), std::string::npos) << lane.out;
  const json& d = doc["difference"];
  EXPECT_EQ(d["journal"], 3250);
  EXPECT_EQ(d["bank"], 950 + 2000 + 1800);
  EXPECT_EQ(d["difference"], 1500);
  ASSERT_EQ(d["explained_by"].size(), 2u) << d.dump();
  EXPECT_EQ(d["explained_by"][0]["what"], "orphan");
  EXPECT_EQ(d["explained_by"][0]["amount"], 1800);
  EXPECT_EQ(d["explained_by"][1]["what"], "discrepancy");
  EXPECT_EQ(d["explained_by"][1]["amount"], -300);
  EXPECT_EQ(d["to_look_at"], doc["attention"]);

  // The stored record's text, read back: the one line at its top.
  const CliRun again = Settle("");
  EXPECT_EQ(again.code, 1) << again.out;
  EXPECT_NE(again.out.find("Bank R$ 47,50, journal R$ 32,50, difference R$ 15,00, explained by 1 orphan R$ 18,00; "
                           "1 discrepancy -R$ 3,00"),
            std::string::npos)
      << again.out;

  const CliRun store = Settle(std::string("--store ") + kStore);
  EXPECT_EQ(store.code, 1) << store.out;
  EXPECT_NE(store.out.find("deposit"), std::string::npos) << store.out;
  EXPECT_NE(store.out.find("the lane's tags, no sale of the lane"), std::string::npos) << store.out;
  EXPECT_NE(store.out.find("! lane caixa-1's night on this box"), std::string::npos) << store.out;

  const CliRun account = Settle("--account");
  EXPECT_EQ(account.code, 1) << account.out;
  EXPECT_NE(account.out.find("! Entities no lane claims (1)"), std::string::npos) << account.out;
  EXPECT_NE(account.out.find("R$ 77,70"), std::string::npos) << account.out;
  EXPECT_NE(account.out.find("customer Cliente Avulso"), std::string::npos) << account.out;
}

TEST_F(NightE2E, ARerunAfterATamperedJournalSaysBroken) {
  using namespace checkout;
  const std::string id = NewSaleId();
  ASSERT_EQ(StateOf(Paid(id, {.method = Method::kPix, .amount = 2990})), "Paid");
  const CliRun first = Settle("");
  ASSERT_EQ(first.code, 0) << first.out;
  EXPECT_NE(first.out.find("Journal chain holds"), std::string::npos) << first.out;

  const CliRun changed =
      Shell("sqlite3 '" + db_ + "' \"UPDATE sale_journal SET created_at = created_at + 1 WHERE sale_id = '" + id +
            "' AND seq = 2\"");
  ASSERT_EQ(changed.code, 0) << changed.out;
  const CliRun again = Settle("");
  EXPECT_EQ(again.code, 1) << again.out;
  EXPECT_NE(again.out.find("THE JOURNAL CHAIN IS BROKEN NOW: content changed at sale " + id + " seq 2"),
            std::string::npos)
      << again.out;
  EXPECT_EQ(again.out.find("Journal chain holds"), std::string::npos) << again.out;
  const CliRun as_json = Settle("--json");
  EXPECT_EQ(as_json.code, 1) << as_json.out;
  EXPECT_EQ(json::parse(as_json.out, nullptr, false)["recheck"]["verified"], false) << as_json.out;
}

TEST_F(NightE2E, ARerunReadsTheBankAgainAndSaysWhatChangedSinceTheRecord) {
  using namespace checkout;
  const Sale sale = Paid(NewSaleId(), {.method = Method::kPix, .amount = 1250});
  ASSERT_EQ(StateOf(sale), "Paid");
  const CliRun first = Settle("");
  ASSERT_EQ(first.code, 0) << first.out;
  const CliRun same = Settle("");
  EXPECT_EQ(same.code, 0) << same.out;
  EXPECT_NE(same.out.find("The bank read again: bank R$ 12,50 now, R$ 12,50 in the record; nothing changed since the "
                          "record"),
            std::string::npos)
      << same.out;

  // Behind the box's back, after the night: the deposit lowered, and a QR with the lane's tags paid.
  ASSERT_EQ(api().Patch("/v2/deposit/" + sale.payment_line()->ref.id, {{"amount", 950}}).status, 200);
  const auto qr = api().Post(
      "/v2/dynamic-brcode",
      {{"brcodes", {{{"amount", 1800}, {"tags", {std::string("store/") + kStore, LaneRoot(kStore, kTerminal)}}}}}});
  ASSERT_EQ(qr.status, 200) << qr.body;
  ASSERT_EQ(api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", qr.json["brcodes"][0]["uuid"]}}).status, 200);

  const CliRun again = Settle("");
  EXPECT_EQ(again.code, 1) << again.out;
  EXPECT_NE(again.out.find("The bank read again: bank R$ 27,50 now, R$ 12,50 in the record; 2 change(s) since the "
                           "record:"),
            std::string::npos)
      << again.out;
  EXPECT_NE(again.out.find("! sale " + sale.id +
                           ": matched -> discrepancy; the bank holds R$ 9,50 (recorded R$ 12,50), the journal R$ "
                           "12,50 (recorded R$ 12,50)"),
            std::string::npos)
      << again.out;
  EXPECT_NE(again.out.find("! new orphan: "), std::string::npos) << again.out;
  const CliRun as_json = Settle("--json");
  EXPECT_EQ(as_json.code, 1) << as_json.out;
  const json recheck = json::parse(as_json.out, nullptr, false)["recheck"];
  EXPECT_EQ(recheck["bank"]["bank_now"], 950 + 1800) << as_json.out;
  EXPECT_EQ(recheck["bank"]["changes"].size(), 2u) << as_json.out;
  const CliRun pt = Settle("--lang pt-BR");
  EXPECT_NE(pt.out.find("Banco lido de novo: banco R$ 27,50 agora, R$ 12,50 no registro; 2 mudança(s)"),
            std::string::npos)
      << pt.out;
}

}  // namespace
}  // namespace balcao::settlement::e2e
