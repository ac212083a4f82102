// The store and account runs against the sandbox (settlement/store_run.h): a day of three
// lanes of one store and a lane of another is read by pages, the same few calls whatever the
// number of sales or lanes; each lane's sales and money land under it, the second store's
// never in the first's; and a lane's own settlement shows the other lanes apart, not as
// orphans.
#include "settlement/store_run.h"

#include "checkout/types.h"
#include "tests/settlement/settle_fixture.h"

namespace balcao::settlement::e2e {
namespace {

const std::string kLane1 = checkout::LaneRoot("loja-1", "caixa-1");
const std::string kLane2 = checkout::LaneRoot("loja-1", "caixa-2");
const std::string kLane3 = checkout::LaneRoot("loja-1", "caixa-3");
const std::string kOtherStore = checkout::LaneRoot("loja-2", "caixa-1");

TEST_F(SettleE2E, TheStoreIsReadByPagesWhateverItsLanes) {
  using namespace checkout;
  settings_.lane = kLane1;
  Cents lane1 = 0;
  for (int i = 0; i < 6; ++i) {
    const std::string id = NewSaleId();
    const Method method = i % 2 == 0 ? Method::kCard : Method::kPix;
    EXPECT_EQ(StateOf(Paid(id, {.method = method, .amount = 1000 + i})), "Paid") << id;
    lane1 += 1000 + i;
  }
  // 230 paid invoices of the other lanes of loja-1 and 5 of loja-2, made as those boxes would.
  std::map<std::string, Cents> paid;
  const auto invoices = [&](const std::string& lane, int count, int first) {
    json batch = json::array();
    for (int i = 0; i < count; ++i) {
      batch.push_back({{"amount", 500 + i},
                       {"name", "Maria da Silva"},
                       {"taxId", "337.451.076-08"},
                       {"tags", EntityTags(lane, "v-" + std::to_string(first + i), 1)}});
    }
    const auto created = api().Post("/v2/invoice", {{"invoices", batch}});
    ASSERT_EQ(created.status, 200) << created.body;
    for (const json& invoice : created.json["invoices"]) {
      ASSERT_EQ(api().Sim("/sandbox/invoice/pay", {{"id", invoice["id"]}}).status, 200);
      paid[lane] += invoice["amount"].get<Cents>();
    }
  };
  invoices(kLane2, 100, 0);
  invoices(kLane3, 100, 100);
  invoices(kLane3, 30, 200);
  invoices(kOtherStore, 5, 0);
  AdvanceSandbox(31);  // the card purchases are captured

  int calls = 0, pages_told = 0;
  auto client = api::Client::FromEnvironment(sandbox().credentials().credentials_path);
  ASSERT_TRUE(client.ok());
  const api::Bank counted(client->WithObserver([&calls](const api::CallRecord&) { ++calls; }));
  StoreRunOptions options{Today()};
  options.connections = 1;
  options.progress = [&pages_told](const std::string&, int pages, int) { pages_told = pages; };
  auto account = ReadAccountDay(counted, options);
  ASSERT_TRUE(account.ok()) << account.status().ToString();
  // Five range lists; invoices (235) and transactions (241), 100 a page, on three pages
  // each: not one call per sale nor per lane, and the progress told every page.
  EXPECT_EQ(calls, 9);
  EXPECT_EQ(pages_told, 9);

  const StoreDay* store = FindStore(*account, "loja-1");
  ASSERT_NE(store, nullptr);
  ASSERT_EQ(store->lanes.size(), 3u);
  EXPECT_EQ(store->lanes[0].sales, 6);
  EXPECT_EQ(store->lanes[0].total.net(), lane1);
  EXPECT_EQ(store->lanes[1].sales, 100);
  EXPECT_EQ(store->lanes[1].total.net(), paid[kLane2]);
  EXPECT_EQ(store->lanes[2].sales, 130);
  EXPECT_EQ(store->lanes[2].methods[3].net(), paid[kLane3]) << "invoice";
  EXPECT_EQ(store->sum.total.net(), lane1 + paid[kLane2] + paid[kLane3]);
  EXPECT_TRUE(store->matches_ledger) << StoresText(*account, "loja-1");
  const StoreDay* other = FindStore(*account, "loja-2");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->sum.total.net(), paid[kOtherStore]);
  EXPECT_EQ(StoresText(*account, "loja-1").find("loja-2"), std::string::npos);

  // This lane's own night: its six sales; the other lanes apart, no orphans.
  SettleOptions own{Today(), /*dry_run=*/true};
  own.lane = kLane1;
  auto settled = settlement::Settle(*store_, Bank(), clock_, own);
  ASSERT_TRUE(settled.ok()) << settled.status().ToString();
  const json report = json::parse(settled->json);
  EXPECT_EQ(report["sales"].size(), 6u);
  EXPECT_EQ(report["total"]["net"], lane1);
  EXPECT_TRUE(report["orphans"].empty()) << settled->text;
  ASSERT_EQ(report["other_lanes"].size(), 3u) << settled->text;
  EXPECT_EQ(report["other_lanes"][0]["lane"], kLane2);
  EXPECT_EQ(report["other_lanes"][0]["entities"], 100);
  EXPECT_EQ(report["other_lanes"][0]["holds"], paid[kLane2]);
  EXPECT_NE(settled->text.find("Other lanes"), std::string::npos) << settled->text;
  EXPECT_TRUE(settled->reconciled) << settled->text;
}

}  // namespace
}  // namespace balcao::settlement::e2e
