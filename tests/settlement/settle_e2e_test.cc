// The nightly settlement end to end: a day of sales rung up with the checkout driver against
// the in-process sandbox (real signed HTTP on loopback, a real SQLite store), the bank changed
// behind the box's back, then the settlement: its report, the pay-later sale it closed
// through the journal, the late Pix it flagged, the record it kept, its idempotence, and the
// end-of-day summary printed to a file and decoded back; two nights; a guest run; the
// store-and-forward outcomes. (`balcao settle` itself: cli_test.cc.)
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "checkout/journal_codec.h"
#include "offline/api_gateway.h"
#include "offline/card_forwarder.h"
#include "offline/outbox.h"
#include "offline/sealed_cards.h"
#include "printer/interpreter.h"
#include "printer/profile.h"
#include "tests/settlement/settle_fixture.h"

namespace balcao::settlement::e2e {
namespace {

TEST_F(SettleE2E, ADayOfSalesIsReconciledClosedRecordedAndPrinted) {
  using namespace checkout;
  const std::string card = NewSaleId(), refunded = NewSaleId(), pix = NewSaleId(), changed = NewSaleId();
  const std::string later = NewSaleId(), voided = NewSaleId();
  EXPECT_EQ(StateOf(Paid(card, {.method = Method::kCard, .amount = 5000})), "Paid");
  EXPECT_EQ(StateOf(Paid(refunded, {.method = Method::kCard, .amount = 2000, .reverse = 2000})), "Refunded");
  EXPECT_EQ(StateOf(Paid(pix, {.method = Method::kPix, .amount = 3000})), "Paid");
  const Sale changed_sale = Paid(changed, {.method = Method::kPix, .amount = 2500});
  ASSERT_EQ(StateOf(changed_sale), "Paid");

  // Pay later: the customer leaves with the invoice and pays it at the bank that night.
  const std::string invoice_id = PayLater(later, 4000);
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoice_id}}).status, 200);

  // A late Pix: the QR is paid after the cashier voided the sale; the box never polls again.
  const Sale pix_shown = PixShown(voided, 1500);
  ASSERT_TRUE(std::holds_alternative<ShowingPix>(pix_shown.state));
  const std::string late_uuid = std::get<ShowingPix>(pix_shown.state).brcode.uuid;
  EXPECT_EQ(StateOf(Fed(voided, Cancel{"op-7", "customer left", Now()})), "Voided");
  ASSERT_EQ(api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", late_uuid}}).status, 200);

  // Behind the box's back: 500 of a paid Pix returned from the bank's dashboard, and an
  // invoice tagged for a sale this box never rang up.
  const std::string changed_deposit = changed_sale.payment_line()->ref.id;
  ASSERT_EQ(api().Patch("/v2/deposit/" + changed_deposit, {{"amount", 2000}}).status, 200);
  const auto ghost = api().Post(
      "/v2/invoice",
      {{"invoices",
        {{{"amount", 777}, {"name", "Ghost Buyer"}, {"taxId", "337.451.076-08"}, {"tags", {"sale/ghost-1"}}}}}});
  ASSERT_EQ(ghost.status, 200) << ghost.body;
  // An invoice create still waiting in the outbox: money at risk.
  offline::Outbox outbox(*store_);
  ASSERT_TRUE(outbox
                  .Enqueue({"sale/queued-1/a1", "invoice.create", "POST", "/v2/invoice", R"({"invoices":[]})",
                            offline::LookupBy::kTags, "", "", "queued-1", 999})
                  .ok());
  AdvanceSandbox(31);  // the bank captures the approved card purchases

  // A dry run shows the report and writes nothing.
  auto dry = settlement::Settle(*store_, Bank(), clock_, {Today(), /*dry_run=*/true});
  ASSERT_TRUE(dry.ok()) << dry.status().ToString();
  EXPECT_FALSE(dry->already_settled);
  EXPECT_EQ(StateOf(Replayed(later)), "PayLater");

  auto settled = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  EXPECT_FALSE(settled->already_settled);
  EXPECT_FALSE(settled->reconciled) << settled->text;
  const json report = json::parse(settled->json);
  EXPECT_EQ(report["status"], "attention");
  // The five lists of the day (one page each here) and the balance; nothing by sale.
  if (PastTheDaysFirstMinutes()) {
    EXPECT_EQ(report["bankCalls"], 6) << settled->text;
  }

  EXPECT_EQ(SaleIn(report, card)["class"], "matched") << settled->text;
  EXPECT_EQ(SaleIn(report, card)["bank_net"], 5000);
  EXPECT_EQ(SaleIn(report, refunded)["class"], "refunded") << settled->text;
  EXPECT_EQ(SaleIn(report, pix)["class"], "matched") << settled->text;
  EXPECT_EQ(SaleIn(report, later)["class"], "pay-later-closed") << settled->text;
  EXPECT_EQ(SaleIn(report, later)["collected"], 4000);
  EXPECT_EQ(SaleIn(report, voided)["class"], "late-money") << settled->text;
  EXPECT_EQ(SaleIn(report, voided)["late_outstanding"], 1500);
  EXPECT_EQ(SaleIn(report, changed)["class"], "discrepancy") << settled->text;
  EXPECT_EQ(SaleIn(report, changed)["bank_net"], 2000);
  EXPECT_EQ(SaleIn(report, changed)["collected"], 2500);
  ASSERT_EQ(report["orphans"].size(), 1u) << settled->text;
  EXPECT_EQ(report["orphans"][0]["sale_id"], "ghost-1");
  ASSERT_EQ(report["outbox"].size(), 1u);
  EXPECT_EQ(report["outbox_at_risk"], 999);
  EXPECT_EQ(report["attention"], 4) << settled->text;  // discrepancy, late money, orphan, outbox

  EXPECT_EQ(TotalOf(report, "credit")["count"], 2);
  EXPECT_EQ(TotalOf(report, "credit")["gross"], 7000);
  EXPECT_EQ(TotalOf(report, "credit")["refunds"], 2000);
  EXPECT_EQ(TotalOf(report, "pix")["gross"], 5500);
  EXPECT_EQ(TotalOf(report, "invoice")["gross"], 4000);
  EXPECT_EQ(report["total"]["count"], 5);
  EXPECT_EQ(report["total"]["net"], 14500);
  // The day's ledger: every movement is one of this box's sales (the sandbox was reset).
  EXPECT_EQ(report["ledger"]["net"], 5000 + 3000 + 2500 - 500 + 4000 + 1500);
  EXPECT_EQ(report["ledger"]["other_net"], 0);

  // The journal is the one truth: the pay-later sale is closed in it, the late Pix flagged.
  const Sale closed = Replayed(later);
  EXPECT_EQ(StateOf(closed), "Paid");
  EXPECT_EQ(closed.collected(), 4000);
  EXPECT_EQ(journal_->Sale(later)->final_state, "Paid");
  EXPECT_EQ(Replayed(voided).late_outstanding(), 1500);

  // Settling the same day again reads the record back: same report, nothing done twice.
  const std::size_t journaled = journal_->Read(later)->size() + journal_->Read(voided)->size();
  auto again = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(again->already_settled);
  EXPECT_EQ(again->json, settled->json);
  EXPECT_EQ(again->text, settled->text);
  EXPECT_EQ(journal_->Read(later)->size() + journal_->Read(voided)->size(), journaled);

  // The end-of-day summary, printed to a file and decoded back.
  const std::string out = db_ + ".summary.bin";
  ASSERT_TRUE(PrintDaySummary(settled->json, "file:" + out, {"PADARIA BALCAO"}, Now()).ok());
  std::ifstream in(out, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::filesystem::remove(out);
  const auto pages = printer::Interpret(bytes, printer::InterpreterOptions::ForProfile(*printer::FindProfile("80mm")));
  ASSERT_FALSE(pages.empty());
  const std::string text = pages[0].Text();
  EXPECT_NE(text.find("FECHAMENTO DO DIA"), std::string::npos) << text;
  EXPECT_NE(text.find("Crédito (2)"), std::string::npos) << text;
  EXPECT_NE(text.find("R$ 70,00"), std::string::npos) << text;
  EXPECT_NE(text.find("Pix (2)"), std::string::npos) << text;
  EXPECT_NE(text.find("R$ 55,00"), std::string::npos) << text;
  EXPECT_NE(text.find("Fatura (1)"), std::string::npos) << text;
  EXPECT_NE(text.find("R$ 165,00"), std::string::npos) << text;
  EXPECT_NE(text.find("R$ 145,00"), std::string::npos) << text;
  EXPECT_NE(text.find("1 venda(s) pendente(s)"), std::string::npos) << text;
}

// A pay-later sale of yesterday, still unpaid when yesterday was settled, is paid at the bank
// today: tonight's settlement closes it and counts it (once); yesterday's card sale is not
// looked at again.
TEST_F(SettleE2E, AnEarlierNightsPayLaterIsCountedTheNightItIsPaid) {
  using namespace checkout;
  const std::string yesterday = PreviousBusinessDay(SystemClock::Instance().Now());
  const std::string card = NewSaleId(), later = NewSaleId();
  std::string invoice_id;
  Yesterday([&] {
    EXPECT_EQ(StateOf(Paid(card, {.method = Method::kCard, .amount = 1000})), "Paid");
    invoice_id = PayLater(later, 4000);
  });

  auto first = settlement::Settle(*store_, Bank(), clock_, {yesterday});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->reconciled) << first->text;
  const json night1 = json::parse(first->json);
  EXPECT_EQ(SaleIn(night1, later)["class"], "pay-later-open");
  EXPECT_EQ(SaleIn(night1, later)["counted"], false);
  EXPECT_EQ(SaleIn(night1, card)["counted"], true);
  EXPECT_EQ(night1["total"]["gross"], 1000);

  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoice_id}}).status, 200);
  auto second = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_TRUE(second->reconciled) << second->text;
  const json night2 = json::parse(second->json);
  ASSERT_EQ(night2["sales"].size(), 1u) << second->text << "yesterday's paid card sale is done";
  EXPECT_EQ(SaleIn(night2, later)["class"], "pay-later-closed");
  EXPECT_EQ(SaleIn(night2, later)["in_day"], false);
  EXPECT_EQ(SaleIn(night2, later)["counted"], true);
  EXPECT_EQ(TotalOf(night2, "invoice")["gross"], 4000);
  EXPECT_EQ(night2["total"]["count"], 1);
  EXPECT_NE(second->text.find("earlier day, counted tonight"), std::string::npos) << second->text;
  EXPECT_EQ(StateOf(Replayed(later)), "Paid");
  // What tonight's run journaled itself does not bring the sale back tomorrow.
  const std::string tomorrow = BusinessDayOf(*BusinessDayStart(Today()) + 36 * 3600 * kMicrosPerSecond);
  auto third = settlement::Settle(*store_, Bank(), clock_, {tomorrow, /*dry_run=*/true});
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_EQ(json::parse(third->json)["sales"].size(), 0u) << third->text;
}

