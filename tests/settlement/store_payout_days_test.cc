// The store's payout across a day's end (settlement/store_payout.h): money that reaches the
// ledger on a later day than its sale's (a pay-later invoice paid the next morning, a Pix given
// back in the night before the payout ran) is paid out on the day its ledger line is created,
// once; the sale's own day pays only its lines of that day. Before, such an invoice was in no
// day's payout (its own day's saw it unpaid, the next day's read only that day's sales) and a
// refund before the night's run held the whole store's payout back.
// Its own test binary: it moves the in-process sandbox's clock a day ahead (the clock only moves
// forward), while the other settlement tests of a process read "today" by the system clock.
#include <string>

#include "checkout/types.h"
#include "settlement/payout.h"
#include "settlement/store_payout.h"
#include "tests/settlement/settle_fixture.h"
#include "tests/testing/status_matchers.h"

namespace balcao::settlement::e2e {
namespace {

constexpr const char* kStore = "loja-dias";

class StorePayoutDays : public SettleE2E {
 protected:
  static PayoutSettings PayoutConfig() {
    PayoutSettings p;
    p.enabled = true;
    p.store = kStore;
    p.account = {"Padaria Balcao Ltda", "11.222.333/0001-81", "341", "1234", "56789-0", "checking"};
    return p;
  }
  StatusOr<Payout> PayStoreDay(const std::string& day) {
    StorePayoutRun run;
    run.day = day;
    run.store_id = kStore;
    return RunStorePayout(Bank(), PayoutConfig(), run);
  }
  json Transfers(const std::string& external_id) {
    const auto listed = api().Get("/v2/transfer?tags=" + external_id);
    EXPECT_EQ(listed.status, 200) << listed.body;
    return listed.json.value("transfers", json::array());
  }
};

TEST_F(StorePayoutDays, MoneyOfAnEarlierDaysSaleIsPaidOutOnTheDayItReachesTheLedgerOnce) {
  using namespace checkout;
  settings_.lane = LaneRoot(kStore, "caixa-1");
  const Sale pix = Paid(NewSaleId(), {.method = Method::kPix, .amount = 1500});
  ASSERT_EQ(StateOf(pix), "Paid");
  const std::string invoice = PayLater(NewSaleId(), 4000);
  settings_.lane = LaneRoot(kStore, "caixa-2");
  ASSERT_EQ(StateOf(Paid(NewSaleId(), {.method = Method::kPix, .amount = 700})), "Paid");
  const std::string today = Today();

  // The next morning (10:00 in Sao Paulo), before today's night runs: the customer pays the
  // invoice, and 5,00 of the Pix go back to its payer.
  const UnixMicros tomorrow_start = *BusinessDayStart(today) + 86400 * kMicrosPerSecond;
  const std::string tomorrow = BusinessDayOf(tomorrow_start);
  AdvanceSandbox((tomorrow_start + 10 * 3600 * kMicrosPerSecond - Now()) / kMicrosPerSecond);
  ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoice}}).status, 200);
  ASSERT_EQ(api().Patch("/v2/deposit/" + pix.payment_line()->ref.id, {{"amount", 1000}}).status, 200);

  // Today's payout: today's lines only, both lanes, not held back by what came after.
  auto first = PayStoreDay(today);
  ASSERT_OK(first);
  EXPECT_EQ(first->status, "sent") << first->reason.en_us;
  EXPECT_EQ(first->amount, 2200);
  EXPECT_EQ(first->store_net, 2200);
  EXPECT_EQ(first->earlier_net, 0);
  EXPECT_TRUE(first->withheld_for.empty());

  // Tomorrow's: the invoice paid and the Pix returned, both of today's sales, on tomorrow's lines.
  auto second = PayStoreDay(tomorrow);
  ASSERT_OK(second);
  EXPECT_EQ(second->status, "sent") << second->reason.en_us;
  EXPECT_EQ(second->amount, 3500);
  EXPECT_EQ(second->earlier_net, 3500);
  EXPECT_NE(PayoutText(*second, Lang::kEnUs).find("R$ 35,00 of earlier days' sales"), std::string::npos)
      << PayoutText(*second, Lang::kEnUs);

  // Run again, each day finds its transfer; every centavo went out once.
  auto again = PayStoreDay(tomorrow);
  ASSERT_OK(again);
  EXPECT_EQ(again->status, "found");
  const json day1 = Transfers(PayoutExternalId(kStore, today));
  const json day2 = Transfers(PayoutExternalId(kStore, tomorrow));
  ASSERT_EQ(day1.size(), 1u);
  ASSERT_EQ(day2.size(), 1u);
  EXPECT_EQ(day1[0]["amount"].get<Cents>() + day2[0]["amount"].get<Cents>(), 1500 + 4000 + 700 - 500);
}

}  // namespace
}  // namespace balcao::settlement::e2e
