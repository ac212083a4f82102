// The seeded account (docs/sandbox.md, "A seeded account"): the same seed on a new database
// gives the same ids and documents, another seed another history, and every listable
// resource holds at least 200 entities. Three in-process sandboxes, read over loopback HTTP
// with signed requests; ticks are off so that nothing runs after the history was written.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "api/resources.h"
#include "tests/sandbox/sandbox_client.h"

namespace balcao::sandbox::testing {
namespace {

std::unique_ptr<Sandbox> StartSeeded(std::uint64_t seed, unsigned short port = 0) {
  SandboxOptions options;
  options.db = ":memory:";
  options.https = false;
  options.port = port;
  options.tick_millis = 3'600'000;
  options.seed = seed;
  auto started = Sandbox::Start(options);
  EXPECT_TRUE(started.ok()) << started.status().ToString();
  return started.ok() ? std::move(*started) : nullptr;
}

// The newest `count` documents of a list (fewer when the list is shorter), as one text.
Json Newest(Sandbox& sandbox, const std::string& resource, std::size_t count, const std::string& query = "") {
  const auto& cred = sandbox.credentials();
  auto key = api::PrivateKey::FromPem(cred.project_private_key_pem);
  Client client("http://127.0.0.1:" + std::to_string(sandbox.port()), "project/" + cred.project_id, *key);
  const bool is_log = resource.find("/log") != std::string::npos;
  const std::string plural(is_log ? "logs" : api::FindResource(resource)->plural_key);
  Json items = Json::array();
  std::string cursor;
  while (items.size() < count) {
    Reply r = client.Get("/v2/" + resource + "?limit=100" + query + (cursor.empty() ? "" : "&cursor=" + cursor));
    EXPECT_EQ(r.status, 200) << resource << ": " << r.body;
    if (r.status != 200) break;
    for (auto& item : r.json[plural]) items.push_back(item);
    if (!r.json["cursor"].is_string()) break;
    cursor = r.json["cursor"].get<std::string>();
  }
  return items;
}

const char* const kListed[] = {"boleto",
                               "boleto/log",
                               "boleto-holmes",
                               "boleto-payment",
                               "brcode-payment/log",
                               "darf-payment",
                               "deposit",
                               "dynamic-brcode",
                               "event",
                               "event/attempt",
                               "invoice",
                               "invoice/log",
                               "invoice-pull-subscription",
                               "invoice-pull-request",
                               "merchant-session",
                               "merchant-purchase",
                               "merchant-card",
                               "merchant-installment/log",
                               "split",
                               "split-receiver",
                               "split-profile/log",
                               "tax-payment",
                               "utility-payment/log",
                               "transaction",
                               "transfer",
                               "payment-request"};

std::map<std::string, Json> ReadAll(Sandbox& sandbox) {
  std::map<std::string, Json> lists;
  for (const std::string resource : kListed) {
    const std::string query = resource == "payment-request" ? "&centerId=" + sandbox.credentials().center_id : "";
    lists[resource] = Newest(sandbox, resource, 200, query);
  }
  return lists;
}

TEST(SeededSandbox, SameSeedGivesSameIdsAndDocumentsAndAnotherSeedAnotherHistory) {
  // The second start reuses the first one's port: public links (and the BR Codes that hold
  // them) name the sandbox's address.
  auto first = StartSeeded(1);
  ASSERT_TRUE(first);
  const unsigned short port = first->port();
  const SandboxCredentials credentials = first->credentials();
  const auto lists = ReadAll(*first);
  first.reset();
  auto second = StartSeeded(1, port);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->credentials().project_id, credentials.project_id);
  EXPECT_EQ(second->credentials().center_id, credentials.center_id);
  EXPECT_FALSE(credentials.card_id.empty());
  EXPECT_EQ(second->credentials().card_id, credentials.card_id);
  const auto again = ReadAll(*second);
  for (const auto& [resource, items] : lists) {
    EXPECT_EQ(items.size(), 200u) << resource << " holds fewer than 200 entities";
    EXPECT_TRUE(items == again.at(resource)) << resource << " differs between two starts from seed 1";
  }
  second.reset();
  auto other = StartSeeded(2);
  ASSERT_TRUE(other);
  const Json others = Newest(*other, "invoice", 200);
  EXPECT_EQ(others.size(), 200u);
  EXPECT_NE(others, lists.at("invoice"));
}

TEST(SeededSandbox, TheLibrarySandboxIsEmptyUnlessAsked) {
  SandboxOptions options;
  options.db = ":memory:";
  options.https = false;
  auto sandbox = Sandbox::Start(options);
  ASSERT_TRUE(sandbox.ok());
  EXPECT_EQ((*sandbox)->CountForTest("invoice"), 0);
  EXPECT_TRUE((*sandbox)->credentials().card_id.empty());
  EXPECT_FALSE((*sandbox)->credentials().center_id.empty());
}

}  // namespace
}  // namespace balcao::sandbox::testing
