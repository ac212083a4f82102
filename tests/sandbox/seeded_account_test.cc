// The seeded account as the official SDKs' own suites find it (docs/sandbox.md, "A seeded
// account" and "List filters"): the holder id they filter by has more sessions and purchases
// than a page, the saved card the Node suite charges by id exists and charges, a webhook
// stays subscribed, and every documented filter of every list route narrows the list to what
// it names. One seeded in-process sandbox for the file (ticks off: nothing runs after the
// history), read over loopback HTTP with signed requests.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "api/resources.h"
#include "tests/sandbox/sandbox_client.h"
#include "tests/testing/status_matchers.h"

namespace balcao::sandbox::testing {
namespace {

constexpr const char* kSuiteHolderId = "0123456789012345";
constexpr const char* kSuiteCardId = "5052994169077760";

class SeededAccount : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    SandboxOptions options;
    options.db = ":memory:";
    options.https = false;
    options.tick_millis = 3'600'000;
    options.seed = 1;
    auto started = Sandbox::Start(options);
    ASSERT_OK(started);
    sandbox_ = std::move(*started).release();
  }
  static void TearDownTestSuite() {
    delete sandbox_;
    sandbox_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(sandbox_, nullptr);
    const auto& cred = sandbox_->credentials();
    auto key = api::PrivateKey::FromPem(cred.project_private_key_pem);
    ASSERT_OK(key);
    client_ = std::make_unique<Client>(Base(), "project/" + cred.project_id, *key);
  }
  static std::string Base() { return "http://127.0.0.1:" + std::to_string(sandbox_->port()); }
  Reply Get(const std::string& path) { return client_->Get(path); }

  static Sandbox* sandbox_;
  std::unique_ptr<Client> client_;
};
Sandbox* SeededAccount::sandbox_ = nullptr;

TEST_F(SeededAccount, TheSuitesHolderHasMoreSessionsAndPurchasesThanTwoPages) {
  for (const std::string resource : {"merchant-session", "merchant-purchase"}) {
    const std::string plural(api::FindResource(resource)->plural_key);
    std::set<std::string> ids;
    std::string cursor;
    for (int page = 0; page < 2; ++page) {
      Reply r = Get("/v2/" + resource + "?limit=5&holderId=" + kSuiteHolderId + (page ? "&cursor=" + cursor : ""));
      ASSERT_EQ(r.status, 200) << r.body;
      ASSERT_EQ(r.json[plural].size(), 5u) << resource;
      for (const auto& item : r.json[plural]) {
        EXPECT_EQ(item["holderId"], kSuiteHolderId) << resource;
        ids.insert(item["id"].get<std::string>());
      }
      ASSERT_TRUE(r.json["cursor"].is_string()) << resource;
      cursor = r.json["cursor"].get<std::string>();
    }
    EXPECT_EQ(ids.size(), 10u) << resource;
  }
}

TEST_F(SeededAccount, TheCardTheNodeSuiteChargesIsSavedByAnApprovedPurchaseAndCharges) {
  EXPECT_EQ(sandbox_->credentials().card_id, kSuiteCardId);
  Reply card = Get(std::string("/v2/merchant-card/") + kSuiteCardId);
  ASSERT_EQ(card.status, 200) << card.body;
  EXPECT_EQ(card.json["card"]["status"], "active");
  Json direct = {{"amount", 10000},         {"installmentCount", 5},       {"cardId", kSuiteCardId},
                 {"fundingType", "credit"}, {"challengeMode", "disabled"}, {"holderId", "424242"}};
  Reply charged = client_->Post("/v2/merchant-purchase", direct);
  ASSERT_EQ(charged.status, 200) << charged.body;
  const Json purchase = charged.json["purchase"];
  EXPECT_EQ(purchase["cardId"], kSuiteCardId);
  EXPECT_EQ(purchase["status"], "approved");
  Reply canceled = client_->Patch("/v2/merchant-purchase/" + purchase["id"].get<std::string>(),
                                  {{"status", "canceled"}, {"amount", 0}});
  ASSERT_EQ(canceled.status, 200) << canceled.body;
  EXPECT_EQ(canceled.json["purchase"]["status"], "canceled");
}

