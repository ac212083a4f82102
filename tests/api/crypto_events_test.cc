// Webhook events (api/events.h): parsing real deliveries, tolerance of unknown
// subscriptions and log types, and the verifier's key fetching, counted call by call.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "api/events.h"
#include "tests/api/crypto_test_util.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::api {
namespace {

using ::testing::HasSubstr;
using testing::LoadWebhookVectors;

class FakeClock : public Clock {
 public:
  UnixMicros Now() const override { return now; }
  UnixMicros now = 1'700'000'000 * kMicrosPerSecond;
};

// A key server that counts its calls and serves whatever PEM the test sets.
struct KeyServer {
  std::atomic<int> calls{0};
  std::string pem;
  Status failure;  // when not OK, the fetch fails with it
  EventVerifier::PublicKeyFetcher Fetcher() {
    return [this]() -> StatusOr<std::string> {
      ++calls;
      if (!failure.ok()) return failure;
      return pem;
    };
  }
};

std::string Tampered(std::string signature) {
  // docs/wire.md, "Webhook test vectors": the SDK tests' "invalid" signature changes the last
  // character.
  signature.back() = signature.back() == '6' ? '5' : '6';
  return signature;
}

TEST(ParseEvent, ReadsRealDeliveries) {
  const auto v = LoadWebhookVectors();
  auto transfer = ParseEvent(v.vectors[0].content);
  ASSERT_OK(transfer);
  EXPECT_EQ(transfer->id, "6234355449987072");
  EXPECT_EQ(FormatTimestamp(transfer->created), "2020-04-03T13:20:40.784479+00:00");
  EXPECT_EQ(transfer->subscription, "transfer");
  EXPECT_EQ(transfer->workspace_id, "");
  EXPECT_FALSE(transfer->is_delivered.has_value());
  EXPECT_EQ(transfer->log.id, "5648419829841920");
  EXPECT_EQ(transfer->log.type, "sending");
  EXPECT_EQ(transfer->log.entity_key, "transfer");
  EXPECT_EQ(transfer->log.entity_id, "5107489032896512");
  EXPECT_EQ(transfer->log.entity_status, "processing");
  EXPECT_THAT(transfer->log.entity_json, HasSubstr("\"name\":\"Lawrence James\""));
  EXPECT_TRUE(transfer->log.errors.empty());

  auto invoice = ParseEvent(v.vectors[2].content);
  ASSERT_OK(invoice);
  EXPECT_EQ(invoice->subscription, "invoice");
  EXPECT_EQ(invoice->workspace_id, "5078376503050240");
  EXPECT_EQ(invoice->log.type, "created");
  EXPECT_EQ(invoice->log.entity_key, "invoice");
  EXPECT_EQ(invoice->log.entity_id, "5941925571985408");
}

TEST(ParseEvent, FindsTheEntityOfEverySubscriptionShape) {
  // A merchant-card delivery from the SDK tests (docs/wire.md, "Webhooks"): merchant-card logs
  // hold the entity under "card".
  auto card = ParseEvent(
      R"({"event": {"created": "2025-10-16T19:33:33.957137+00:00", "id": "4824539051589632", "log": {"card": {"created": "2025-10-16T19:33:33.667314+00:00", "ending": "9733", "id": "5596404638547968", "status": "active"}, "created": "2025-10-16T19:33:33.672780+00:00", "errors": [], "id": "6722304545390592", "type": "active"}, "subscription": "merchant-card", "workspaceId": "6314371953197056"}})");
  ASSERT_OK(card);
  EXPECT_EQ(card->log.entity_key, "card");
  EXPECT_EQ(card->log.entity_id, "5596404638547968");
  // payment-request logs also carry the acting user (docs/wire.md, "Statuses and log types").
  auto request = ParseEvent(
      R"({"event": {"created": "2021-01-01T00:00:00+00:00", "id": "1", "subscription": "payment-request", "log": {"created": "2021-01-01", "errors": [{"code": "x"}], "id": "2", "type": "created", "updated": "2021-01-01", "user": {"id": "9", "type": "member"}, "request": {"id": "3", "status": "pending"}}}})");
  ASSERT_OK(request);
  EXPECT_EQ(request->log.entity_key, "request");
  EXPECT_EQ(request->log.entity_status, "pending");
  EXPECT_THAT(request->log.errors, ::testing::ElementsAre(R"({"code":"x"})"));
}

TEST(ParseEvent, ToleratesUnknownSubscriptionsAndLogTypes) {
  auto future = ParseEvent(
      R"({"event": {"created": "2030-01-01T00:00:00Z", "id": "77", "subscription": "teleport-order", "isDelivered": true, "novelty": [1, 2], "log": {"created": "2030-01-01T00:00:00Z", "id": "78", "type": "beamed", "capsule": {"id": "79"}}}})");
  ASSERT_OK(future);
  EXPECT_EQ(future->subscription, "teleport-order");
  EXPECT_EQ(future->log.type, "beamed");
  EXPECT_EQ(future->log.entity_key, "capsule");
  EXPECT_EQ(future->log.entity_id, "79");
  EXPECT_EQ(future->is_delivered, std::optional<bool>(true));
}

TEST(ParseEvent, BadBodiesNameTheField) {
  struct Case {
    const char* body;
    const char* error;
  };
  for (
      const Case& c : std::initializer_list<Case>{
          {"not json", "not valid JSON"},
          {"[1]", "must be a JSON object"},
          {R"({"acquirerId": "236090", "amount": 100})", "no \"event\" object"},
          {R"({"event": 5})", "event: must be an object"},
          {R"({"event": {"created": "2020-01-01", "subscription": "x", "log": {}}})", "event.id: required"},
          {R"({"event": {"id": 1.5, "created": "2020-01-01", "subscription": "x", "log": {}}})",
           "event.id: must be a string"},
          {R"({"event": {"id": "1", "created": "yesterday", "subscription": "x", "log": {}}})", "event.created:"},
          {R"({"event": {"id": "1", "created": "2020-01-01", "subscription": "x"}})", "event.log: required"},
          {R"({"event": {"id": "1", "created": "2020-01-01", "subscription": "x", "log": {"id": "2", "created": "2020-01-01"}}})",
           "event.log.type: required"},
          {R"({"event": {"id": "1", "created": "2020-01-01", "subscription": "x", "log": {"id": "2", "type": "t", "created": "2020-01-01", "errors": "no"}}})",
           "event.log.errors: must be a list"},
      }) {
    auto r = ParseEvent(c.body);
    ASSERT_THAT(r, Not(IsOk())) << c.body;
    EXPECT_THAT(r, StatusIs(StatusCode::kInvalidArgument));
    EXPECT_THAT(r.status().message(), HasSubstr(c.error)) << c.body;
  }
}

class EventVerifierTest : public ::testing::Test {
 protected:
  EventVerifierTest() : vectors_(LoadWebhookVectors()) { server_.pem = vectors_.public_key_pem; }
  EventVerifier MakeVerifier() { return EventVerifier(server_.Fetcher(), {.clock = &clock_}); }
  const testing::WebhookVector& Vector(int i) const { return vectors_.vectors[i]; }

