// balcao_http's request cycle over real loopback sockets: keep-alive (HEAD included),
// asynchronous answers from other threads, a check before every handler (a Host allow-list
// answered 421), the connection dispositions (reset, drop, delay) and a graceful Stop.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tests/http/loopback.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::http::testing {
namespace {

using std::chrono::milliseconds;

// Answers "<method> <path>?<query> from <address> tls=<0|1>".
HttpResponse Echo(HttpRequest& request) {
  return HttpResponse{200, "text/plain",
                      request.method + " " + request.path + "?" + request.query + " from " + request.remote_address +
                          " tls=" + (request.tls ? "1" : "0") + " x=" + std::string(request.Header("x-name"))};
}

TEST(Server, KeepAliveServesSeveralRequestsOnOneConnectionHeadIncluded) {
  LoopbackServer s(ServerOptions{}, Synchronous(Echo));
  RawConnection client(s.port);
  ASSERT_TRUE(client.Send(Get("/one?a=1", "X-Name: first\r\n")));
  auto first = client.ReadResponse();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->body, "GET /one?a=1 from 127.0.0.1 tls=0 x=first");
  EXPECT_EQ(first->Header("server"), "balcao");
  // HEAD: the length GET would have, no body; the connection stays usable.
  ASSERT_TRUE(client.Send("HEAD /two HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  auto head = client.ReadResponse(std::chrono::seconds(5), /*no_body=*/true);
  ASSERT_TRUE(head);
  EXPECT_EQ(head->Header("content-length"), std::to_string(std::string("HEAD /two? from 127.0.0.1 tls=0 x=").size()));
  ASSERT_TRUE(client.Send(Get("/three")));
  auto third = client.ReadResponse();
  ASSERT_TRUE(third);
  EXPECT_EQ(third->body, "GET /three? from 127.0.0.1 tls=0 x=");
  // Connection: close is honoured.
  ASSERT_TRUE(client.Send(Get("/four", "Connection: close\r\n")));
  ASSERT_TRUE(client.ReadResponse());
  EXPECT_EQ(client.ReadUntilClosed(milliseconds(2000)).how, "eof");
}

TEST(Server, AnswersMayComeLaterFromAnotherThreadOnce) {
  std::mutex mu;
  std::vector<std::thread> workers;
  Handler later = [&](HttpRequest request, Respond respond) {
    std::lock_guard lock(mu);
    workers.emplace_back([request = std::move(request), respond = std::move(respond)] {
      std::this_thread::sleep_for(milliseconds(50));
      respond(HttpResponse{202, "text/plain", "later " + request.path});
      respond(HttpResponse{500, "text/plain", "a second answer is ignored"});
    });
  };
  {
    LoopbackServer s(ServerOptions{}, later);
    RawConnection client(s.port);
    for (const char* path : {"/a", "/b"}) {
      ASSERT_TRUE(client.Send(Get(path)));
      auto response = client.ReadResponse();
      ASSERT_TRUE(response);
      EXPECT_EQ(response->status, 202);
      EXPECT_EQ(response->body, std::string("later ") + path);
    }
    // A Respond is dropped before its server is destroyed (http/server.h): the worker that
    // answered may still hold it after the client has read the answer.
    for (auto& worker : workers) worker.join();
  }
}

// The server closes the connection (FIN) without a byte of answer.
void ExpectClosedWithoutAnswer(RawConnection& connection) {
  const Ending ending = connection.ReadUntilClosed(milliseconds(2000));
  EXPECT_EQ(ending.how, "eof");
  EXPECT_EQ(ending.bytes, "");
}

TEST(Server, AnUnansweredRequestClosesItsConnectionAndAThrowingHandlerIs500) {
  Handler handler = [](HttpRequest request, Respond /*dropped unanswered*/) {
    if (request.path == "/throw") throw std::runtime_error("bug");
  };
  LoopbackServer s(ServerOptions{}, handler);
  RawConnection dropped(s.port);
  ASSERT_TRUE(dropped.Send(Get("/drop")));
  ExpectClosedWithoutAnswer(dropped);
  RawConnection thrown(s.port);
  ASSERT_TRUE(thrown.Send(Get("/throw")));
  auto response = thrown.ReadResponse();
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 500);
  EXPECT_EQ(response->body, R"({"error":{"field":"service","rule":"internal error"}})");
}

// A check before any handler runs: what a Host allow-list (and later a session) looks like.
Handler RequireHost(std::set<std::string> allowed, Handler next) {
  return [allowed = std::move(allowed), next = std::move(next)](HttpRequest request, Respond respond) {
    if (!allowed.count(std::string(request.Header("host"))))
      return respond(JsonRefusal({421, "Host", "one of this server's names", 0}));
    next(std::move(request), std::move(respond));
  };
}

TEST(Server, AHandlerWrappingAnotherChecksEveryRequestFirst) {
  LoopbackServer s(ServerOptions{}, RequireHost({"127.0.0.1", "localhost:8080"}, Synchronous(Echo)));
  RawConnection client(s.port);
  ASSERT_TRUE(client.Send(Get("/ok")));
  auto ok = client.ReadResponse();
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  ASSERT_TRUE(client.Send("GET /evil HTTP/1.1\r\nHost: attacker.example\r\n\r\n"));
  auto refused = client.ReadResponse();
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 421);
  EXPECT_EQ(refused->body, R"({"error":{"field":"Host","rule":"one of this server's names"}})");
}

TEST(Server, DispositionsResetDropAndDelay) {
  LoopbackServer s(ServerOptions{}, Synchronous([](HttpRequest& request) {
                     HttpResponse response{200, "text/plain", "late"};
                     if (request.path == "/reset") response.disposition = Disposition::kReset;
                     if (request.path == "/drop") response.disposition = Disposition::kDrop;
                     if (request.path == "/delay") response.delay = milliseconds(300);
                     return response;
                   }));
  RawConnection reset(s.port);
  ASSERT_TRUE(reset.Send(Get("/reset")));
  EXPECT_EQ(reset.ReadUntilClosed(milliseconds(2000)).how, "reset");
  RawConnection drop(s.port);
  ASSERT_TRUE(drop.Send(Get("/drop")));
  ExpectClosedWithoutAnswer(drop);
  RawConnection delay(s.port);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(delay.Send(Get("/delay")));
  auto response = delay.ReadResponse();
  ASSERT_TRUE(response);
  EXPECT_EQ(response->body, "late");
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(300));
}