TEST_F(SeededAccount, AWebhookStaysAndItsReceiverAnswers) {
  Reply list = Get("/v2/webhook");
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.json["webhooks"].size(), 1u);
  const Json webhook = list.json["webhooks"][0];
  EXPECT_EQ(webhook["url"], Base() + "/sandbox/webhook-receiver");
  EXPECT_EQ(Get("/v2/webhook/" + webhook["id"].get<std::string>()).status, 200);
  Reply received = client_->Sim("/sandbox/webhook-receiver", {{"event", {{"id", "1"}}}});
  EXPECT_EQ(received.status, 200) << received.body;
}

TEST_F(SeededAccount, InstallmentsFilterByPurchase) {
  Reply purchases = Get("/v2/merchant-purchase?limit=20&status=confirmed");
  ASSERT_EQ(purchases.status, 200);
  std::vector<std::string> ids;
  for (const auto& p : purchases.json["purchases"])
    if (p["installmentCount"].get<int>() > 1 && ids.size() < 2) ids.push_back(p["id"].get<std::string>());
  ASSERT_EQ(ids.size(), 2u);
  Reply r = Get("/v2/merchant-installment?limit=100&purchaseIds=" + ids[0] + "," + ids[1]);
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_GE(r.json["installments"].size(), 4u);
  for (const auto& i : r.json["installments"])
    EXPECT_TRUE(i["purchaseId"] == ids[0] || i["purchaseId"] == ids[1]) << i.dump();
}

// ---------------------------------------------------------------------------------------
// Every documented filter of every list route (docs/sandbox.md, "List filters").

// The list routes' query parameters, as the API documentation (parts 1 and 2) lists them,
// limit and cursor aside (paging: api_test.cc). Marked "(SDK)": sent by the official SDKs and
// honoured by the bank, not in the documentation's list.
struct DocumentedList {
  std::string route;  // "invoice", "invoice/log"
  std::vector<std::string> filters;
};

std::vector<DocumentedList> Documented() {
  const std::vector<std::string> common = {"after", "before", "fields", "ids", "status", "tags"};
  auto with = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), common.begin(), common.end());
    return extra;
  };
  auto log = [](const std::string& id_filter) {
    return std::vector<std::string>{"after", "before", "fields", "types", id_filter};
  };
  return {{"workspace", {"fields", "ids", "username"}},
          {"transaction", {"after", "before", "externalIds", "fields", "ids", "tags"}},
          {"invoice", with({"transactionIds"})},
          {"invoice/log", log("invoiceIds")},
          {"dynamic-brcode", {"after", "before", "tags", "uuids"}},
          {"deposit", with({"sort"})},
          {"deposit/log", log("depositIds")},
          {"boleto", common},
          {"boleto/log", log("boletoIds")},
          {"boleto-holmes", with({"boletoId"})},
          {"boleto-holmes/log", log("holmesIds")},
          {"split", with({"receiverIds"})},
          {"split/log", log("splitIds")},
          {"split-receiver", with({"receiverIds", "taxId", "transactionIds"})},
          {"split-receiver/log", log("receiverIds")},
          {"split-profile", common},
          {"split-profile/log", log("profileIds")},
          {"invoice-pull-subscription", with({"expand"})},
          {"invoice-pull-subscription/log", {"after", "before", "fields", "types", "subscriptionIds", "tags"}},
          {"invoice-pull-request", with({"externalIds", "invoiceIds", "subscriptionIds"})},
          {"invoice-pull-request/log", log("requestIds")},
          {"merchant-session", with({"holderId"})},  // holderId (SDK)
          {"merchant-session/log", log("sessionIds")},
          {"merchant-purchase", with({"holderId"})},  // holderId (SDK)
          {"merchant-purchase/log", log("purchaseIds")},
          {"merchant-card", common},
          {"merchant-card/log", log("cardIds")},
          {"merchant-installment", with({"purchaseIds"})},  // purchaseIds (SDK)
          {"merchant-installment/log", log("installmentIds")},
          {"transfer", with({"sort", "taxId", "transactionIds"})},
          {"transfer/log", log("transferIds")},
          {"brcode-payment", common},
          {"brcode-payment/log", log("paymentIds")},
          {"boleto-payment", common},
          {"boleto-payment/log", log("paymentIds")},
          {"utility-payment", common},
          {"utility-payment/log", log("paymentIds")},
          {"tax-payment", common},
          {"tax-payment/log", {"after", "before", "paymentIds", "types"}},
          {"darf-payment", {"after", "before", "ids", "status", "tags"}},
          {"darf-payment/log", {"after", "before", "paymentIds", "types"}},
          {"payment-request", with({"centerId", "sort", "type"})},
          {"webhook", {"fields"}},
          {"event", {"after", "before", "fields", "isDelivered"}},
          {"event/attempt", {"after", "before", "eventIds", "fields", "webhookIds"}}};
}

