// How the run reads the bank: by pages of the day's lists, not by sale. A day of sales costs
// the same handful of calls whatever the number of sales (each list fits a page here; the
// orphans below take three pages of invoices), sales of earlier days are looked up by tag in
// batches, the count is in the report and its JSON, and reading on one connection or several
// gives the same report.
#include "tests/settlement/settle_fixture.h"

namespace balcao::settlement::e2e {
namespace {

TEST_F(SettleE2E, TheBankIsReadByPagesNotBySale) {
  using namespace checkout;
  const std::string yesterday_later = NewSaleId();
  std::string yesterday_invoice;
  Yesterday([&] { yesterday_invoice = PayLater(yesterday_later, 4200); });
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", yesterday_invoice}}).status, 200);

  std::vector<std::string> sales;
  for (int i = 0; i < 8; ++i) {
    const std::string id = NewSaleId();
    const Method method = i % 2 == 0 ? Method::kCard : Method::kPix;
    EXPECT_EQ(StateOf(Paid(id, {.method = method, .amount = 1000 + i})), "Paid") << id;
    sales.push_back(id);
  }
  // 230 invoices of the day tagged for sales this box never rang up: three pages of invoices.
  for (int batch = 0; batch < 3; ++batch) {
    json invoices = json::array();
    for (int i = 0; i < (batch < 2 ? 100 : 30); ++i) {
      invoices.push_back({{"amount", 500 + i},
                          {"name", "Other Lane"},
                          {"taxId", "337.451.076-08"},
                          {"tags", {"sale/other-lane-" + std::to_string(batch * 100 + i)}}});
    }
    ASSERT_EQ(api().Post("/v2/invoice", {{"invoices", invoices}}).status, 200);
  }
  AdvanceSandbox(31);  // the card purchases are captured

  SettleOptions one{Today(), /*dry_run=*/true};
  one.connections = 1;
  auto serial = settlement::Settle(*store_, Bank(), clock_, one);
  ASSERT_TRUE(serial.ok()) << serial.status().ToString();
  const json report = json::parse(serial->json);
  for (const std::string& id : sales) EXPECT_EQ(SaleIn(report, id)["class"], "matched") << serial->text;
  EXPECT_EQ(SaleIn(report, yesterday_later)["class"], "pay-later-closed") << serial->text;
  EXPECT_EQ(report["orphans"].size(), 230u);
  // Five range lists (invoices: three pages) and the balance; the sale of yesterday by tag:
  // purchases, invoices, brcodes and transactions of its batch (it showed no brcode). The
  // old way, four lists per sale and the day's lists twice, took more than 45.
  EXPECT_EQ(report["bankCalls"], serial->bank_calls);
  if (PastTheDaysFirstMinutes()) {
    EXPECT_EQ(serial->bank_calls, 5 + 2 + 1 + 4) << serial->text;
    EXPECT_NE(serial->text.find("Read from the bank in 12 call(s)"), std::string::npos) << serial->text;
  }

  SettleOptions four{Today(), /*dry_run=*/true};
  four.connections = 4;
  auto parallel = settlement::Settle(*store_, Bank(), clock_, four);
  ASSERT_TRUE(parallel.ok()) << parallel.status().ToString();
  const json again = json::parse(parallel->json);
  EXPECT_EQ(again["sales"], report["sales"]);
  EXPECT_EQ(again["orphans"], report["orphans"]);
  EXPECT_EQ(again["totals"], report["totals"]);
  EXPECT_EQ(again["ledger"], report["ledger"]);
  EXPECT_EQ(parallel->bank_calls, serial->bank_calls);
}

// A Pix QR shown yesterday (by the box's clock) and paid today: the sale, of an earlier day,
// is looked up by tag in a batch; its deposit, in today's list and found by its brcode's tag
// too, is joined to it once (no orphan, counted once in the day's ledger).
TEST_F(SettleE2E, ADepositOfTheDayOnABrcodeOfAnEarlierDayIsJoinedToItsSale) {
  using namespace checkout;
  const std::string shown = NewSaleId();
  Sale pix;
  Yesterday([&] { pix = PixShown(shown, 3100); });
  ASSERT_TRUE(std::holds_alternative<ShowingPix>(pix.state));
  const std::string uuid = std::get<ShowingPix>(pix.state).brcode.uuid;
  ASSERT_EQ(api().Sim("/sandbox/dynamic-brcode/pay", {{"uuid", uuid}}).status, 200);

  auto settled = settlement::Settle(*store_, Bank(), clock_, {Today(), /*dry_run=*/true});
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  const json report = json::parse(settled->json);
  const json sale = SaleIn(report, shown);
  EXPECT_EQ(sale["bank_net"], 3100) << settled->text;
  EXPECT_EQ(report["orphans"].size(), 0u) << settled->text;
  EXPECT_EQ(report["ledger"]["sales_net"], 3100) << settled->text;
}

// 45 pay-later sales of yesterday still open tonight: the range lists cannot hold their
// invoices (created before the day, by the box's clock), so they are looked up by tag, 40
// sales a request: two batches of four lists (purchases, invoices, brcodes, transactions).
TEST_F(SettleE2E, SalesOfEarlierDaysAreLookedUpByTagInBatches) {
  std::vector<std::string> open;
  Yesterday([&] {
    for (int i = 0; i < 45; ++i) {
      open.push_back(NewSaleId());
      EXPECT_FALSE(PayLater(open.back(), 1000 + i).empty());
    }
  });
  auto settled = settlement::Settle(*store_, Bank(), clock_, {Today(), /*dry_run=*/true});
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  const json report = json::parse(settled->json);
  ASSERT_EQ(report["sales"].size(), 45u) << settled->text;
  for (const std::string& id : open) {
    EXPECT_EQ(SaleIn(report, id)["class"], "pay-later-open") << id;
    EXPECT_EQ(SaleIn(report, id)["in_day"], false) << id;
  }
  EXPECT_EQ(report["orphans"].size(), 0u);
  EXPECT_EQ(settled->bank_calls, 5 + 1 + 2 * 4) << settled->text;
}

}  // namespace
}  // namespace balcao::settlement::e2e
