// `balcao serve` against 12,000 hostile requests (hostile_corpus.h) from raw sockets, four
// connections at a time with many requests each, while slow clients hold connections with
// requests they never finish. The service must stay up (/healthz answers at the end), answer
// every request it answers with a 4xx naming the problem ({"error":{"field","rule"}}), or a 2xx
// for a GET (reads change nothing), never a 5xx (but a 503 from the bank's webhook, whose
// signature check needs the bank's public key), and change nothing in the store: the day's
// sales and the journal, outbox and print-job rows are counted before and after, the rows with
// SQLite's own reader. Labelled `sanitize`: under ASan+UBSan the serve run is the instrumented
// one, so a memory error or undefined behaviour anywhere kills it and fails this test.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/terminal/hostile_corpus.h"
#include "tests/terminal/raw_http.h"
#include "tests/terminal/serve_fixture.h"

namespace balcao::terminal::testing {
namespace {

constexpr std::size_t kRequests = 12'000;
constexpr int kConnections = 4;
// The corpus' seed; BALCAO_HOSTILE_SEED=N runs another one (the failures name the requests).
constexpr std::uint32_t kSeed = 20240229;
constexpr std::chrono::milliseconds kAnswerWithin{20'000};

// Rows of the store's tables that any effect of a request would add to.
std::map<std::string, long long> StoreRows(const std::filesystem::path& db) {
  std::map<std::string, long long> rows;
  sqlite3* handle = nullptr;
  if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "cannot open " << db << ": " << sqlite3_errmsg(handle);
    sqlite3_close(handle);
    return rows;
  }
  sqlite3_busy_timeout(handle, 5000);
  for (const char* table : {"sale_journal", "sales", "outbox", "print_jobs", "operator_actions"}) {
    sqlite3_stmt* statement = nullptr;
    const std::string sql = std::string("SELECT count(*) FROM ") + table;
    if (sqlite3_prepare_v2(handle, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW) {
      rows[table] = sqlite3_column_int64(statement, 0);
    } else {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(handle);
    }
    sqlite3_finalize(statement);
  }
  sqlite3_close(handle);
  return rows;
}

// The day's sales with their states: what GET /api/sales shows.
std::string SalesToday(const ServeProcess& serve) {
  const Reply list = serve.Get("/api/sales");
  EXPECT_EQ(list.status, 200) << list.body;
  Json states = Json::array();
  for (const auto& sale : list.json.value("sales", Json::array()))
    states.push_back({sale.value("id", ""), sale.value("state", Json()), sale.value("collected", 0)});
  return states.dump();
}

// What is wrong with `answer` to `request`, "" when nothing.
std::string Judge(const HostileCase& request, const RawAnswer& answer) {
  if (!answer.answered) return request.half_close ? "" : "no answer";
  if (answer.status >= 200 && answer.status < 300) return request.may_succeed ? "" : "a 2xx to a write";
  if (answer.status == 503 && request.bank) return "";
  if (answer.status < 400 || answer.status >= 500) return "status " + std::to_string(answer.status);
  const Json body = Json::parse(answer.body, nullptr, false);
  if (!body.is_object() || !body.contains("error") || !body["error"].is_object()) return "no {\"error\":...} body";
  const Json& error = body["error"];
  for (const char* key : {"field", "rule"})
    if (!error.contains(key) || !error[key].is_string() || error[key].get<std::string>().empty())
      return std::string("no error.") + key;
  return "";
}

struct Tally {
  std::mutex mu;
  std::map<int, long> by_status;  // 0: no answer
  std::map<std::string, long> by_kind;
  std::vector<std::string> failures;
  void Add(const HostileCase& request, const RawAnswer& answer, const std::string& wrong) {
    std::lock_guard<std::mutex> lock(mu);
    ++by_status[answer.answered ? answer.status : 0];
    ++by_kind[request.what];
    if (!wrong.empty() && failures.size() < 25)
      failures.push_back(wrong + " [" + request.what + "] " + Printable(request.bytes) + "\n    -> " +
                         Printable(answer.head + answer.body, 300));
  }
};

// Sends its share of the corpus over as few connections as the server allows.
void Client(unsigned short port, const std::vector<HostileCase>& corpus, int lane, Tally& tally) {
  std::unique_ptr<RawConnection> connection;
  for (std::size_t i = static_cast<std::size_t>(lane); i < corpus.size(); i += kConnections) {
    const HostileCase& request = corpus[i];
    if (!connection || request.fresh || request.half_close) connection = std::make_unique<RawConnection>(port);
    if (!connection->ok()) {
      tally.Add(request, RawAnswer{}, "cannot connect");
      connection.reset();
      continue;
    }
    (void)connection->Send(request.bytes);  // a refusal may come before all is written
    if (request.half_close) connection->ShutdownWrite();
    const RawAnswer answer = connection->Read(kAnswerWithin);
    tally.Add(request, answer, Judge(request, answer) + (connection->timed_out() ? " (timed out)" : ""));
    if (answer.closes || !answer.answered || request.half_close) connection.reset();
  }
}

// Slowloris: connections that send a request a few bytes at a time and never finish it, for
// `hold`, while the rest goes on; the service must keep answering others meanwhile.
void SlowClients(unsigned short port, std::chrono::milliseconds hold, std::vector<std::string>& problems) {
  const std::string host = "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 24; ++i) {
    auto connection = std::make_unique<RawConnection>(port);
    const std::string start = i % 2 == 0 ? "POST /api/sales HTTP/1.1\r\n" + host
                                         : "POST /api/login HTTP/1.1\r\n" + host +
                                               "Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"op";
    if (connection->ok() && connection->Send(start)) slow.push_back(std::move(connection));
  }
  const auto end = std::chrono::steady_clock::now() + hold;
  int round = 0;
  while (std::chrono::steady_clock::now() < end) {
    for (auto& connection : slow) (void)connection->Send(round % 2 ? "a" : "X");  // a header or body byte at a time
    if (++round % 5 == 0) {
      RawConnection probe(port);
      const auto asked = std::chrono::steady_clock::now();
      probe.Send("GET /healthz HTTP/1.1\r\n" + host + "\r\n");
      const RawAnswer answer = probe.Read(std::chrono::seconds(5));
      const auto waited = std::chrono::steady_clock::now() - asked;
      if (!answer.answered || answer.status != 200 || waited > std::chrono::seconds(3))
        problems.push_back("/healthz while slow clients hold " + std::to_string(slow.size()) +
                           " connections: " + std::to_string(answer.status) + " after " +
                           std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count()) +
                           " ms");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (slow.size() < 20) problems.push_back("only " + std::to_string(slow.size()) + " slow connections opened");
}

TEST(ServeHostile, TwelveThousandHostileRequestsChangeNothingAndGetFourHundreds) {
  const auto dir = FreshDir("hostile");
  ServeProcess serve;
  serve.Start(dir / "data", {"--printer", "file:" + (dir / "printer.bin").string()});
  ASSERT_FALSE(serve.url().empty());
  // Sales for the routes to aim at: one choosing its method, one paid by Pix.
  const std::string open_id = serve.NewSale(1990)["id"].get<std::string>();
  const std::string paid_id = serve.NewSale(2590)["id"].get<std::string>();
  const Reply pix = serve.Post("/api/sales/" + paid_id + "/method", {{"method", "pix"}});
  ASSERT_EQ(serve.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix.json, "brcode")}}).status, 200);
  serve.WaitFor(paid_id, "paid");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // its receipt job and webhook settle
  const std::string sales_before = SalesToday(serve);
  const auto rows_before = StoreRows(dir / "data" / "balcao.db");

  const unsigned short port = static_cast<unsigned short>(std::stoi(serve.url().substr(serve.url().rfind(':') + 1)));
  const char* seed_text = std::getenv("BALCAO_HOSTILE_SEED");
  const std::uint32_t seed =
      seed_text != nullptr ? static_cast<std::uint32_t>(std::strtoul(seed_text, nullptr, 10)) : kSeed;
  const std::vector<HostileCase> corpus = HostileCorpus({port, serve.cookie(), {open_id, paid_id}}, seed, kRequests);
  Tally tally;
  std::vector<std::string> slow_problems;
  const auto started = std::chrono::steady_clock::now();
  std::thread slow([&] { SlowClients(port, std::chrono::seconds(4), slow_problems); });
  std::vector<std::thread> clients;
  for (int lane = 0; lane < kConnections; ++lane)
    clients.emplace_back([&, lane] { Client(port, corpus, lane, tally); });
  for (auto& client : clients) client.join();
  slow.join();
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);

  std::cout << kRequests << " hostile requests (seed " << seed << ") in " << took.count() << " ms; answers by status:";
  for (const auto& [status, n] : tally.by_status)
    std::cout << " " << (status ? std::to_string(status) : "none") << "=" << n;
  std::cout << "; by kind:";
  for (const auto& [kind, n] : tally.by_kind) std::cout << " " << kind << "=" << n;
  std::cout << "\n";
  for (const std::string& failure : tally.failures) ADD_FAILURE() << failure;
  for (const std::string& problem : slow_problems) ADD_FAILURE() << problem;

  ASSERT_TRUE(serve.Alive());
  EXPECT_EQ(serve.Get("/healthz").status, 200);
  EXPECT_EQ(SalesToday(serve), sales_before);
  EXPECT_EQ(StoreRows(dir / "data" / "balcao.db"), rows_before);
  // The cashier's session survived it all, and the service still takes a sale.
  EXPECT_EQ(serve.Get("/api/session").status, 200);
  EXPECT_EQ(serve.Post("/api/sales", {{"amount", 100}}).status, 201);
  serve.Stop();  // exit status 0: under ASan, also no leak report
}