std::string Digits(const std::string& s) {
  std::string d;
  for (char c : s)
    if (c >= '0' && c <= '9') d += c;
  return d;
}

// What one filter is checked against in an item: the document itself or, in a log, the
// entity the log embeds.
struct Target {
  bool is_log = false;
  const api::ResourceSpec* spec = nullptr;
  const Json& Of(const Json& item) const { return is_log ? item[std::string(spec->log_entity_key)] : item; }
};

// The values an item holds for a filter ("tags" -> its tags, "receiverIds" -> receiverId...).
std::vector<std::string> ValuesOf(const Target& t, const Json& item, const std::string& filter) {
  const Json* field = nullptr;
  const Json& doc = t.is_log && filter != "types" ? t.Of(item) : item;
  const std::string single = filter.back() == 's' ? filter.substr(0, filter.size() - 1) : filter;
  if (t.is_log && filter == t.spec->log_id_filter) {
    field = &doc["id"];
  } else if (filter == "types") {
    field = &item["type"];
  } else if (doc.contains(filter)) {
    field = &doc[filter];
  } else if (doc.contains(single)) {
    field = &doc[single];
  } else if (filter == std::string(t.spec->single_key) + "Ids") {
    field = &doc["id"];  // a resource's own ids under its own name (split-receiver receiverIds)
  }
  std::vector<std::string> out;
  auto add = [&](const Json& v) {
    if (v.is_string() && !v.get<std::string>().empty()) out.push_back(v.get<std::string>());
    if (v.is_boolean()) out.push_back(v.get<bool>() ? "true" : "false");
  };
  if (field && field->is_array())
    for (const auto& v : *field) add(v);
  else if (field)
    add(*field);
  if (filter == "taxId")
    for (auto& v : out) v = Digits(v);
  return out;
}

class ListFilters : public SeededAccount {
 protected:
  // The items of a list page ("logs" for log lists).
  Json Items(const std::string& route, const std::string& query) {
    Reply r = Get("/v2/" + route + "?limit=100" + Base(route) + query);
    EXPECT_EQ(r.status, 200) << route << "?" << query << ": " << r.body;
    const bool is_log = route.find("/log") != std::string::npos;
    const std::string key = is_log ? "logs" : std::string(api::FindResource(route)->plural_key);
    return r.status == 200 ? r.json[key] : Json::array();
  }
  static std::string Base(const std::string& route) {
    return route == "payment-request" ? "&centerId=" + sandbox_->credentials().center_id : "";
  }
  void CheckTimeWindow(const std::string& route, const Json& all, const std::string& filter);
  void CheckValueFilter(const std::string& route, const Target& t, const Json& all, const std::string& filter);
  void CheckFilter(const std::string& route, const Json& all, const std::string& filter);
};

void ListFilters::CheckTimeWindow(const std::string& route, const Json& all, const std::string& filter) {
  const std::string day = (filter == "after" ? all.front() : all.back())["created"].get<std::string>().substr(0, 10);
  const Json got = Items(route, "&" + filter + "=" + day);
  ASSERT_FALSE(got.empty());
  for (const auto& item : got) {
    const std::string created = item["created"].get<std::string>().substr(0, 10);
    EXPECT_TRUE(filter == "after" ? created >= day : created <= day) << created << " vs " << day;
  }
}