// A Pix sale paid and settled yesterday, 20,00 of it given back today: today's night counts
// the refund (not the sale again); yesterday's record stays as it was; each night run again
// reads its record back.
TEST_F(SettleE2E, ARefundMadeAfterItsSalesNightIsInTheTotalsOfTheDayItIsMade) {
  using namespace checkout;
  const std::string yesterday = PreviousBusinessDay(SystemClock::Instance().Now());
  const std::string pix = NewSaleId();
  Yesterday([&] { EXPECT_EQ(StateOf(Paid(pix, {.method = Method::kPix, .amount = 5000})), "Paid"); });

  auto first = settlement::Settle(*store_, Bank(), clock_, {yesterday});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->reconciled) << first->text;
  const json night1 = json::parse(first->json);
  EXPECT_EQ(SaleIn(night1, pix)["counted"], true);
  EXPECT_EQ(SaleIn(night1, pix)["done"], true);
  EXPECT_EQ(night1["total"]["gross"], 5000);
  EXPECT_EQ(night1["total"]["refunds"], 0);

  Fed(pix, Reverse{2000, "op-7", "one item back", Now()});
  const Sale reversed = RunUntil(pix, [](const Sale& s) { return std::holds_alternative<checkout::Paid>(s.state); });
  ASSERT_EQ(reversed.collected(), 3000) << StateOf(reversed);

  auto second = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_TRUE(second->reconciled) << second->text;
  const json night2 = json::parse(second->json);
  ASSERT_EQ(night2["sales"].size(), 1u) << second->text << "the sale came back into scope with its refund";
  const json sale = SaleIn(night2, pix);
  EXPECT_EQ(sale["class"], "matched") << second->text;
  EXPECT_EQ(sale["in_day"], false);
  EXPECT_EQ(sale["counted"], false);
  EXPECT_EQ(sale["refunded_tonight"], 2000);
  EXPECT_EQ(sale["done"], true);
  EXPECT_EQ(sale["bank_net"], 3000);
  const json pix_total = TotalOf(night2, "pix");
  EXPECT_EQ(pix_total["count"], 0);
  EXPECT_EQ(pix_total["gross"], 0);
  EXPECT_EQ(pix_total["refund_count"], 1);
  EXPECT_EQ(pix_total["refunds"], 2000);
  EXPECT_EQ(pix_total["net"], -2000);
  EXPECT_EQ(second->sales, 0);
  EXPECT_EQ(second->refunds, 2000);
  EXPECT_NE(second->text.find("given back of a sale an earlier night counted"), std::string::npos) << second->text;

  // Each night again: its record, byte for byte; nothing counted twice.
  auto first_again = settlement::Settle(*store_, Bank(), clock_, {yesterday});
  ASSERT_TRUE(first_again.ok());
  EXPECT_TRUE(first_again->already_settled);
  EXPECT_EQ(first_again->json, first->json);
  auto second_again = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(second_again.ok());
  EXPECT_TRUE(second_again->already_settled);
  EXPECT_EQ(second_again->json, second->json);
  auto days = settlement::ListSettlements(*store_);
  ASSERT_TRUE(days.ok());
  ASSERT_EQ(days->size(), 2u);
  EXPECT_EQ((*days)[1].day, yesterday);
  EXPECT_EQ((*days)[1].gross, 5000);
  EXPECT_EQ((*days)[1].refunds, 0);
  EXPECT_EQ((*days)[0].refunds, 2000);
  // Tomorrow the sale, its refund counted, is out of scope again.
  const std::string tomorrow = BusinessDayOf(*BusinessDayStart(Today()) + 36 * 3600 * kMicrosPerSecond);
  auto third = settlement::Settle(*store_, Bank(), clock_, {tomorrow, /*dry_run=*/true});
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_EQ(json::parse(third->json)["sales"].size(), 0u) << third->text;
  EXPECT_EQ(third->refunds, 0);
}