TEST(Server, StopLetsTheRequestInFlightAnswerAndClosesIdleConnections) {
  std::atomic<bool> in_handler{false};
  std::thread worker;
  Handler slow = [&](HttpRequest, Respond respond) {
    worker = std::thread([respond = std::move(respond)] {
      std::this_thread::sleep_for(milliseconds(300));
      respond(HttpResponse{200, "text/plain", "finished"});
    });
    in_handler = true;  // after the assignment: the test thread joins `worker`
  };
  ServerOptions options;
  options.stop_grace = milliseconds(3000);
  LoopbackServer s(options, slow);
  RawConnection idle(s.port);
  RawConnection busy(s.port);
  ASSERT_TRUE(busy.Send(Get("/slow")));
  while (!in_handler) std::this_thread::sleep_for(milliseconds(5));
  const auto start = std::chrono::steady_clock::now();
  s.server->Stop();
  const auto stop_took = std::chrono::steady_clock::now() - start;
  worker.join();
  EXPECT_GE(stop_took, milliseconds(200)) << "Stop did not wait for the answer in flight";
  EXPECT_LT(stop_took, milliseconds(2500));
  auto response = busy.ReadResponse(milliseconds(1000));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->body, "finished");
  EXPECT_EQ(response->Header("connection"), "close");
  const Ending ending = idle.ReadUntilClosed(milliseconds(1000));
  EXPECT_EQ(ending.how, "eof");
  EXPECT_FALSE(RawConnection(s.port).connected());
}

TEST(Server, ListenRefusesWhatItCannotBind) {
  Server server(ServerOptions{}, Synchronous(Echo));
  auto bad = server.Listen("not-an-ip", 0);
  ASSERT_THAT(bad, StatusIs(StatusCode::kInvalidArgument));
  auto first = server.Listen("127.0.0.1", 0);
  ASSERT_OK(first);
  auto taken = server.Listen("127.0.0.1", *first);
  ASSERT_THAT(taken, StatusIs(StatusCode::kUnavailable));
  auto tls = server.ListenTls("127.0.0.1", 0);
  ASSERT_THAT(tls, Not(IsOk()));
  EXPECT_THAT(tls, StatusIs(StatusCode::kInvalidArgument));  // no certificate given
}

}  // namespace
}  // namespace balcao::http::testing
