// The client's call observer (ClientOptions::observer, Client::WithObserver): one record per
// call with the endpoint template (never an id), the outcome class, the attempts and the time,
// against a real loopback server answering 200, 400, 500, dropping the connection, and a
// closed port. Also EndpointTemplateOf over the resource table.
#include <gtest/gtest.h>

#include <mutex>
#include <regex>
#include <vector>

#include "api/bank.h"
#include "api/resources.h"
#include "tests/api/client_test_util.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::testing::Not;

namespace balcao::api {
namespace {

using testing::RecordedRequest;
using testing::Reply;
using testing::SignedServer;

TEST(EndpointTemplate, NamesTheRouteNotTheIds) {
  EXPECT_EQ(EndpointTemplateOf("GET", "/v2/invoice"), "/v2/invoice");
  EXPECT_EQ(EndpointTemplateOf("POST", "/v2/invoice"), "/v2/invoice");
  EXPECT_EQ(EndpointTemplateOf("GET", "/v2/invoice/5155165527080960"), "/v2/invoice/{id}");
  EXPECT_EQ(EndpointTemplateOf("PATCH", "/v2/invoice/5155165527080960"), "/v2/invoice/{id}");
  EXPECT_EQ(EndpointTemplateOf("GET", "/v2/invoice/5155165527080960/payment"), "/v2/invoice/{id}/payment");
  EXPECT_EQ(EndpointTemplateOf("GET", "/v2/invoice/log/77"), "/v2/invoice/log/{id}");
  EXPECT_EQ(EndpointTemplateOf("GET", "/v2/dynamic-brcode/4f2c"), "/v2/dynamic-brcode/{uuid}");
  EXPECT_EQ(EndpointTemplateOf("POST", "/v2/merchant-session/9a1b/purchase"), "/v2/merchant-session/{uuid}/purchase");
  EXPECT_EQ(EndpointTemplateOf("DELETE", "/v2/webhook/12"), "/v2/webhook/{id}");
  // A literal segment wins over a placeholder.
  EXPECT_EQ(EndpointTemplateOf("GET", "/v2/event/attempt"), "/v2/event/attempt");
  EXPECT_EQ(EndpointTemplateOf("GET", "/v2/event/5"), "/v2/event/{id}");
  // Anything else is one bounded value.
  EXPECT_EQ(EndpointTemplateOf("GET", "/v2/no-such-thing/1"), "other");
  EXPECT_EQ(EndpointTemplateOf("DELETE", "/v2/balance"), "other");
  EXPECT_EQ(EndpointTemplateOf("GET", "/v2/invoice/"), "other");  // an empty id is no id
}

TEST(EndpointTemplate, EveryEndpointWithIdsFilledInMapsBackToATemplateOfTheSameShape) {
  const std::regex placeholder(R"(\{[a-z]+\})");
  for (const Endpoint& endpoint : Endpoints()) {
    const std::string concrete = std::regex_replace(endpoint.path, placeholder, "4242");
    const std::string_view got = EndpointTemplateOf(endpoint.method, concrete);
    EXPECT_EQ(std::regex_replace(std::string(got), placeholder, "4242"), concrete)
        << endpoint.method << " " << endpoint.path << " -> " << got;
  }
}

// Records what the observer was told.
struct Recorder {
  struct Seen {
    std::string method, route, outcome;
    int attempts = 0, http_status = 0;
    std::chrono::nanoseconds elapsed{0};
  };
  std::mutex mu;
  std::vector<Seen> seen;
  CallObserver Observer() {
    return [this](const CallRecord& r) {
      std::lock_guard<std::mutex> lock(mu);
      seen.push_back(
          {std::string(r.method), std::string(r.route), std::string(r.outcome), r.attempts, r.http_status, r.elapsed});
    };
  }
};

TEST(CallObserver, OneRecordPerCallWithRouteOutcomeAttemptsAndTime) {
  SignedServer server([](const RecordedRequest& r) {
    if (r.path == "/v2/invoice/1") return Reply{200, R"({"invoice":{"id":"1","amount":100}})"};
    if (r.path == "/v2/invoice") return Reply{400, R"({"errors":[{"code":"invalidAmount","message":"x"}]})"};
    if (r.path == "/v2/balance") return Reply{500, "fault"};
    Reply drop;
    drop.kind = Reply::Kind::kCloseWithoutAnswer;
    return drop;
  });
  Recorder recorder;
  const Client plain = server.MakeClient(3);
  const Client client = plain.WithObserver(recorder.Observer());

  ASSERT_OK(client.Call("GET", "/v2/invoice/1"));
  EXPECT_OK(plain.Call("GET", "/v2/invoice/1"));  // the plain copy: not observed
  EXPECT_EQ(server.http().connections(), 1) << "the observed copy shares the connection pool";
  EXPECT_THAT(client.Call("POST", "/v2/invoice", {}, R"({"invoices":[]})"), Not(IsOk()));
  EXPECT_THAT(client.Call("GET", "/v2/balance"), Not(IsOk()));              // 500, retried: 3 attempts
  EXPECT_THAT(client.Call("POST", "/v2/transfer", {}, "{}"), Not(IsOk()));  // dropped after sending
  EXPECT_THAT(client.Call("GET", "/v2/invoice/1 2"), Not(IsOk()));          // refused before sending
  EXPECT_TRUE(client.options().observer != nullptr);
  EXPECT_TRUE(plain.options().observer == nullptr);

  ASSERT_EQ(recorder.seen.size(), 4u);
  const auto& ok = recorder.seen[0];
  EXPECT_EQ(ok.method, "GET");
  EXPECT_EQ(ok.route, "/v2/invoice/{id}");
  EXPECT_EQ(ok.outcome, "ok");
  EXPECT_EQ(ok.attempts, 1);
  EXPECT_EQ(ok.http_status, 200);
  EXPECT_GT(ok.elapsed.count(), 0);
  EXPECT_EQ(recorder.seen[1].route, "/v2/invoice");
  EXPECT_EQ(recorder.seen[1].outcome, "rejected");
  EXPECT_EQ(recorder.seen[1].http_status, 400);
  EXPECT_EQ(recorder.seen[2].route, "/v2/balance");
  EXPECT_EQ(recorder.seen[2].outcome, "server_error");
  EXPECT_EQ(recorder.seen[2].attempts, 3);
  EXPECT_EQ(recorder.seen[3].route, "/v2/transfer");
  EXPECT_EQ(recorder.seen[3].outcome, "unknown");
  EXPECT_EQ(recorder.seen[3].attempts, 1);
}

TEST(CallObserver, AClosedPortIsNotSentAfterEveryAttempt) {
  Recorder recorder;
  const test_util::RefusingLoopbackPort refusing;
  ClientOptions o;
  o.base_url = refusing.Url();
  o.retry.initial_backoff = std::chrono::microseconds(1);
  o.observer = recorder.Observer();
  auto client = Client::Create(Credentials::Project("1", PrivateKey::Generate()), o);
  ASSERT_OK(client);
  EXPECT_THAT(Bank(*client).GetBalance(), Not(IsOk()));
  ASSERT_EQ(recorder.seen.size(), 1u);
  EXPECT_EQ(recorder.seen[0].route, "/v2/balance");
  EXPECT_EQ(recorder.seen[0].outcome, "not_sent");
  EXPECT_EQ(recorder.seen[0].attempts, 3);
  EXPECT_EQ(recorder.seen[0].http_status, 0);
}

}  // namespace
}  // namespace balcao::api
