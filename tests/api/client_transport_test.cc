// The client's transport, error mapping and retry policy, against a real loopback server
// that misbehaves on purpose: malformed and oversized answers, dropped connections,
// refused connections, 5xx. Also the pure pieces: query encoding, AsStatus table,
// timestamps, base URLs, credentials loading.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "api/bank.h"
#include "api/internal/http_status.h"
#include "tests/api/client_test_util.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::api {
namespace {

using testing::RecordedRequest;
using testing::Reply;
using testing::SignedServer;

const char kInvoicePage[] = R"({"cursor":null,"invoices":[{"id":"1","amount":100}]})";

TEST(Query, CommaJoinedAndPercentEncodedLikeTheSdks) {
  Query q;
  q.Add("status", std::vector<std::string>{"paid", "created"}).Add("after", "2024-01-01").Add("cursor", "ab+/=");
  q.Add("isDelivered", false).Add("limit", std::int64_t{7}).Add("name", "José da Silva");
  EXPECT_EQ(q.Encode(),
            "status=paid%2Ccreated&after=2024-01-01&cursor=ab%2B%2F%3D&isDelivered=false&limit=7&"
            "name=Jos%C3%A9%20da%20Silva");
}

TEST(AsStatus, OneTableFromTheBankAnswerToAStatus) {
  struct Row {
    int http;
    std::string body;
    bool by_id;
    StatusCode code;
  };
  const std::vector<Row> rows = {
      {200, "{}", false, StatusCode::kOk},
      {400, R"({"errors":[{"code":"invalidInvoice","message":"no"}]})", true, StatusCode::kNotFound},
      {400, R"({"errors":[{"code":"invalidInvoice","message":"no"}]})", false, StatusCode::kInvalidArgument},
      {400, R"({"errors":[{"code":"invalidWebhookId","message":"no"}]})", true, StatusCode::kNotFound},
      {400, R"({"errors":[{"code":"invalidHolmes","message":"no"}]})", true, StatusCode::kNotFound},
      {400, R"({"errors":[{"code":"invalidOperation","message":"canceled"}]})", true, StatusCode::kFailedPrecondition},
      {400, R"({"errors":[{"code":"immediatePaymentOutOfTime","message":"x"}]})", false,
       StatusCode::kFailedPrecondition},
      {400, R"({"errors":[{"code":"invalidCredentials","message":"x"}]})", false, StatusCode::kFailedPrecondition},
      {400, R"({"errors":[{"code":"invalidAmount","message":"x"},{"code":"invalidTaxId","message":"y"}]})", false,
       StatusCode::kInvalidArgument},
      {400, R"({"errors":[{"code":"somethingNew","message":"x"}]})", false, StatusCode::kInvalidArgument},
      {400, "<html>Bad Request</html>", false, StatusCode::kInternal},
      {400, R"({"errors":[]})", false, StatusCode::kInternal},
      {400, R"({"error":"x"})", false, StatusCode::kInternal},
      {500, "Houston, we have a problem.", false, StatusCode::kInternal},
      {502, "<html>bad gateway</html>", false, StatusCode::kUnknown},
      {404, "", false, StatusCode::kUnknown},
      {418, "{}", false, StatusCode::kUnknown},
  };
  for (const auto& r : rows) {
    Status s = internal::AsStatus(r.http, r.body, "GET /v2/x", r.by_id);
    EXPECT_EQ(s.code(), r.code) << r.http << " " << r.body << " -> " << s.ToString();
    if (r.http != 200) {
      EXPECT_EQ(s.http_status(), r.http);
      EXPECT_EQ(s.delivery(), Delivery::kAnswered);
    }
  }
  Status two = internal::AsStatus(
      400, R"({"errors":[{"code":"invalidAmount","message":"a"},{"code":"invalidTaxId","message":"b"}]})", "POST",
      false);
  ASSERT_EQ(two.errors().size(), 2u);
  EXPECT_EQ(two.errors()[1], (ErrorEntry{"invalidTaxId", "b"}));
  EXPECT_NE(internal::AsStatus(400, "not json", "x", false).message().find("malformed bank response"),
            std::string::npos);
}

TEST(Timestamps, ParsedTolerantlyWrittenCanonically) {
  for (const char* text : {"2024-05-10T15:00:00.123456+00:00", "2024-05-10T15:00:00.123456Z",
                           "2024-05-10T12:00:00.123456-03:00", "2024-05-10T15:00:00.123456789+00:00"}) {
    auto t = Timestamp::Parse(text);
    ASSERT_OK(t) << text;
    EXPECT_EQ(t->ToString(), "2024-05-10T15:00:00.123456+00:00") << text;
  }
  auto date = Timestamp::Parse("2024-05-10");
  ASSERT_OK(date);
  EXPECT_TRUE(date->date_only);
  EXPECT_EQ(date->ToString(), "2024-05-10");
  EXPECT_EQ(Timestamp::Date(2024, 5, 10), *date);
  EXPECT_THAT(Timestamp::Parse("10/05/2024"), Not(IsOk()));
}

TEST(Models, TolerantReadingOfWhatTheBankAndSdksSend) {
  MerchantPurchase p;
  ASSERT_TRUE(ParseModel(R"({"id":"1","amount":"1500","installmentCount":"3","created":"2024-05-10T15:00:00Z",
      "updated":"","tags":null,"metadata":{ "userIp" : "1.2.3.4" },"status":"someNewStatus","extra":[1,{"a":[]}]})",
                         p)
                  .ok());
  EXPECT_EQ(*p.amount, 1500);
  EXPECT_EQ(*p.installment_count, 3);
  EXPECT_EQ(p.created->ToString(), "2024-05-10T15:00:00.000000+00:00");
  EXPECT_FALSE(p.updated.has_value());  // "" means absent
  EXPECT_FALSE(p.tags.has_value());     // null means absent
  EXPECT_EQ(p.metadata->text, R"({"userIp":"1.2.3.4"})");
  EXPECT_EQ(*p.status, "someNewStatus");
  BankEvent e;
  ASSERT_OK(ParseModel(R"({"isDelivered":"False","created":"2024-05-10T12:00:00.5-03:00"})", e));
  EXPECT_FALSE(*e.is_delivered);
  EXPECT_EQ(e.created->ToString(), "2024-05-10T15:00:00.500000+00:00");
  // Written back: canonical timestamps, absent fields omitted, unicode kept.
  Invoice i;
  i.name = "José \"Zé\"";
  i.due = Timestamp::Date(2024, 5, 10);
  i.fine = 2.5;
  EXPECT_EQ(ToJsonText(i), R"({"due":"2024-05-10","fine":2.5,"name":"José \"Zé\""})");
  Invoice back;
  ASSERT_OK(ParseModel(ToJsonText(i), back));
  EXPECT_EQ(back, i);
}