// Money given back at the bank's dashboard today for a Pix settled yesterday: the box's journal
// never heard of it, so no night counts it as a refund, but today's night finds the sale through
// the day's ledger debit and shows the disagreement to the operator.
TEST_F(SettleE2E, AReversalAtTheDashboardOfASaleSettledEarlierNeedsTheOperator) {
  using namespace checkout;
  const std::string yesterday = PreviousBusinessDay(SystemClock::Instance().Now());
  const std::string pix = NewSaleId();
  Sale paid;
  Yesterday([&] { paid = Paid(pix, {.method = Method::kPix, .amount = 5000}); });
  ASSERT_EQ(StateOf(paid), "Paid");
  auto first = settlement::Settle(*store_, Bank(), clock_, {yesterday});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->reconciled) << first->text;

  ASSERT_EQ(api().Patch("/v2/deposit/" + paid.payment_line()->ref.id, {{"amount", 3000}}).status, 200);
  auto second = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  const json night2 = json::parse(second->json);
  ASSERT_EQ(night2["sales"].size(), 1u) << second->text;
  EXPECT_EQ(SaleIn(night2, pix)["class"], "discrepancy") << second->text;
  EXPECT_EQ(SaleIn(night2, pix)["done"], false);
  EXPECT_EQ(SaleIn(night2, pix)["bank_net"], 3000);
  EXPECT_EQ(second->refunds, 0);
  EXPECT_EQ(second->attention, 1);
}