  testing::WebhookVectors vectors_;
  KeyServer server_;
  FakeClock clock_;
};

TEST_F(EventVerifierTest, FetchesTheKeyOnceAndCachesIt) {
  EventVerifier verifier = MakeVerifier();
  for (const auto& vec : vectors_.vectors) EXPECT_OK(verifier.Verify(vec.content, vec.signature)) << vec.source;
  EXPECT_EQ(server_.calls, 1);
  auto event = verifier.Parse(Vector(2).content, Vector(2).signature);
  ASSERT_OK(event);
  EXPECT_EQ(event->id, "5415223380934656");
  EXPECT_EQ(server_.calls, 1);
}

TEST_F(EventVerifierTest, MismatchRefetchesExactlyOnce) {
  EventVerifier verifier = MakeVerifier();
  Status st = verifier.Verify(Vector(0).content, Tampered(Vector(0).signature));
  EXPECT_THAT(st, StatusIs(StatusCode::kPermissionDenied));
  EXPECT_THAT(st.message(), HasSubstr("do not match the bank public key"));
  EXPECT_EQ(server_.calls, 2) << "first fetch, then one refetch";

  // A body changed by one byte, with a key already cached: one refetch.
  EventVerifier warm = MakeVerifier();
  warm.SetPublicKey(PublicKey::FromPem(vectors_.public_key_pem).value());
  server_.calls = 0;
  std::string body = Vector(2).content;
  body[body.size() / 2] ^= 1;
  EXPECT_THAT(warm.Verify(body, Vector(2).signature), StatusIs(StatusCode::kPermissionDenied));
  EXPECT_EQ(server_.calls, 1);
  // A flood of forgeries inside the refetch interval does not fetch again...
  for (int i = 0; i < 20; ++i) EXPECT_THAT(warm.Verify(body, Vector(2).signature), Not(IsOk()));
  EXPECT_EQ(server_.calls, 1);
  // ...and valid deliveries keep verifying meanwhile.
  EXPECT_OK(warm.Verify(Vector(2).content, Vector(2).signature));
  clock_.now += 61 * kMicrosPerSecond;
  EXPECT_THAT(warm.Verify(body, Vector(2).signature), Not(IsOk()));
  EXPECT_EQ(server_.calls, 2);
}

TEST_F(EventVerifierTest, MalformedSignaturesNeverFetch) {
  EventVerifier verifier = MakeVerifier();
  const std::string der = Base64Decode(Vector(0).signature).value();
  for (const std::string& sig :
       {std::string("something is definitely wrong"), std::string(), Base64Encode(der.substr(0, der.size() - 1)),
        Vector(0).signature + "=", Base64Encode(der + '\0')}) {
    Status st = verifier.Verify(Vector(0).content, sig);
    EXPECT_THAT(st, StatusIs(StatusCode::kInvalidArgument)) << sig;
    EXPECT_THAT(st.message(), HasSubstr("Digital-Signature is not valid")) << sig;
  }
  EXPECT_EQ(server_.calls, 0);
}

TEST_F(EventVerifierTest, FollowsAKeyRotation) {
  const PrivateKey old_key = PrivateKey::Generate();
  const PrivateKey new_key = PrivateKey::Generate();
  EventVerifier verifier = MakeVerifier();
  verifier.SetPublicKey(old_key.public_key());
  server_.pem = new_key.public_key().ToPem();
  const std::string body = R"({"event": {"id": "1"}})";
  EXPECT_OK(verifier.Verify(body, old_key.Sign(body)));
  EXPECT_EQ(server_.calls, 0);
  EXPECT_OK(verifier.Verify(body, new_key.Sign(body)));
  EXPECT_EQ(server_.calls, 1);
  EXPECT_OK(verifier.Verify(body, new_key.Sign(body)));
  EXPECT_EQ(server_.calls, 1);
}

TEST_F(EventVerifierTest, FetchFailuresAreReportedAndRetriedLater) {
  EventVerifier verifier = MakeVerifier();
  server_.failure = UnavailableError("connection refused");
  Status st = verifier.Verify(Vector(0).content, Vector(0).signature);
  EXPECT_THAT(st, StatusIs(StatusCode::kUnavailable));
  EXPECT_THAT(st.message(), HasSubstr("fetching the bank public key: connection refused"));
  server_.failure = OkStatus();
  EXPECT_OK(verifier.Verify(Vector(0).content, Vector(0).signature));
  EXPECT_EQ(server_.calls, 2);

  EventVerifier garbage_key = MakeVerifier();
  server_.pem = "<html>oops</html>";
  Status bad = garbage_key.Verify(Vector(0).content, Vector(0).signature);
  EXPECT_THAT(bad, StatusIs(StatusCode::kInternal));
  EXPECT_THAT(bad.message(), HasSubstr("not usable"));
}

TEST_F(EventVerifierTest, ConcurrentFirstUseFetchesOnce) {
  EventVerifier verifier = MakeVerifier();
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        const auto& vec = Vector(i % 3);
        if (verifier.Verify(vec.content, vec.signature).ok()) ++ok;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok, 160);
  EXPECT_EQ(server_.calls, 1);
}

}  // namespace
}  // namespace balcao::api