TEST(Models, BadJsonIsAClearErrorNeverACrash) {
  Invoice i;
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const std::string& text :
       {std::string(R"({"amount":1.5})"), std::string(R"({"amount":"12a"})"), std::string(R"({"name":"\ud800"})"),
        std::string(R"({"name":"abc)"), std::string(R"({"name":"a\qb"})"), std::string(R"({"tags":["a",]})"),
        std::string(R"({"amount":01})"), std::string(R"({"x":)" + deep + "}"), std::string("{} trailing"),
        std::string(R"({"due":"2024-13-01"})"), std::string(R"({"amount":99999999999999999999})"), std::string(""),
        std::string("\x00"), std::string(R"({"descriptions":[{"key":1.5}]})")}) {
    Status s = ParseModel(text, i);
    EXPECT_THAT(s, StatusIs(StatusCode::kInvalidArgument)) << text.substr(0, 40);
  }
  Status s = ParseModel(R"({"discounts":[{"percentage":5},{"percentage":"x"}]})", i);
  EXPECT_NE(s.message().find(".discounts[1].percentage: expected a number"), std::string::npos) << s.message();
}

TEST(ClientOptions, HttpOnlyToLoopbackAndBaseUrlNormalised) {
  auto key = PrivateKey::Generate();
  ClientOptions o;
  o.base_url = "http://bank.example.com";
  auto refused = Client::Create(Credentials::Project("1", key), o);
  ASSERT_THAT(refused, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_NE(refused.status().message().find("loopback"), std::string::npos);
  o.base_url = "http://127.0.0.1:8080/v2/";
  auto local = Client::Create(Credentials::Project("1", key), o);
  ASSERT_OK(local);
  EXPECT_EQ(local->base_url(), "http://127.0.0.1:8080");
  auto sandbox = Client::Create(Credentials::Project("1", key));
  ASSERT_OK(sandbox);
  EXPECT_EQ(sandbox->base_url(), "https://sandbox.api.starkbank.com");
  o.base_url = "";
  o.language = "fr-FR";
  EXPECT_THAT(Client::Create(Credentials::Project("1", key), o), StatusIs(StatusCode::kInvalidArgument));
}

TEST(Credentials, AccessIdShapes) {
  auto key = PrivateKey::Generate();
  EXPECT_EQ(Credentials::Project("1", key).access_id(), "project/1");
  EXPECT_EQ(Credentials::Organization("2", key, "3").access_id(), "organization/2/workspace/3");
  auto ws = Credentials::Organization("2", key).InWorkspace("9");
  ASSERT_OK(ws);
  EXPECT_EQ(ws->access_id(), "organization/2/workspace/9");
  EXPECT_THAT(Credentials::Project("1", key).InWorkspace("9"), Not(IsOk()));
  EXPECT_OK(Credentials::FromAccessId("organization/2/workspace/3", key));
  EXPECT_THAT(Credentials::FromAccessId("user/2", key), StatusIs(StatusCode::kInvalidArgument));
}

TEST(Credentials, LoadsTheSandboxCredentialsFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("balcao-api-creds-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto key = PrivateKey::Generate();
  ASSERT_OK(key.WriteFile((dir / "project.pem").string(), true));
  std::ofstream(dir / "credentials.json")
      << R"({"projectId":"5656","organizationId":"77","projectPrivateKey":"project.pem",)"
      << R"("organizationPrivateKey":"org.pem","httpUrl":"http://127.0.0.1:7070","httpsUrl":"https://127.0.0.1:7071"})";
  ::unsetenv("BALCAO_ACCESS_ID");
  ::unsetenv("BALCAO_PROJECT_ID");
  ::unsetenv("BALCAO_ORGANIZATION_ID");
  ::unsetenv("BALCAO_PRIVATE_KEY");
  ::unsetenv("BALCAO_BANK_URL");
  auto config = LoadConfig((dir / "credentials.json").string());
  ASSERT_OK(config);
  EXPECT_EQ(config->credentials.access_id(), "project/5656");
  EXPECT_EQ(config->options.base_url, "http://127.0.0.1:7070");
  EXPECT_EQ(config->credentials.key().public_key(), key.public_key());
  ::setenv("BALCAO_ACCESS_ID", "organization/77/workspace/8", 1);
  ::setenv("BALCAO_PRIVATE_KEY", (dir / "project.pem").c_str(), 1);
  auto env = LoadConfig((dir / "credentials.json").string());
  ::unsetenv("BALCAO_ACCESS_ID");
  ::unsetenv("BALCAO_PRIVATE_KEY");
  ASSERT_OK(env);
  EXPECT_EQ(env->credentials.access_id(), "organization/77/workspace/8");
  auto missing = LoadConfig((dir / "nope.json").string());
  EXPECT_THAT(missing, StatusIs(StatusCode::kNotFound));
  std::filesystem::remove_all(dir);
}

TEST(Transport, KeepAliveSignedHeadersAndRawCall) {
  SignedServer server([](const RecordedRequest& r) { return Reply{200, R"({"echo":")" + r.method + "\"}"}; });
  Client client = server.MakeClient();
  for (int i = 0; i < 5; ++i) {
    auto r = client.Call("POST", "/v2/invoice", Query().Add("x", "1"), R"({"invoices":[]})");
    ASSERT_OK(r);
    EXPECT_EQ(r->body, R"({"echo":"POST"})");
  }
  EXPECT_EQ(server.http().connections(), 1);  // one connection reused
  EXPECT_EQ(server.bad_signatures(), 0);
  auto r = server.http().Requests().back();
  EXPECT_EQ(r.Header("access-id"), "project/4242");
  EXPECT_EQ(r.query, "x=1");
  EXPECT_EQ(r.body, R"({"invoices":[]})");
  // "invoice" without /v2 is accepted; a query smuggled into the path is not.
  EXPECT_OK(client.Call("GET", "balance"));
  EXPECT_EQ(server.http().Requests().back().path, "/v2/balance");
  EXPECT_THAT(client.Call("GET", "/v2/invoice?x=1"), StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(client.Call("TRACE", "/v2/invoice"), StatusIs(StatusCode::kInvalidArgument));
}

TEST(BadInput, BadRequestWithoutJsonIsAClearInternalError) {
  SignedServer server([](const RecordedRequest&) { return Reply{400, "<html>oops</html>", "text/html"}; });
  Bank bank(server.MakeClient());
  auto got = bank.invoice().Get("1");
  ASSERT_THAT(got, StatusIs(StatusCode::kInternal));
  EXPECT_EQ(got.status().http_status(), 400);
  EXPECT_NE(got.status().message().find("malformed bank response"), std::string::npos);
  EXPECT_EQ(server.http().Requests().size(), 1u);  // a 400 is never retried
}

TEST(BadInput, BankErrorsAreKeptWithCodeAndMessage) {
  SignedServer server([](const RecordedRequest&) {
    return Reply{400, R"({"errors":[{"code":"invalidAmount","message":"Amount must be positive"}]})"};
  });
  Bank bank(server.MakeClient());
  Invoice invoice;
  invoice.amount = -1;
  auto got = bank.invoice().CreateOne(invoice);
  ASSERT_THAT(got, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_TRUE(got.status().HasErrorCode("invalidAmount"));
  EXPECT_EQ(got.status().delivery(), Delivery::kAnswered);
}

TEST(BadInput, TruncatedPageIsAnErrorNotAPartialPage) {
  SignedServer server([](const RecordedRequest&) {
    return Reply{200, R"({"cursor":null,"invoices":[{"id":"1","amo)"};
  });
  Bank bank(server.MakeClient());
  auto page = bank.invoice().ListPage();
  ASSERT_THAT(page, StatusIs(StatusCode::kInternal));
  EXPECT_NE(page.status().message().find("malformed bank response"), std::string::npos);
  // Cut on the wire: Content-Length promises more than arrives.
  server.SetHandler([](const RecordedRequest&) {
    Reply r{200, kInvoicePage};
    r.kind = Reply::Kind::kTruncated;
    return r;
  });
  page = bank.invoice().ListPage();
  ASSERT_THAT(page, StatusIs(StatusCode::kDeadlineExceeded));
  EXPECT_EQ(page.status().delivery(), Delivery::kOutcomeUnknown);
}

TEST(BadInput, WrongTypesNameTheField) {
  SignedServer server([](const RecordedRequest&) {
    return Reply{200, R"({"cursor":null,"invoices":[{"id":"1"},{"id":"2","amount":{"x":1}}]})"};
  });
  auto page = Bank(server.MakeClient()).invoice().ListPage();
  ASSERT_THAT(page, StatusIs(StatusCode::kInternal));
  EXPECT_NE(page.status().message().find("invoices[1].amount: expected an integer"), std::string::npos)
      << page.status().message();
}

TEST(BadInput, FiftyMegabyteAnswerIsResourceExhausted) {
  const std::string huge(50u << 20, 'x');
  for (auto kind : {Reply::Kind::kNormal, Reply::Kind::kChunked}) {
    SignedServer server([&](const RecordedRequest&) {
      Reply r{200, huge};
      r.kind = kind;
      return r;
    });
    auto got = server.MakeClient().Call("GET", "/v2/invoice");
    ASSERT_THAT(got, StatusIs(StatusCode::kResourceExhausted));
    EXPECT_EQ(server.http().Requests().size(), 1u);
  }
}

TEST(Retries, ConnectionRefusedIsNotSentAndRetried) {
  auto key = PrivateKey::Generate();
  const test_util::RefusingLoopbackPort refusing;
  ClientOptions o;
  o.base_url = refusing.Url();
  o.retry.initial_backoff = std::chrono::microseconds(1);
  auto client = Client::Create(Credentials::Project("1", key), o);
  ASSERT_OK(client);
  auto got = client->Call("POST", "/v2/transfer", {}, "{}");
  ASSERT_THAT(got, StatusIs(StatusCode::kUnavailable));
  EXPECT_EQ(got.status().delivery(), Delivery::kNotSent);
  EXPECT_NE(got.status().message().find("after 3 attempts"), std::string::npos) << got.status().message();
}

TEST(Retries, DroppedAfterReadingPostIsOutcomeUnknownAndNotResent) {
  SignedServer server([](const RecordedRequest&) {
    Reply r;
    r.kind = Reply::Kind::kCloseWithoutAnswer;
    return r;
  });
  Client client = server.MakeClient();
  auto got = client.Call("POST", "/v2/transfer", {}, R"({"transfers":[]})");
  ASSERT_THAT(got, StatusIs(StatusCode::kDeadlineExceeded));
  EXPECT_EQ(got.status().delivery(), Delivery::kOutcomeUnknown);
  EXPECT_EQ(server.http().Requests().size(), 1u);
  // Same on a reused keep-alive connection (curl would otherwise replay it silently).
  server.SetHandler([](const RecordedRequest&) { return Reply{200, "{}"}; });
  ASSERT_OK(client.Call("GET", "/v2/balance"));
  server.SetHandler([](const RecordedRequest&) {
    Reply r;
    r.kind = Reply::Kind::kCloseWithoutAnswer;
    return r;
  });
  server.http().ClearRequests();
  for (const char* method : {"POST", "PATCH", "PUT", "DELETE"}) {
    auto again = client.Call(method, "/v2/transfer", {}, method[0] == 'D' ? "" : "{}");
    EXPECT_EQ(again.status().delivery(), Delivery::kOutcomeUnknown) << method;
  }
  EXPECT_EQ(server.http().Requests().size(), 4u);
}

TEST(Retries, TimeoutAfterSendingIsOutcomeUnknownAndNotResent) {
  SignedServer server([](const RecordedRequest&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    return Reply{200, "{}"};
  });
  ClientOptions o;
  o.total_timeout = std::chrono::milliseconds(100);
  auto got = server.MakeClient(3, o).Call("POST", "/v2/transfer", {}, "{}");
  ASSERT_THAT(got, StatusIs(StatusCode::kDeadlineExceeded));
  EXPECT_EQ(got.status().delivery(), Delivery::kOutcomeUnknown);
  EXPECT_EQ(server.http().Requests().size(), 1u);
}

TEST(Retries, DroppedGetIsRetried) {
  std::atomic<int> calls{0};
  SignedServer server([&](const RecordedRequest&) {
    if (calls++ == 0) {
      Reply r;
      r.kind = Reply::Kind::kCloseWithoutAnswer;
      return r;
    }
    return Reply{200, kInvoicePage};
  });
  auto page = Bank(server.MakeClient()).invoice().ListPage();
  ASSERT_OK(page);
  EXPECT_EQ(server.http().Requests().size(), 2u);
}

TEST(Retries, ServerErrorOnGetRetriedThenOkButPostNot) {
  std::atomic<int> calls{0};
  SignedServer server([&](const RecordedRequest&) {
    if (calls++ == 0) return Reply{500, R"({"errors":[{"code":"internalError","message":"x"}]})"};
    return Reply{200, kInvoicePage};
  });
  auto page = Bank(server.MakeClient()).invoice().ListPage();
  ASSERT_OK(page);
  EXPECT_EQ(server.http().Requests().size(), 2u);
  server.http().ClearRequests();
  server.SetHandler([](const RecordedRequest&) { return Reply{500, "fault"}; });
  auto created = Bank(server.MakeClient()).invoice().CreateOne(Invoice{});
  ASSERT_THAT(created, StatusIs(StatusCode::kInternal));
  EXPECT_EQ(created.status().http_status(), 500);
  EXPECT_EQ(server.http().Requests().size(), 1u);
}

TEST(Resources, BatchCreateSendsChunksOfAtMostHundred) {
  SignedServer server([](const RecordedRequest& r) {
    // Echo back the invoices it received.
    auto at = r.body.find('[');
    return Reply{200, R"({"invoices":)" + r.body.substr(at, r.body.size() - at - 1) + "}"};
  });
  std::vector<Invoice> invoices(250);
  for (std::size_t i = 0; i < invoices.size(); ++i) invoices[i].amount = static_cast<std::int64_t>(i);
  auto created = Bank(server.MakeClient()).invoice().Create(invoices);
  ASSERT_OK(created);
  ASSERT_EQ(created->size(), 250u);
  EXPECT_EQ(*(*created)[249].amount, 249);
  auto requests = server.http().Requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(std::count(requests[2].body.begin(), requests[2].body.end(), '{'), 51);  // wrapper + 50
}

TEST(Resources, AbsentFieldsAreNeverSentAsNull) {
  SignedServer server([](const RecordedRequest&) { return Reply{200, R"({"invoice":{"id":"1"}})"}; });
  Invoice changes;
  changes.status = "canceled";
  auto got = Bank(server.MakeClient()).invoice().Patch("1", changes);
  ASSERT_OK(got);
  EXPECT_EQ(server.http().Requests().back().body, R"({"status":"canceled"})");
}

TEST(Resources, LazyRangeFollowsTheCursorAndStopsOnError) {
  SignedServer server([](const RecordedRequest& r) {
    if (r.query == "limit=100") return Reply{200, R"({"cursor":"p2","invoices":[{"id":"1"},{"id":"2"}]})"};
    if (r.query == "limit=100&cursor=p2") return Reply{200, R"({"cursor":"p3","invoices":[{"id":"3"}]})"};
    return Reply{400, R"({"errors":[{"code":"invalidCursor","message":"bad"}]})"};
  });
  Bank bank(server.MakeClient());
  std::vector<std::string> ids;
  Status error;
  for (auto& item : bank.invoice().List()) {
    if (!item.ok()) {
      error = item.status();
      continue;
    }
    ids.push_back(*item->id);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_TRUE(error.HasErrorCode("invalidCursor"));
  // A total limit is honoured across pages.
  server.SetHandler([](const RecordedRequest& r) {
    return Reply{200, r.query.find("cursor") == std::string::npos
                          ? R"({"cursor":"p2","invoices":[{"id":"1"},{"id":"2"}]})"
                          : R"({"cursor":null,"invoices":[{"id":"3"}]})"};
  });
  int n = 0;
  for (auto& item : bank.invoice().List(ListParams().Limit(2))) n += item.ok();
  EXPECT_EQ(n, 2);
}

TEST(Resources, RefusedBeforeSending) {
  SignedServer server;
  Bank bank(server.MakeClient());
  EXPECT_THAT(bank.invoice().Delete("1"), StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_EQ(bank.invoice().ListPage(ListParams().Filter("staus", "paid")).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_THAT(bank.invoice().ListPage(ListParams().Limit(101)), StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(bank.invoice().Get("../balance"), StatusIs(StatusCode::kInvalidArgument));
  EXPECT_THAT(bank.invoice().Qrcode("1", 51), StatusIs(StatusCode::kInvalidArgument));
  Transfer bad;
  bad.metadata = RawJson{"{not json"};
  auto refused = bank.transfer().CreateOne(bad);
  EXPECT_THAT(refused, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_NE(refused.status().message().find("metadata"), std::string::npos) << refused.status().message();
  EXPECT_TRUE(server.http().Requests().empty());
}

}  // namespace
}  // namespace balcao::api