// A sale a settlement marked before migration 0003 (no return counters): the refunds it carried
// then were counted with its payment; only what is given back afterwards counts again.
TEST_F(SettleE2E, ASaleMarkedBeforeTheReturnCountersCountsOnlyNewRefunds) {
  using namespace checkout;
  const std::string pix = NewSaleId();
  EXPECT_EQ(StateOf(Paid(pix, {.method = Method::kPix, .amount = 5000, .reverse = 1000})), "Paid");
  auto first = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->refunds, 1000) << first->text;
  {
    offline::internal::Txn txn(store_->impl(), offline::internal::Txn::kWrite);
    ASSERT_TRUE(txn.status().ok());
    offline::internal::Stmt legacy(txn, "UPDATE settlement_sales SET refunds_counted=NULL, late_returned_counted=NULL");
    ASSERT_TRUE(legacy.Run().ok());
    ASSERT_TRUE(txn.Commit().ok());
  }
  Fed(pix, Reverse{1500, "op-7", "one more item back", Now()});
  const Sale reversed = RunUntil(pix, [](const Sale& s) { return std::holds_alternative<checkout::Paid>(s.state); });
  ASSERT_EQ(reversed.collected(), 2500) << StateOf(reversed);

  const std::string tomorrow = BusinessDayOf(*BusinessDayStart(Today()) + 36 * 3600 * kMicrosPerSecond);
  auto second = settlement::Settle(*store_, Bank(), clock_, {tomorrow, /*dry_run=*/true});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_TRUE(second->reconciled) << second->text;
  EXPECT_EQ(second->refunds, 1500) << second->text;
  EXPECT_EQ(SaleIn(json::parse(second->json), pix)["refunded_tonight"], 1500);
}

