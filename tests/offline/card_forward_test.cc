// Card store-and-forward end to end against the sandbox: card sales sealed while
// "offline", forwarded over loopback HTTP across restarts (with the purchase answer
// dropped after the bank committed it, so the lookup path runs), outcomes recorded
// (approved and declined), every record destroyed, and no card number or security code
// left in any file of the box's data dir (ASCII, hex text, packed BCD).
#include <curl/curl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "offline/api_gateway.h"
#include "offline/card_forwarder.h"
#include "offline/sealed_cards.h"
#include "sandbox/sandbox.h"
#include "tests/offline/test_util.h"

namespace balcao::offline {
namespace {

long PostFaults(unsigned short port, const std::string& body) {
  CURL* curl = curl_easy_init();
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/sandbox/faults";
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(
      curl, CURLOPT_WRITEFUNCTION, +[](char*, size_t s, size_t n, void*) { return s * n; });
  long status = 0;
  if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return status;
}

TEST(OfflineCards, StoreAndForwardToTheSandboxLeavesNoCardData) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / "box");
  const std::string box = (dir.path() / "box").string();
  sandbox::SandboxOptions options;
  options.https = false;
  options.data_dir = dir.File("sandbox");
  options.db = ":memory:";
  auto sandbox = sandbox::Sandbox::Start(options);
  ASSERT_TRUE(sandbox.ok()) << sandbox.status().ToString();
  auto client = DrainerClient((*sandbox)->credentials().credentials_path);
  ASSERT_TRUE(client.ok()) << client.status().ToString();
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
  for (int round = 0; round < 3; ++round) {
    auto store = std::move(*Store::Open(box + "/box.db"));  // a restart per round
    auto sealed = std::move(*SealedCards::Open(*store, settings));
    for (const auto& [number, code, approve] : cards) {
      CardData card;
      card.number = number;
      card.security_code = code;
      card.expiration = "2099-01";
      card.holder_name = "JOAO \"JJ\" PEREIRA";
      const std::string sale_id = "offline-sale-" + std::to_string(sale++);
      ASSERT_TRUE(sealed->Accept(sale_id, 1000 + sale, card).ok());
      expected[sale_id] = approve;
      secrets.push_back(number);
      secrets.push_back(code);
    }
    // The bank commits the first two purchases of the round and the answers are lost.
    ASSERT_EQ(PostFaults((*sandbox)->port(), R"({"POST /v2/merchant-session/{uuid}/purchase":)"
                                             R"(["commit-then-drop-response","commit-then-drop-response"]})"),
              200);
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    for (int pass = 0; pass < 3 && !sealed->Pending()->empty(); ++pass)
      ASSERT_TRUE(sealed->ForwardAll(authorizer, now).ok());
    EXPECT_TRUE(sealed->Pending()->empty()) << "round " << round;
  }
  auto store = std::move(*Store::Open(box + "/box.db"));
  auto sealed = std::move(*SealedCards::Open(*store, settings));
  auto outcomes = *sealed->UnreportedOutcomes();
  ASSERT_EQ(outcomes.size(), expected.size());
  for (const auto& o : outcomes) {
    EXPECT_EQ(o.outcome == CardOutcomeKind::kApproved, expected[o.sale_id]) << o.sale_id << " " << o.reason;
    EXPECT_FALSE(o.bank_id.empty()) << o.sale_id;
  }
  // Exactly one purchase per sale at the bank, despite the lost answers.
  auto purchases = client->Call("GET", "/v2/merchant-purchase", api::Query().Add("limit", std::int64_t{100}));
  ASSERT_TRUE(purchases.ok());
  EXPECT_EQ(nlohmann::json::parse(purchases->body)["purchases"].size(), expected.size());
  sealed.reset();
  store.reset();
  EXPECT_EQ(testing::CountSecretHitsInDir(box, secrets), 0);
}

}  // namespace
}  // namespace balcao::offline