// The driver journals every event it is fed, refused ones too: serve asks the sale's machine
// first, so a request it refuses (409) leaves no row behind.
TEST(ServeHostile, ARefusedActionLeavesNoJournalRow) {
  const auto dir = FreshDir("refused");
  ServeProcess serve;
  serve.Start(dir / "data", {"--printer", "file:" + (dir / "printer.bin").string()});
  ASSERT_FALSE(serve.url().empty());
  const std::string id = serve.NewSale(1990)["id"].get<std::string>();
  const auto before = StoreRows(dir / "data" / "balcao.db");
  for (const char* action : {"retry", "keep-open", "print", "simulate"}) {
    const Reply refused = serve.Post("/api/sales/" + id + "/" + action, Json::object());
    EXPECT_EQ(refused.status, 409) << action << " " << refused.body;
    EXPECT_EQ(refused.json["error"]["field"], "state") << action;
  }
  const Reply card = serve.Post("/api/sales/" + id + "/card", WithCardCustomer({{"number", "4111111111111111"},
                                                                                {"expiry", "12/39"},
                                                                                {"security_code", "123"},
                                                                                {"holder_name", "ANA SOUZA"}}));
  EXPECT_EQ(card.status, 409) << card.body;  // no card method chosen yet
  EXPECT_EQ(StoreRows(dir / "data" / "balcao.db"), before);
  // What the machine accepts is journaled as before.
  EXPECT_EQ(serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}}).status, 200);
  EXPECT_GT(StoreRows(dir / "data" / "balcao.db")["sale_journal"], before.at("sale_journal"));
}

}  // namespace
}  // namespace balcao::terminal::testing