// While the service owns the store, a `balcao settle` (a guest) does not journal what it learned
// (it would race the service's driver for the sale's sequence): the sale stays in scope. The
// next night's run, given the service's driver as its feeder, closes it — counted once.
TEST_F(SettleE2E, AGuestDefersWhatItLearnedAndTheServicesDriverAppliesItLater) {
  using namespace checkout;
  const std::string yesterday = PreviousBusinessDay(SystemClock::Instance().Now());
  const std::string later = NewSaleId();
  std::string invoice_id;
  Yesterday([&] { invoice_id = PayLater(later, 4000); });
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoice_id}}).status, 200);

  auto guest = offline::Store::Open(db_);  // the fixture's store holds the owner lock
  ASSERT_TRUE(guest.ok());
  ASSERT_FALSE((*guest)->is_owner());
  auto night1 = settlement::Settle(**guest, Bank(), clock_, {yesterday});
  ASSERT_TRUE(night1.ok()) << night1.status().ToString();
  const json first = json::parse(night1->json);
  EXPECT_EQ(first["fed_deferred"], true);
  EXPECT_EQ(SaleIn(first, later)["class"], "pay-later-closed");
  EXPECT_EQ(SaleIn(first, later)["counted"], true);
  EXPECT_EQ(SaleIn(first, later)["done"], false);
  EXPECT_NE(night1->text.find("not journaled yet"), std::string::npos) << night1->text;
  EXPECT_EQ(StateOf(Replayed(later)), "PayLater") << "a guest writes no sale event";
  guest->reset();

  settlement::SettleOptions tonight{Today()};
  tonight.feeder = [&](const std::string& sale_id, const Event& event) {
    return driver_->Feed(sale_id, event).status();  // the service's driver, on its thread
  };
  auto night2 = settlement::Settle(*store_, Bank(), clock_, tonight);
  ASSERT_TRUE(night2.ok()) << night2.status().ToString();
  const json second = json::parse(night2->json);
  EXPECT_EQ(second["fed_deferred"], false);
  EXPECT_EQ(SaleIn(second, later)["class"], "pay-later-closed") << night2->text;
  EXPECT_EQ(SaleIn(second, later)["counted"], false) << "counted the night before";
  EXPECT_EQ(SaleIn(second, later)["done"], true);
  EXPECT_EQ(second["total"]["count"], 0);
  EXPECT_EQ(StateOf(*driver_->Get(later)), "Paid");
  EXPECT_EQ(StateOf(Replayed(later)), "Paid");
}

// A run that dies after journaling what it learned and before keeping its record: the next run
// finds the sale already closed and gives the same totals.
TEST_F(SettleE2E, ARunThatDiesBeforeItsRecordGivesTheSameTotalsWhenRunAgain) {
  using namespace checkout;
  const std::string card = NewSaleId(), later = NewSaleId();
  EXPECT_EQ(StateOf(Paid(card, {.method = Method::kCard, .amount = 1000})), "Paid");
  const std::string invoice_id = PayLater(later, 4000);
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoice_id}}).status, 200);

  settlement::SettleOptions dying{Today()};
  dying.feeder = [&](const std::string& sale_id, const Event& event) {
    EXPECT_TRUE(driver_->Feed(sale_id, event).ok());
    return Status(StatusCode::kAborted, "killed after the journal write");
  };
  auto died = settlement::Settle(*store_, Bank(), clock_, dying);
  ASSERT_FALSE(died.ok());
  EXPECT_EQ(StateOf(Replayed(later)), "Paid");
  ASSERT_TRUE(settlement::ListSettlements(*store_)->empty()) << "no record";

  auto again = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_FALSE(again->already_settled);
  EXPECT_TRUE(again->reconciled) << again->text;
  const json report = json::parse(again->json);
  EXPECT_EQ(SaleIn(report, later)["class"], "matched");
  EXPECT_EQ(report["fed"].size(), 0u);
  EXPECT_EQ(TotalOf(report, "invoice")["gross"], 4000);
  EXPECT_EQ(report["total"]["count"], 2);
  EXPECT_EQ(report["total"]["net"], 5000);
}

