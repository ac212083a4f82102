// The limits of balcao_http over real loopback sockets: an oversized body is read and
// discarded (within bytes and time) and answered 413 naming the limit in force; a header flood
// is 431 (414 when the request line alone is over it); a request dripped slower than the read
// timeout gets a 408 and loses its connection in time.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/http/loopback.h"

namespace balcao::http::testing {
namespace {

using std::chrono::milliseconds;

// Counts the requests that reach it: a refused request must not.
struct CountingHandler {
  std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);
  Handler handler() const {
    return Synchronous([calls = calls](HttpRequest&) {
      ++*calls;
      return HttpResponse{200, "text/plain", "ok"};
    });
  }
};

std::string Post(const std::string& path, std::size_t declared_length, const std::string& extra_headers = "") {
  return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + std::to_string(declared_length) +
         "\r\n" + extra_headers + "\r\n";
}

TEST(BodyLimit, OversizedBodyIsReadThen413NamesTheLimitInForce) {
  for (const auto& [limit, words] : {std::pair<std::size_t, std::string>{1000, "at most 1000 bytes"},
                                     std::pair<std::size_t, std::string>{64 << 10, "at most 64 KiB"},
                                     std::pair<std::size_t, std::string>{1 << 20, "at most 1 MiB"}}) {
    CountingHandler counter;
    ServerOptions options;
    options.body_limit = limit;
    LoopbackServer s(options, counter.handler());
    RawConnection client(s.port);
    // 16 MiB: more than the loopback socket buffers hold, so the whole body is sent only if
    // the server reads it; the client reads nothing before it has sent everything.
    const std::size_t size = 16 << 20;
    ASSERT_TRUE(client.Send(Post("/sales", size) + std::string(size, 'x'))) << "the server stopped reading";
    auto response = client.ReadResponse();
    ASSERT_TRUE(response) << words;
    EXPECT_EQ(response->status, 413);
    EXPECT_EQ(response->body, R"({"error":{"field":"body","rule":")" + words + R"("}})");
    EXPECT_EQ(response->Header("connection"), "close");
    EXPECT_EQ(client.ReadUntilClosed(milliseconds(2000)).how, "eof");
    EXPECT_EQ(*counter.calls, 0);
  }
}

TEST(BodyLimit, AtTheLimitIsServed) {
  CountingHandler counter;
  ServerOptions options;
  options.body_limit = 1000;
  LoopbackServer s(options, counter.handler());
  RawConnection client(s.port);
  ASSERT_TRUE(client.Send(Post("/sales", 1000) + std::string(1000, 'x')));
  auto response = client.ReadResponse();
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(*counter.calls, 1);
}

TEST(BodyLimit, BeyondTheDrainLimitOrChunkedOrExpectingContinueThe413ComesAtOnce) {
  CountingHandler counter;
  ServerOptions options;
  options.body_limit = 1024;
  options.drain_limit = 64 << 10;
  LoopbackServer s(options, counter.handler());
  for (const std::string& head :
       {Post("/a", 100 << 20), Post("/b", 4096, "Expect: 100-continue\r\n"),
        std::string("POST /c HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\n") +
            std::string(4096, 'x')}) {
    RawConnection client(s.port);
    ASSERT_TRUE(client.Send(head));
    const auto start = std::chrono::steady_clock::now();
    auto response = client.ReadResponse(milliseconds(2000));  // the body never comes: no waiting for it
    ASSERT_TRUE(response) << head.substr(0, 60);
    EXPECT_EQ(response->status, 413);
    EXPECT_NE(response->body.find("at most 1 KiB"), std::string::npos) << response->body;
    EXPECT_LT(std::chrono::steady_clock::now() - start, milliseconds(1000));
    client.CloseWrite();
    EXPECT_EQ(client.ReadUntilClosed(milliseconds(2000)).how, "eof");
  }
  EXPECT_EQ(*counter.calls, 0);
}

TEST(BodyLimit, DiscardingIsBoundedInTime) {
  CountingHandler counter;
  ServerOptions options;
  options.body_limit = 1024;
  options.read_timeout = milliseconds(500);
  LoopbackServer s(options, counter.handler());
  RawConnection client(s.port);
  ASSERT_TRUE(client.Send(Post("/sales", 100000) + std::string(2048, 'x')));
  // One byte every 50 ms: each read succeeds, but the discard as a whole has 500 ms.
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < milliseconds(3000) && client.Send("x"))
    std::this_thread::sleep_for(milliseconds(50));
  const auto closed_after = std::chrono::steady_clock::now() - start;
  EXPECT_GE(closed_after, milliseconds(400));
  EXPECT_LT(closed_after, milliseconds(2000)) << "the server kept reading a dripped body";
  EXPECT_EQ(*counter.calls, 0);
}

TEST(HeaderLimit, HeaderFloodIs431NamingTheLimit) {
  CountingHandler counter;
  LoopbackServer s(ServerOptions{}, counter.handler());
  std::string flood = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (int i = 0; flood.size() < (64 << 10); ++i)
    flood += "X-Flood-" + std::to_string(i) + ": " + std::string(100, 'a') + "\r\n";
  RawConnection client(s.port);
  ASSERT_TRUE(client.Send(flood + "\r\n"));
  auto response = client.ReadResponse();
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 431);
  EXPECT_EQ(response->body, R"({"error":{"field":"headers","rule":"at most 8 KiB"}})");
  EXPECT_EQ(*counter.calls, 0);

  ServerOptions small;
  small.header_limit = 512;
  LoopbackServer t(small, counter.handler());
  RawConnection second(t.port);
  ASSERT_TRUE(second.Send(Get("/", "X-Big: " + std::string(600, 'b') + "\r\n")));
  response = second.ReadResponse();
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 431);
  EXPECT_NE(response->body.find("at most 512 bytes"), std::string::npos) << response->body;
}

