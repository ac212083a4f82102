// The kill test (docs/reliability.md, "Kill test"): 1,000 mixed requests (invoice creates,
// transfers with externalId, dynamic BR Codes, invoice cancellations) are drained by
// `balcao queue drain` against the real sandbox over loopback HTTP while the sandbox
// injects HTTP 500s, resets before processing and commit-then-drop-response faults, and the
// drainer process is SIGKILLed at >= 200 random points and restarted. At the end every
// request exists exactly once at the bank, the totals match to the cent, and the test
// prints `lost=0 duplicated=0 kills=N`.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>

#include "api/client.h"
#include "offline/outbox.h"
#include "sandbox/sandbox.h"
#include "tests/offline/sandbox_http.h"
#include "tests/offline/test_util.h"
#include "tests/testing/status_matchers.h"

extern char** environ;

namespace balcao::offline {
namespace {

using nlohmann::json;

using testing::Simulation;

// Every entity of a list route, following the cursor.
std::vector<json> ListAll(const api::Client& client, const std::string& path) {
  std::vector<json> out;
  std::string cursor;
  do {
    api::Query q;
    q.Add("limit", std::int64_t{100});
    if (!cursor.empty()) q.Add("cursor", cursor);
    auto r = client.Call("GET", path, q);
    if (!r.ok()) {
      ADD_FAILURE() << path << ": " << r.status().ToString();
      return out;
    }
    json page = json::parse(r->body);
    for (auto it = page.begin(); it != page.end(); ++it)
      if (it->is_array())
        for (const json& e : *it) out.push_back(e);
    cursor = page.contains("cursor") && page["cursor"].is_string() ? page["cursor"].get<std::string>() : "";
  } while (!cursor.empty());
  return out;
}

// The drainers log (common/log.h) to `log`, appended across kills, not to the test's stderr.
pid_t SpawnDrainer(const std::string& db, const std::string& credentials, const std::string& log) {
  std::vector<std::string> args = {BALCAO_CLI,      "queue",     "drain",         "--wait", "--db",           db,
                                   "--credentials", credentials, "--concurrency", "4",      "--settle-ms",    "400",
                                   "--backoff-ms",  "10",        "--timeout",     "120",    "--max-attempts", "1000"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  std::vector<std::string> env_strings = {"BALCAO_LOG_FILE=" + log};
  for (char** e = environ; *e != nullptr; ++e)
    if (std::string_view(*e).rfind("BALCAO_LOG_FILE=", 0) != 0) env_strings.emplace_back(*e);
  std::vector<char*> env;
  for (auto& e : env_strings) env.push_back(e.data());
  env.push_back(nullptr);
  const int rc = posix_spawn(&pid, BALCAO_CLI, &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  return rc == 0 ? pid : -1;
}

struct Intent {
  std::string kind;  // "invoice", "transfer", "brcode", "cancel"
  std::int64_t amount = 0;
  std::string target;  // invoice id for "cancel"
};

TEST(OfflineKill, ThousandMixedRequestsSurviveFaultsAndKills) {
  testing::TempDir dir;
  sandbox::SandboxOptions sandbox_options;
  sandbox_options.https = false;
  sandbox_options.data_dir = dir.File("sandbox");
  sandbox_options.db = ":memory:";
  sandbox_options.threads = 4;
  auto sandbox = sandbox::Sandbox::Start(sandbox_options);
  ASSERT_OK(sandbox);
  const auto& creds = (*sandbox)->credentials();
  auto config = api::LoadConfig(creds.credentials_path);
  ASSERT_OK(config);
  auto client = api::Client::Create(config->credentials, config->options);
  ASSERT_OK(client);

  // 100 invoices exist already; the queue cancels them (PATCH, looked up by entity).
  std::vector<std::string> to_cancel;
  for (int i = 0; i < 100; ++i) {
    json body = {{"invoices",
                  {{{"amount", 5000 + i},
                    {"name", "Maria Souza"},
                    {"taxId", "33745107608"},
                    {"tags", {"pre-" + std::to_string(i)}}}}}};
    auto r = client->Call("POST", "/v2/invoice", {}, body.dump());
    ASSERT_OK(r);
    to_cancel.push_back(json::parse(r->body)["invoices"][0]["id"].get<std::string>());
  }

  // 1,000 requests: 400 invoices, 300 transfers, 200 dynamic BR Codes, 100 cancels,
  // grouped in sales of up to 4 (a sale's rows go out in order).
  std::mt19937 rng(20261121);
  std::vector<OutboxRequest> requests;
  std::map<std::string, Intent> intents;  // by key
  std::int64_t expected_total[3] = {0, 0, 0};
  for (int i = 0; i < 1000; ++i) {
    OutboxRequest r;
    r.key = "k" + std::to_string(i) + "-" + std::to_string(rng() % 100000);
    r.sale_id = "sale-" + std::to_string(i / (1 + static_cast<int>(rng() % 4)));
    r.amount = 100 + i;
    Intent intent;
    if (i < 400) {
      intent = {"invoice", r.amount, ""};
      r.kind = "invoice.create";
      r.method = "POST";
      r.path = "/v2/invoice";
      r.body = json{{"invoices",
                     {{{"amount", r.amount}, {"name", "Ana Lima"}, {"taxId", "33745107608"}, {"tags", {r.key}}}}}}
                   .dump();
      r.lookup = LookupBy::kTags;
      expected_total[0] += r.amount;
    } else if (i < 700) {
      intent = {"transfer", r.amount, ""};
      r.kind = "transfer.create";
      r.method = "POST";
      r.path = "/v2/transfer";
      r.body = json{{"transfers",
                     {{{"amount", r.amount},
                       {"bankCode", "20018183"},
                       {"branchCode", "0001"},
                       {"accountNumber", "10000-0"},
                       {"name", "Jon Snow"},
                       {"taxId", "012.345.678-90"},
                       {"externalId", r.key},
                       {"tags", {r.key}}}}}}
                   .dump();
      r.lookup = LookupBy::kExternalId;
      expected_total[1] += r.amount;
    } else if (i < 900) {
      intent = {"brcode", r.amount, ""};
      r.kind = "brcode.create";
      r.method = "POST";
      r.path = "/v2/dynamic-brcode";
      r.body = json{{"brcodes", {{{"amount", r.amount}, {"tags", {r.key}}}}}}.dump();
      r.lookup = LookupBy::kTags;
      expected_total[2] += r.amount;
    } else {
      const std::string& id = to_cancel[static_cast<std::size_t>(i - 900)];
      intent = {"cancel", 0, id};
      r.kind = "invoice.cancel";
      r.method = "PATCH";
      r.path = "/v2/invoice/" + id;
      r.body = R"({"status":"canceled"})";
      r.lookup = LookupBy::kEntity;
      r.amount = 0;
      r.sale_id = "";
    }
    intents[r.key] = intent;
    requests.push_back(std::move(r));
  }
  const std::string db = dir.File("box.db");
  {
    auto store = std::move(*Store::Open(db));
    Outbox outbox(*store);
    ASSERT_OK(outbox.EnqueueAll(requests));
  }

  // Faults: a random script per route (writes and the lookups' lists), one in three faulty.
  const char* kinds[] = {"delay-0",
                         "delay-0",
                         "delay-0",
                         "delay-0",
                         "delay-0",
                         "delay-0",
                         "http-500",
                         "reset-before-processing",
                         "commit-then-drop-response"};
  json faults = json::object();
  for (const char* route :
       {"POST /v2/invoice", "POST /v2/transfer", "POST /v2/dynamic-brcode", "PATCH /v2/invoice/{id}", "GET /v2/invoice",
        "GET /v2/transfer", "GET /v2/dynamic-brcode", "GET /v2/invoice/{id}"}) {
    json list = json::array();
    for (int i = 0; i < 600; ++i) list.push_back(kinds[rng() % 9]);
    faults[route] = list;
  }
  const std::string sim = "http://127.0.0.1:" + std::to_string((*sandbox)->port()) + "/sandbox/faults";
  ASSERT_EQ(Simulation("POST", sim, faults.dump()), 200);

  // Drain, killing the drainer at random points.
  int kills = 0;
  const auto started = std::chrono::steady_clock::now();
  while (kills < 200) {
    const pid_t child = SpawnDrainer(db, creds.credentials_path, dir.File("drainer.log"));
    ASSERT_GT(child, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(5 + rng() % 90));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (WIFSIGNALED(status)) ++kills;
  }
  const pid_t last = SpawnDrainer(db, creds.credentials_path, dir.File("drainer.log"));
  int status = 0;
  ::waitpid(last, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the final drain did not empty the queue";

  // The bank's view: every create exactly once, every cancellation applied. (Faults
  // left in the script are cleared first: they would hit these reads.)
  ASSERT_EQ(Simulation("DELETE", sim, ""), 200);
  std::map<std::string, int> seen;
  std::int64_t total[3] = {0, 0, 0};
  const char* routes[] = {"/v2/invoice", "/v2/transfer", "/v2/dynamic-brcode"};
  for (int k = 0; k < 3; ++k) {
    for (const json& e : ListAll(*client, routes[k])) {
      for (const json& tag : e.value("tags", json::array())) {
        auto it = intents.find(tag.get<std::string>());
        if (it == intents.end()) continue;
        ++seen[it->first];
        total[k] += e["amount"].get<std::int64_t>();
      }
    }
  }
  int lost = 0, duplicated = 0;
  for (const auto& [key, intent] : intents) {
    if (intent.kind == "cancel") {
      auto r = client->Call("GET", "/v2/invoice/" + intent.target);
      const bool canceled = r.ok() && json::parse(r->body)["invoice"]["status"] == "canceled";
      if (!canceled) ++lost;
      continue;
    }
    if (seen[key] == 0) ++lost;
    if (seen[key] > 1) duplicated += seen[key] - 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("lost=%d duplicated=%d kills=%d\n", lost, duplicated, kills);
  std::printf("(1000 requests, %.1f s of draining; totals invoices=%lld transfers=%lld brcodes=%lld cents)\n", seconds,
              static_cast<long long>(total[0]), static_cast<long long>(total[1]), static_cast<long long>(total[2]));
  EXPECT_EQ(lost, 0);
  EXPECT_EQ(duplicated, 0);
  EXPECT_GE(kills, 200);
  EXPECT_EQ(total[0], expected_total[0]);
  EXPECT_EQ(total[1], expected_total[1]);
  EXPECT_EQ(total[2], expected_total[2]);

  auto store = std::move(*Store::Open(db));
  Outbox outbox(*store);
  auto metrics = *outbox.Metrics();
  EXPECT_EQ(metrics.depth, 0);
  EXPECT_EQ(metrics.failed, 0);
  // The faults and kills did force the dangerous path: outcomes unknown, then lookups.
  auto done = outbox.List(OutboxState::kDone, 2000);
  ASSERT_OK(done);
  int looked_up = 0, resent = 0;
  for (const auto& item : *done) {
    if (item.lookups > 0) ++looked_up;
    if (item.attempts > 1) ++resent;
  }
  std::printf(
      "(%d requests looked up at least once, %d sent more than once: after a lookup found nothing, or not sent)\n",
      looked_up, resent);
  EXPECT_EQ(done->size(), 1000u);
  EXPECT_GT(looked_up, 50);
  auto failed = outbox.List(OutboxState::kFailed, 10);
  ASSERT_OK(failed);
  for (const auto& item : *failed) ADD_FAILURE() << item.request.key << " " << item.last_error;
}

}  // namespace
}  // namespace balcao::offline