void ListFilters::CheckValueFilter(const std::string& route, const Target& t, const Json& all,
                                   const std::string& filter) {
  std::string value;
  for (const auto& item : all) {
    auto values = ValuesOf(t, item, filter);
    if (!values.empty()) {
      value = values.front();
      break;
    }
  }
  ASSERT_FALSE(value.empty()) << "no seeded item holds a value for " << filter;
  const Json got = Items(route, "&" + filter + "=" + value);
  ASSERT_FALSE(got.empty()) << filter << "=" << value;
  std::size_t narrower = 0;
  for (const auto& item : all) narrower += ValuesOf(t, item, filter) == std::vector<std::string>{value} ? 0 : 1;
  for (const auto& item : got) {
    auto values = ValuesOf(t, item, filter);
    EXPECT_NE(std::find(values.begin(), values.end(), value), values.end())
        << filter << "=" << value << ": " << item.dump().substr(0, 300);
  }
  if (narrower > 0 && all.size() < 100) {
    EXPECT_LT(got.size(), all.size()) << filter;
  }
}

void ListFilters::CheckFilter(const std::string& route, const Json& all, const std::string& filter) {
  const bool is_log = route.find("/log") != std::string::npos;
  const Target t{is_log, api::FindResource(is_log ? route.substr(0, route.size() - 4) : route)};
  if (filter == "after" || filter == "before") return CheckTimeWindow(route, all, filter);
  if (filter == "fields") {
    const Json got = Items(route, "&fields=id,created");
    ASSERT_FALSE(got.empty());
    for (const auto& item : got) EXPECT_EQ(item.size(), 2u) << item.dump().substr(0, 200);
    return;
  }
  if (filter == "ids") {
    const std::set<std::string> want = {all[0]["id"].get<std::string>(), all.back()["id"].get<std::string>()};
    std::set<std::string> got;
    for (const auto& item : Items(route, "&ids=" + *want.begin() + "," + *want.rbegin()))
      got.insert(item["id"].get<std::string>());
    EXPECT_EQ(got, want);
    return;
  }
  if (filter == "sort") {
    const Json got = Items(route, "&sort=created");
    ASSERT_GE(got.size(), 2u);
    EXPECT_LE(got.front()["created"].get<std::string>(), got.back()["created"].get<std::string>());
    EXPECT_LT(got.front()["created"].get<std::string>(), all.front()["created"].get<std::string>());
    return;
  }
  if (filter == "expand") {
    for (const auto& item : Items(route, "&expand=data")) EXPECT_TRUE(item.contains("data"));
    return;
  }
  if (route == "split-receiver" && filter == "transactionIds") {
    // Accepted, and matches nothing: receivers hold no transactions in the sandbox (their
    // splits' ledger entries are the workspace's).
    EXPECT_TRUE(Items(route, "&transactionIds=4503599627370496").empty());
    return;
  }
  CheckValueFilter(route, t, all, filter);
}

TEST_F(ListFilters, EveryDocumentedFilterIsInTheResourceTableAndNarrowsTheList) {
  for (const auto& list : Documented()) {
    const bool is_log = list.route.find("/log") != std::string::npos;
    const api::ResourceSpec* spec =
        api::FindResource(is_log ? list.route.substr(0, list.route.size() - 4) : list.route);
    ASSERT_NE(spec, nullptr) << list.route;
    const Json all = Items(list.route, "");
    ASSERT_FALSE(all.empty()) << list.route << " is empty in the seeded account";
    for (const auto& filter : list.filters) {
      SCOPED_TRACE(list.route + " ? " + filter);
      if (!is_log) {
        EXPECT_NE(std::find(spec->filters.begin(), spec->filters.end(), filter), spec->filters.end())
            << "not in api/resources.cc";
      }
      CheckFilter(list.route, all, filter);
    }
  }
}

}  // namespace
}  // namespace balcao::sandbox::testing