// A pay-later invoice past due and a sale left showing its Pix QR: both for the operator.
TEST_F(SettleE2E, AnOverdueInvoiceAndAnUnfinishedSaleNeedTheOperator) {
  using namespace checkout;
  settings_.invoice_due_s = 1;
  const std::string overdue = NewSaleId(), unfinished = NewSaleId();
  ASSERT_FALSE(PayLater(overdue, 4000).empty());
  ASSERT_TRUE(std::holds_alternative<ShowingPix>(PixShown(unfinished, 1500).state));
  AdvanceSandbox(2);  // past the invoice's due

  auto settled = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  const json report = json::parse(settled->json);
  EXPECT_EQ(SaleIn(report, overdue)["class"], "pay-later-overdue") << settled->text;
  EXPECT_EQ(SaleIn(report, unfinished)["class"], "unfinished") << settled->text;
  EXPECT_EQ(SaleIn(report, unfinished)["state"], "ShowingPix");
  EXPECT_EQ(report["attention"], 2);
  EXPECT_EQ(report["total"]["count"], 0);
  EXPECT_FALSE(settled->reconciled);
}

// Store-and-forward card sales decided while the box was offline: the settlement reports
// each outcome once (a declined one for the operator) and acknowledges them.
TEST_F(SettleE2E, StoreAndForwardOutcomesAreReportedOnce) {
  const std::string kek = db_ + ".kek";
  { std::ofstream(kek) << std::string(64, 'a'); }
  ::chmod(kek.c_str(), 0600);
  offline::StoreAndForwardSettings saf;
  saf.enabled = true;
  saf.kek_path = kek;
  auto cards = offline::SealedCards::Open(*store_, saf);
  ASSERT_TRUE(cards.ok()) << cards.status().ToString();
  auto card = [](const char* number) {
    offline::CardData c;
    c.number = number;
    c.security_code = "123";
    c.expiration = "2035-01";
    c.holder_name = "MARIA SILVA";
    return c;
  };
  const std::string approved = NewSaleId(), declined = NewSaleId();
  ASSERT_TRUE((*cards)->Accept(approved, 2000, card("4242424242424242")).ok());
  ASSERT_TRUE((*cards)->Accept(declined, 1500, card("4000000000000002")).ok());
  auto client = api::Client::FromEnvironment(sandbox().credentials().credentials_path);
  ASSERT_TRUE(client.ok());
  offline::ApiGateway gateway(*client);
  offline::BankCardAuthorizer authorizer(gateway);
  auto decided = (*cards)->ForwardAll(authorizer, Now() / 1000);
  ASSERT_TRUE(decided.ok()) << decided.status().ToString();
  ASSERT_EQ(*decided, 2);

  auto settled = settlement::Settle(*store_, Bank(), clock_, {Today()});
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  const json report = json::parse(settled->json);
  ASSERT_EQ(report["card_outcomes"].size(), 2u) << settled->text;
  std::map<std::string, std::string> outcomes;
  for (const json& c : report["card_outcomes"]) {
    outcomes[c["sale_id"].get<std::string>()] = c["outcome"].get<std::string>();
    EXPECT_EQ(c["card"].get<std::string>().find("4242424242424242"), std::string::npos);
  }
  EXPECT_EQ(outcomes[approved], "approved");
  EXPECT_EQ(outcomes[declined], "declined");
  EXPECT_EQ(report["attention"], 1) << settled->text;
  EXPECT_NE(settled->text.find("collect another way"), std::string::npos) << settled->text;
  EXPECT_EQ(settled->text.find("4000000000000002"), std::string::npos);
  auto left = (*cards)->UnreportedOutcomes();
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty()) << "reported outcomes are acknowledged";
  std::filesystem::remove(kek);
}

}  // namespace
}  // namespace balcao::settlement::e2e