TEST(ReadTimeout, SlowPartialRequestIsClosedWithinTheTimeout) {
  CountingHandler counter;
  ServerOptions options;
  options.read_timeout = milliseconds(500);
  LoopbackServer s(options, counter.handler());
  RawConnection client(s.port);
  ASSERT_TRUE(client.Send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "));
  // Slowloris: a byte every 50 ms never completes the header.
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < milliseconds(3000) && client.Send("a"))
    std::this_thread::sleep_for(milliseconds(50));
  const auto closed_after = std::chrono::steady_clock::now() - start;
  EXPECT_GE(closed_after, milliseconds(400));
  EXPECT_LT(closed_after, milliseconds(2000)) << "a dripping client kept its connection";
  EXPECT_EQ(*counter.calls, 0);

  // An idle keep-alive connection goes the same way, and silently.
  RawConnection idle(s.port);
  ASSERT_TRUE(idle.Send(Get("/")));
  ASSERT_TRUE(idle.ReadResponse());
  const Ending ending = idle.ReadUntilClosed(milliseconds(3000));
  EXPECT_EQ(ending.how, "eof");
  EXPECT_EQ(ending.bytes, "");
  EXPECT_GE(ending.after, milliseconds(400));
  EXPECT_LT(ending.after, milliseconds(2000));
}

TEST(ReadTimeout, ARequestBegunAndNotFinishedGets408) {
  CountingHandler counter;
  ServerOptions options;
  options.read_timeout = milliseconds(500);
  LoopbackServer s(options, counter.handler());
  RawConnection client(s.port);
  ASSERT_TRUE(client.Send("POST /sales HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{\"amount\""));
  const auto start = std::chrono::steady_clock::now();
  auto response = client.ReadResponse(milliseconds(3000));
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 408);
  EXPECT_EQ(response->body, R"({"error":{"field":"request","rule":"complete within 500 ms"}})");
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(400));
  EXPECT_EQ(client.ReadUntilClosed(milliseconds(2000)).how, "eof");
  EXPECT_EQ(*counter.calls, 0);
}

TEST(HeaderLimit, ARequestLineOverTheLimitIs414) {
  CountingHandler counter;
  LoopbackServer s(ServerOptions{}, counter.handler());
  RawConnection client(s.port);
  ASSERT_TRUE(client.Send("GET /" + std::string(16 << 10, 'a') + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
  auto response = client.ReadResponse();
  ASSERT_TRUE(response);
  EXPECT_EQ(response->status, 414);
  EXPECT_EQ(response->body, R"({"error":{"field":"target","rule":"a request line of at most 8 KiB"}})");
  EXPECT_EQ(*counter.calls, 0);
}

TEST(Malformed, UnparseableRequestIs400) {
  CountingHandler counter;
  LoopbackServer s(ServerOptions{}, counter.handler());
  for (const char* raw :
       {"GARBAGE\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", "POST / HTTP/1.1\r\nContent-Length: -4\r\n\r\n"}) {
    RawConnection client(s.port);
    ASSERT_TRUE(client.Send(raw));
    auto response = client.ReadResponse();
    ASSERT_TRUE(response) << raw;
    EXPECT_EQ(response->status, 400) << raw;
    EXPECT_EQ(response->body, R"({"error":{"field":"request","rule":"well-formed HTTP/1.1"}})");
  }
  EXPECT_EQ(*counter.calls, 0);
}

TEST(Refusal, TheServerRendersItsRefusalsWithTheCallersVocabulary) {
  ServerOptions options;
  options.body_limit = 10;
  options.server_name = "balcao-test";
  options.response_headers = {{"Cache-Control", "no-store"}};
  options.refusal = [](const Refusal& r) {
    return HttpResponse{r.status, "application/json",
                        "{\"code\":" + std::to_string(r.status) + ",\"limit\":" + std::to_string(r.limit) + "}"};
  };
  LoopbackServer s(options, CountingHandler().handler());
  RawConnection client(s.port);
  ASSERT_TRUE(client.Send(Post("/", 11) + std::string(11, 'x')));
  auto response = client.ReadResponse();
  ASSERT_TRUE(response);
  EXPECT_EQ(response->body, R"({"code":413,"limit":10})");
  EXPECT_EQ(response->Header("server"), "balcao-test");
  EXPECT_EQ(response->Header("cache-control"), "no-store");
}

TEST(DescribeBytes, ExactAndReadable) {
  EXPECT_EQ(DescribeBytes(1), "1 byte");
  EXPECT_EQ(DescribeBytes(1000), "1000 bytes");
  EXPECT_EQ(DescribeBytes(1024), "1 KiB");
  EXPECT_EQ(DescribeBytes(1536), "1536 bytes");
  EXPECT_EQ(DescribeBytes(64 << 10), "64 KiB");
  EXPECT_EQ(DescribeBytes(3 << 20), "3 MiB");
}

}  // namespace
}  // namespace balcao::http::testing
