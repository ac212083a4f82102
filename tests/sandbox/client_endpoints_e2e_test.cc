// The C++ client (api::Client, signed requests over loopback HTTP) runs every one of the 140
// endpoints of api::Endpoints() against an in-process sandbox and each call succeeds (HTTP
// 200; PDF and QR code answers are checked by their magic bytes). Entities are created
// first (creates, PUT, session purchase), the payer side is driven through the unsigned
// simulation API, then one generic pass reads every list / get / pdf / qrcode / payment /
// log endpoint with ids of those entities, then PATCHes and DELETEs (on entities made for
// that purpose). The set of endpoints called must equal all of them.
#include <curl/curl.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/client.h"
#include "api/credentials.h"
#include "api/resources.h"
#include "sandbox/sandbox.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_request.h"

namespace balcao {
namespace {

using Json = nlohmann::json;

// Arrecadação bar code (segment, value in cents) with its mod-10 general check digit.
std::string UtilityBarCode(int segment, std::int64_t cents) {
  std::string amount = std::to_string(cents);
  std::string body = "8" + std::to_string(segment) + "6" + std::string(11 - amount.size(), '0') + amount + "0123" +
                     std::string(20, '0') + "12345";
  int sum = 0;
  for (std::size_t i = 0; i < body.size(); ++i) {
    int p = (body[body.size() - 1 - i] - '0') * (i % 2 == 0 ? 2 : 1);
    sum += p / 10 + p % 10;
  }
  return body.substr(0, 3) + std::to_string((10 - sum % 10) % 10) + body.substr(3);
}

class ClientEndpointsE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/balcao-e2e-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    sandbox::SandboxOptions options;
    options.db = ":memory:";
    options.https = false;
    options.data_dir = dir_;
    auto started = sandbox::Sandbox::Start(options);
    ASSERT_OK(started);
    sandbox_ = std::move(*started);
    auto client = api::Client::FromEnvironment(sandbox_->credentials().credentials_path);
    ASSERT_OK(client);
    client_.emplace(*client);
    auto key = api::PrivateKey::FromFile(sandbox_->credentials().organization_private_key_path);
    ASSERT_OK(key);
    auto org = api::Client::Create(api::Credentials::Organization(sandbox_->credentials().organization_id, *key),
                                   client_->options());
    ASSERT_OK(org);
    org_.emplace(*org);
  }
  void TearDown() override {
    if (sandbox_) sandbox_->Stop();
    sandbox_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // One signed call of endpoint `tmpl` ("/v2/invoice/{id}") that must answer 200; records it.
  std::string Call(const api::Client& client, const std::string& method, const std::string& tmpl,
                   const std::string& id = {}, const api::Query& query = {}, const Json& body = nullptr) {
    std::string path = tmpl;
    for (const char* ph : {"{id}", "{uuid}"})
      if (auto at = path.find(ph); at != std::string::npos) path.replace(at, std::string(ph).size(), id);
    auto r = client.Call(method, path, query, body.is_null() ? std::string() : body.dump());
    EXPECT_OK(r) << method << " " << path;
    if (!r.ok()) return {};
    EXPECT_EQ(r->http_status, 200) << method << " " << path;
    called_.insert(method + " " + tmpl);
    return r->body;
  }
  Json J(const std::string& method, const std::string& tmpl, const std::string& id = {}, const api::Query& query = {},
         const Json& body = nullptr) {
    std::string text = Call(*client_, method, tmpl, id, query, body);
    return Json::parse(text, nullptr, false);
  }
  Json Post(const std::string& tmpl, const Json& body) { return J("POST", tmpl, {}, {}, body); }

  // Unsigned POST /sandbox/<name> of the simulation API.
  Json Sim(const std::string& name, const Json& body) {
    const std::string url = "http://127.0.0.1:" + std::to_string(sandbox_->port()) + "/sandbox/" + name;
    const test_util::HttpReply reply = test_util::TestRequest("POST", url).Body(body.dump()).Send();
    EXPECT_EQ(reply.curl_code, CURLE_OK) << url;
    EXPECT_EQ(reply.status, 200) << name << ": " << reply.body;
    return Json::parse(reply.body, nullptr, false);
  }

  static std::string Id(const Json& entity, const char* key = "id") {
    return entity.is_object() && entity.contains(key) && entity[key].is_string() ? entity[key].get<std::string>() : "";
  }

  std::string dir_;
  std::unique_ptr<sandbox::Sandbox> sandbox_;
  std::optional<api::Client> client_;
  std::optional<api::Client> org_;
  std::set<std::string> called_;
};

const Json kHolder = {
    {"holderName", "Kaladin Stormblessed"},
    {"holderEmail", "kaladin@example.com"},
    {"holderPhone", "11985923451"},
    {"billingCountryCode", "BRA"},
    {"billingCity", "Sao Paulo"},
    {"billingStateCode", "SP"},
    {"billingStreetLine1", "Rua Casterly Rock, 2000"},
    {"billingStreetLine2", "1 andar"},
    {"billingZipCode", "01450-000"},
    {"metadata",
     {{"userAgent", "Mozilla"}, {"userIp", "255.255.255.255"}, {"language", "pt-BR"}, {"timezoneOffset", 3}}}};

Json Boleto(std::int64_t amount, Json extra = Json::object()) {
  Json b = {{"amount", amount},          {"name", "Arya Stark"}, {"taxId", "012.345.678-90"},
            {"streetLine1", "Rua A, 1"}, {"streetLine2", ""},    {"district", "Centro"},
            {"city", "Sao Paulo"},       {"stateCode", "SP"},    {"zipCode", "01000-000"}};
  b.update(extra);
  return b;
}
Json Invoice(std::int64_t amount, Json extra = Json::object()) {
  Json i = {{"amount", amount}, {"name", "Arya Stark"}, {"taxId", "012.345.678-90"}};
  i.update(extra);
  return i;
}
Json TransferTo(std::int64_t amount, const char* bank, Json extra = Json::object()) {
  Json t = {{"amount", amount},           {"bankCode", bank},   {"branchCode", "0001"},
            {"accountNumber", "10000-0"}, {"name", "Jon Snow"}, {"taxId", "012.345.678-90"}};
  t.update(extra);
  return t;
}

TEST_F(ClientEndpointsE2E, EveryEndpointSucceedsThroughTheCppClient) {
  const std::string later = "2099-01-05";
  std::map<std::string, std::string> ids;  // resource name -> id (uuid for dynamic-brcode)
  Sim("deposit", {{"amount", 10'000'000}});
  Sim("deposit", {{"amount", 1000}, {"tags", {"e2e-reverse"}}});
  Sim("boleto/autopay", {{"percent", 0}});

  // ---- Creates ----
  const std::string webhook = Id(
      Post("/v2/webhook", {{"url", "http://127.0.0.1:9/hook"}, {"subscriptions", {"invoice", "deposit"}}})["webhook"]);
  Json receivers = Post("/v2/split-receiver", {{"receivers",
                                                {{{"name", "Sansa Stark"},
                                                  {"taxId", "012.345.678-90"},
                                                  {"bankCode", "18236120"},
                                                  {"branchCode", "0001"},
                                                  {"accountNumber", "10000-0"},
                                                  {"accountType", "checking"}}}}})["receivers"];
  ids["split-receiver"] = Id(receivers[0]);
  Json profiles =
      J("PUT", "/v2/split-profile", {}, {}, {{"profiles", {{{"interval", "day"}, {"delay", 0}}}}})["profiles"];
  ids["split-profile"] = Id(profiles[0]);
  Json invoices =
      Post("/v2/invoice", {{"invoices",
                            {Invoice(5000, {{"splits", {{{"receiverId", ids["split-receiver"]}, {"amount", 300}}}}}),
                             Invoice(700), Invoice(800), Invoice(5000)}}})["invoices"];
  ids["invoice"] = Id(invoices[0]);
  ids["dynamic-brcode"] = Id(Post("/v2/dynamic-brcode", {{"brcodes", {{{"amount", 2590}}}}})["brcodes"][0], "uuid");
  Json boletos = Post("/v2/boleto", {{"boletos", {Boleto(1000), Boleto(500), Boleto(3000), Boleto(3100)}}})["boletos"];
  ids["boleto"] = Id(boletos[0]);
  ids["boleto-holmes"] = Id(Post("/v2/boleto-holmes", {{"holmes", {{{"boletoId", ids["boleto"]}}}}})["holmes"][0]);
  Json subscription = Post("/v2/invoice-pull-subscription", {{"subscriptions",
                                                              {{{"displayDescription", "Gym membership"},
                                                                {"externalId", "e2e-gym"},
                                                                {"interval", "month"},
                                                                {"name", "Arya Stark"},
                                                                {"pullMode", "manual"},
                                                                {"pullRetryLimit", 3},
                                                                {"referenceCode", "e2e-contract"},
                                                                {"start", "2099-01-01"},
                                                                {"taxId", "012.345.678-90"},
                                                                {"type", "qrcode"},
                                                                {"amount", 5000}}}}})["subscriptions"][0];
  ids["invoice-pull-subscription"] = Id(subscription);
  Json session = Post("/v2/merchant-session", {{"allowedFundingTypes", {"credit", "debit"}},
                                               {"allowedInstallments", {{{"totalAmount", 5000}, {"count", 1}}}},
                                               {"expiration", 3600},
                                               {"challengeMode", "disabled"}})["session"];
  ids["merchant-session"] = Id(session);
  Json card = kHolder;
  card.update({{"cardNumber", "4242424242424242"},
               {"cardExpiration", "2035-01"},
               {"cardSecurityCode", "123"},
               {"fundingType", "credit"},
               {"amount", 5000},
               {"installmentCount", 1}});
  Json purchase = J("POST", "/v2/merchant-session/{uuid}/purchase", Id(session, "uuid"), {}, card)["purchase"];
  ids["merchant-card"] = Id(purchase, "cardId");
  Json direct = kHolder;
  direct.update(
      {{"amount", 1500}, {"cardId", ids["merchant-card"]}, {"fundingType", "credit"}, {"installmentCount", 1}});
  ids["merchant-purchase"] = Id(Post("/v2/merchant-purchase", direct)["purchase"]);
  Json transfers = Post("/v2/transfer",
                        {{"transfers",
                          {TransferTo(1234, "20018183", {{"tags", {"e2e"}}}),
                           TransferTo(55, "341", {{"scheduled", later}, {"externalId", "e2e-later"}})}}})["transfers"];
  ids["transfer"] = Id(transfers[0]);
  const std::string desc = "E2E payment of a bill";
  Json brcode_payments = Post(
      "/v2/brcode-payment", {{"payments",
                              {{{"brcode", invoices[1]["brcode"]}, {"taxId", "012.345.678-90"}, {"description", desc}},
                               {{"brcode", invoices[2]["brcode"]},
                                {"taxId", "012.345.678-90"},
                                {"description", desc},
                                {"scheduled", later}}}}})["payments"];
  ids["brcode-payment"] = Id(brcode_payments[0]);
  Json boleto_payments =
      Post("/v2/boleto-payment", {{"payments",
                                   {{{"line", boletos[2]["line"]}, {"taxId", "012.345.678-90"}, {"description", desc}},
                                    {{"line", boletos[3]["line"]},
                                     {"taxId", "012.345.678-90"},
                                     {"description", desc},
                                     {"scheduled", later}}}}})["payments"];
  ids["boleto-payment"] = Id(boleto_payments[0]);
  auto bar_codes = [&](const std::string& resource, int segment) {
    Json made =
        Post("/v2/" + resource,
             {{"payments",
               {{{"barCode", UtilityBarCode(segment, 4321)}, {"description", desc}},
                {{"barCode", UtilityBarCode(segment, 50)}, {"description", desc}, {"scheduled", later}}}}})["payments"];
    ids[resource] = Id(made[0]);
    return made;
  };
  Json utility_payments = bar_codes("utility-payment", 2);
  Json tax_payments = bar_codes("tax-payment", 5);
  Json darf = {{"revenueCode", "1240"},      {"taxId", "012.345.678-90"},
               {"competence", "2020-09-01"}, {"referenceNumber", "2340978970"},
               {"nominalAmount", 1234},      {"fineAmount", 12},
               {"interestAmount", 34},       {"due", "2099-10-28"},
               {"description", desc}};
  Json darf_later = darf;
  darf_later["scheduled"] = later;
  Json darf_payments = Post("/v2/darf-payment", {{"payments", {darf, darf_later}}})["payments"];
  ids["darf-payment"] = Id(darf_payments[0]);
  Json previews = Post("/v2/payment-preview", {{"previews", {{{"id", invoices[3]["brcode"]}}}}})["previews"];
  EXPECT_EQ(previews[0].value("type", ""), "brcode-payment");
  Post("/v2/payment-request",
       {{"requests",
         {{{"centerId", "5967314465849344"}, {"type", "transfer"}, {"payment", TransferTo(200, "20018183")}}}}});
  ids["workspace"] =
      Id(Json::parse(Call(*org_, "POST", "/v2/workspace", {}, {}, {{"name", "E2E Store"}, {"username", "e2e-store"}}),
                     nullptr, false)["workspace"]);

  // ---- Payer side and time: payments processed, invoice paid (split), purchases confirmed ----
  Sim("invoice/pay", {{"id", ids["invoice"]}});
  Sim("clock", {{"advance", 61}});  // subscription active, payments succeeded, purchases confirmed
  ids["invoice-pull-request"] =
      Id(Post("/v2/invoice-pull-request", {{"requests",
                                            {{{"subscriptionId", ids["invoice-pull-subscription"]},
                                              {"invoiceId", ids["invoice"]},
                                              {"due", "2099-02-01"},
                                              {"attemptType", "default"}}}}})["requests"][0]);
  // Reversals write the `reversed` logs that have PDF receipts.
  J("PATCH", "/v2/invoice/{id}", ids["invoice"], {}, {{"amount", 4000}});
  api::Query tagged;
  tagged.Add("tags", std::vector<std::string>{"e2e-reverse"});
  ids["deposit"] = Id(J("GET", "/v2/deposit", {}, tagged)["deposits"][0]);
  J("PATCH", "/v2/deposit/{id}", ids["deposit"], {}, {{"amount", 400}});
  J("PATCH", "/v2/merchant-purchase/{id}", ids["merchant-purchase"], {}, {{"status", "reversed"}, {"amount", 1000}});
  J("PATCH", "/v2/brcode-payment/{id}", Id(brcode_payments[1]), {}, {{"status", "canceled"}});
  Call(*org_, "PATCH", "/v2/workspace/{id}", ids["workspace"], {}, {{"name", "E2E Store Renamed"}});
  sandbox_->Flush();  // webhook deliveries to a closed port: events and failed attempts

  // ---- Every read endpoint, generically ----
  std::map<std::string, std::string> log_ids;
  for (const api::Endpoint& ep : api::Endpoints()) {
    if (ep.method != "GET") continue;
    const std::string name(ep.resource->name);
    const std::string key = ep.is_log ? "logs" : std::string(ep.resource->plural_key);
    if (ep.op == api::kList) {
      api::Query q;
      q.Add("limit", std::int64_t{5});
      if (name == "payment-request") q.Add("centerId", "5967314465849344");
      if (ep.is_log && ep.resource->Has(api::kLogPdf)) q.Add("types", std::vector<std::string>{"reversed"});
      Json list = J("GET", ep.path, {}, q);
      ASSERT_TRUE(list.contains(key) && list[key].is_array()) << ep.path << ": " << list.dump();
      ASSERT_FALSE(list[key].empty()) << ep.path << " lists nothing";
      if (ep.is_log) {
        log_ids[name] = Id(list[key][0]);
      } else if (!ids.count(name)) {
        ids[name] = Id(list[key][0], name == "dynamic-brcode" ? "uuid" : "id");
      }
      continue;
    }
    const std::string id = ep.is_log ? log_ids[name] : ids[name];
    ASSERT_FALSE(id.empty()) << "no id for " << ep.path;
    api::Query q;
    if (ep.op == api::kQrcode) q.Add("size", std::int64_t{8});
    std::string bytes = Call(*client_, "GET", ep.path, id, q);
    if (ep.op == api::kPdf) {
      EXPECT_EQ(bytes.substr(0, 4), "%PDF") << ep.path;
    }
    if (ep.op == api::kQrcode) {
      EXPECT_EQ(bytes.substr(0, 4), "\x89PNG") << ep.path;
    }
    if (ep.op == api::kGet || ep.op == api::kPaymentSub) {
      Json doc = Json::parse(bytes, nullptr, false);
      EXPECT_TRUE(doc.is_object() && doc.size() == 1) << ep.path << ": " << bytes.substr(0, 200);
    }
  }

  // ---- Patches on what the generic pass found, then DELETEs on entities made for them ----
  J("PATCH", "/v2/event/{id}", ids["event"], {}, {{"isDelivered", true}});
  // What the clock and the payer did, read back through the client.
  EXPECT_EQ(J("GET", "/v2/transfer/{id}", ids["transfer"])["transfer"].value("status", ""), "success");
  EXPECT_EQ(J("GET", "/v2/invoice/{id}", ids["invoice"])["invoice"].value("status", ""), "paid");
  EXPECT_EQ(J("GET", "/v2/invoice/{id}", Id(invoices[1]))["invoice"].value("status", ""), "paid");
  EXPECT_EQ(J("GET", "/v2/invoice-pull-subscription/{id}", ids["invoice-pull-subscription"])["subscription"].value(
                "status", ""),
            "active");
  for (const char* resource : {"boleto-payment", "utility-payment", "tax-payment", "darf-payment"})
    EXPECT_EQ(J("GET", std::string("/v2/") + resource + "/{id}", ids[resource])["payment"].value("status", ""),
              "success")
        << resource;
  const std::pair<std::string, std::string> cancels[] = {
      {"/v2/transfer/{id}", Id(transfers[1])},
      {"/v2/boleto/{id}", Id(boletos[1])},
      {"/v2/boleto-payment/{id}", Id(boleto_payments[1])},
      {"/v2/utility-payment/{id}", Id(utility_payments[1])},
      {"/v2/tax-payment/{id}", Id(tax_payments[1])},
      {"/v2/darf-payment/{id}", Id(darf_payments[1])},
      {"/v2/invoice-pull-request/{id}", ids["invoice-pull-request"]},
      {"/v2/invoice-pull-subscription/{id}", ids["invoice-pull-subscription"]}};
  for (const auto& [path, id] : cancels) {
    Json deleted = J("DELETE", path, id);
    ASSERT_TRUE(deleted.is_object() && deleted.size() == 1) << path << ": " << deleted.dump();
    EXPECT_EQ(deleted.begin().value().value("status", ""), "canceled") << path;
  }
  J("DELETE", "/v2/event/{id}", ids["event"]);
  J("DELETE", "/v2/webhook/{id}", webhook);

  std::set<std::string> all;
  for (const api::Endpoint& ep : api::Endpoints()) all.insert(std::string(ep.method) + " " + ep.path);
  std::vector<std::string> missing;
  for (const auto& e : all)
    if (!called_.count(e)) missing.push_back(e);
  std::cout << "C++ client exercised " << called_.size() << " of " << all.size() << " endpoints against the sandbox\n";
  for (const auto& m : missing) std::cout << "  not exercised: " << m << "\n";
  EXPECT_EQ(all.size(), 140u);
  EXPECT_EQ(called_, all);
}

}  // namespace
}  // namespace balcao
