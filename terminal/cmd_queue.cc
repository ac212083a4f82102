// `balcao queue`: the operator's view of the outbox (offline/outbox.h).
//   balcao queue list [--state S] [--sale ID] [--limit N] [--json]
//   balcao queue show ID|KEY [--json]
//   balcao queue retry ID [--reason TEXT] [--operator NAME]
//   balcao queue drop ID --reason TEXT [--operator NAME]
//   balcao queue drain [--wait] [--timeout SECONDS] [--concurrency N] [--credentials FILE]
//   balcao queue metrics [--json]
// The store is the box's (FindBox: --db, $BALCAO_DB, the config's data_dir). Exit codes: 0 ok, 1 no/invalid, 2 errors.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/money.h"
#include "common/progress.h"
#include "common/time.h"
#include "offline/api_gateway.h"
#include "offline/drainer.h"
#include "offline/outbox.h"
#include "offline/print_jobs.h"
#include "offline/sealed_cards.h"
#include "terminal/command.h"
#include "terminal/internal/subcommand_args.h"
#include "terminal/service/config.h"

namespace balcao::terminal {
namespace {

using nlohmann::json;
using offline::Outbox;
using offline::OutboxItem;

constexpr const char* kUsage =
    "usage: balcao queue <list|show ID|retry ID|drop ID --reason TEXT|drain|metrics> [--db PATH] [--json]\n"
    "  list     [--state pending|inflight|unknown|done|failed|dead] [--sale ID] [--limit N]\n"
    "  show     ID or key of one request\n"
    "  retry    a failed or dead request (a request that may have reached the bank is looked up first)\n"
    "  drop     a request that is not done, with --reason TEXT (journaled) [--operator NAME]\n"
    "  drain    send what is due now; --wait until the queue is empty [--timeout S] [--concurrency N]\n"
    "           [--settle-ms N] wait before looking up an unknown outcome (default 30000)\n"
    "           [--backoff-ms N] first retry delay (default 1000; doubles up to 300x)\n"
    "           [--max-attempts N] sends before a request is dead (default 12)\n"
    "  metrics  depth, oldest age, amount at risk, failures\n"
    "The store is --db PATH, else $BALCAO_DB, else the data_dir of the box's config (--config FILE,\n"
    "$BALCAO_CONFIG, /etc/balcao/balcao.conf); drain's bank is --credentials FILE or the config's.\n";

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;  // "--json" -> ""
  bool Has(const std::string& k) const { return options.count(k) > 0; }
  std::string Get(const std::string& k, const std::string& fallback = "") const {
    auto it = options.find(k);
    return it == options.end() ? fallback : it->second;
  }
};

bool ParseArgs(const std::vector<std::string>& raw, Args& out, std::string& error) {
  static const std::vector<std::string> kFlags = {"--json", "--wait", "--help"};
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const std::string& a = raw[i];
    if (!a.starts_with("--")) {
      out.positional.push_back(a);
    } else if (std::find(kFlags.begin(), kFlags.end(), a) != kFlags.end()) {
      out.options[a] = "";
    } else if (i + 1 < raw.size()) {
      out.options[a] = raw[++i];
    } else {
      error = a + " needs a value";
      return false;
    }
  }
  return true;
}

std::string Money(std::int64_t cents) { return FormatBrl(cents); }

std::string Age(std::int64_t ms) {
  const std::int64_t s = ms / 1000;
  if (s < 120) return std::to_string(s) + "s";
  if (s < 7200) return std::to_string(s / 60) + "m";
  return std::to_string(s / 3600) + "h";
}

std::int64_t NowMs() { return SystemClock::Instance().Now() / 1000; }

json ToJson(const OutboxItem& item) {
  const auto& r = item.request;
  return json{{"id", item.id},
              {"key", r.key},
              {"kind", r.kind},
              {"method", r.method},
              {"path", r.path},
              {"lookup", offline::LookupByName(r.lookup)},
              {"lookupPath", r.lookup_path},
              {"saleId", r.sale_id},
              {"amount", r.amount},
              {"state", offline::OutboxStateName(item.state)},
              {"attempts", item.attempts},
              {"lookups", item.lookups},
              {"reachedBank", item.reached_bank},
              {"dropped", item.dropped},
              {"createdAt", FormatTimestamp(item.created_at_ms * 1000)},
              {"nextAttemptAt", FormatTimestamp(item.next_attempt_at_ms * 1000)},
              {"lastError", item.last_error},
              {"httpStatus", item.http_status},
              {"bankCodes", item.bank_codes},
              {"bankId", item.bank_id}};
}

int Fail(const Status& s) {
  std::fprintf(stderr, "balcao queue: %s\n", s.ToString().c_str());
  const bool invalid = s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kNotFound ||
                       s.code() == StatusCode::kFailedPrecondition;
  return invalid ? 1 : 2;
}

StatusOr<OutboxItem> Find(Outbox& outbox, const std::string& ref) {
  const bool numeric = !ref.empty() && ref.find_first_not_of("0123456789") == std::string::npos;
  if (numeric) {
    auto by_id = outbox.Get(std::stoll(ref));
    if (by_id.ok() || by_id.status().code() != StatusCode::kNotFound) return by_id;
  }
  auto by_key = outbox.GetByKey(ref);
  if (!by_key.ok() && by_key.status().code() == StatusCode::kNotFound)
    return NotFoundError("no request with id or key '" + ref + "' (see `balcao queue list`)");
  return by_key;
}

int List(Outbox& outbox, const Args& args) {
  std::optional<offline::OutboxState> state;
  if (args.Has("--state")) {
    state = offline::ParseOutboxState(args.Get("--state"));
    if (!state) return Fail(InvalidArgumentError("--state: one of pending, inflight, unknown, done, failed, dead"));
  }
  const int limit = std::atoi(args.Get("--limit", "50").c_str());
  auto items = outbox.List(state, limit, args.Get("--sale"));
  if (!items.ok()) return Fail(items.status());
  if (args.Has("--json")) {
    json out = json::array();
    for (const auto& item : *items) out.push_back(ToJson(item));
    std::printf("%s\n", out.dump().c_str());
    return 0;
  }
  std::printf("%-6s %-9s %-18s %-14s %12s %4s %5s  %s\n", "ID", "STATE", "KIND", "SALE", "AMOUNT", "TRY", "AGE",
              "LAST ERROR");
  const std::int64_t now = NowMs();
  for (const auto& item : *items) {
    std::string state_text = offline::OutboxStateName(item.state);
    if (item.dropped) state_text += "*";
    std::printf("%-6lld %-9s %-18s %-14s %12s %4d %5s  %s\n", static_cast<long long>(item.id), state_text.c_str(),
                item.request.kind.substr(0, 18).c_str(), item.request.sale_id.substr(0, 14).c_str(),
                Money(item.request.amount).c_str(), item.attempts, Age(now - item.created_at_ms).c_str(),
                item.last_error.substr(0, 60).c_str());
  }
  if (items->empty()) std::printf("(the queue is empty)\n");
  return 0;
}

int Show(Outbox& outbox, const Args& args) {
  if (args.positional.size() < 2) return Fail(InvalidArgumentError("show: which request? (ID or key)"));
  auto item = Find(outbox, args.positional[1]);
  if (!item.ok()) return Fail(item.status());
  json j = ToJson(*item);
  if (args.Has("--json")) {
    j["body"] = item->request.body;
    j["response"] = item->response;
    std::printf("%s\n", j.dump().c_str());
    return 0;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string value = it->is_string() ? it->get<std::string>() : it->dump();
    if (!value.empty()) std::printf("%-14s %s\n", it.key().c_str(), value.c_str());
  }
  std::printf("%-14s %s\n", "body", item->request.body.c_str());
  if (!item->response.empty()) std::printf("%-14s %s\n", "response", item->response.c_str());
  return 0;
}

int Metrics(offline::Store& store, Outbox& outbox, const Args& args) {
  auto m = outbox.Metrics();
  if (!m.ok()) return Fail(m.status());
  offline::PrintJobs jobs(store);
  auto failed_prints = jobs.List(offline::PrintJobState::kFailed, 1000);
  auto cards = offline::SealedCards::Open(store, {});
  std::int64_t sealed = 0, outcomes = 0;
  if (cards.ok()) {
    auto pending = (*cards)->Pending();
    auto unreported = (*cards)->UnreportedOutcomes();
    sealed = pending.ok() ? static_cast<std::int64_t>(pending->size()) : 0;
    outcomes = unreported.ok() ? static_cast<std::int64_t>(unreported->size()) : 0;
  }
  const std::int64_t unprinted = failed_prints.ok() ? static_cast<std::int64_t>(failed_prints->size()) : 0;
  if (args.Has("--json")) {
    std::printf("%s\n", json{{"depth", m->depth},
                             {"unknown", m->unknown},
                             {"failures", m->failed},
                             {"dropped", m->dropped},
                             {"oldestAgeMs", m->oldest_age_ms},
                             {"amountAtRisk", m->amount_at_risk},
                             {"failedPrintJobs", unprinted},
                             {"offlineCardSales", sealed},
                             {"unreportedCardOutcomes", outcomes}}
                            .dump()
                            .c_str());
    return 0;
  }
  std::printf("depth           %lld (unknown outcome: %lld)\n", static_cast<long long>(m->depth),
              static_cast<long long>(m->unknown));
  std::printf("oldest          %s\n", m->depth > 0 ? Age(m->oldest_age_ms).c_str() : "-");
  std::printf("amount at risk  %s\n", Money(m->amount_at_risk).c_str());
  std::printf("failures        %lld failed or dead (%lld dropped)\n", static_cast<long long>(m->failed),
              static_cast<long long>(m->dropped));
  std::printf("receipts        %lld paid but not printed\n", static_cast<long long>(unprinted));
  std::printf("offline cards   %lld waiting, %lld outcomes to report\n", static_cast<long long>(sealed),
              static_cast<long long>(outcomes));
  return 0;
}

int Drain(offline::Store& store, Outbox& outbox, const Args& args) {
  if (!store.is_owner()) return Fail(UnavailableError("another process (the service?) owns the store and drains it"));
  auto client = offline::DrainerClient(args.Get("--credentials"));
  if (!client.ok()) return Fail(client.status());
  offline::ApiGateway bank(*client);
  offline::DrainerOptions options;
  options.concurrency = std::max(1, std::atoi(args.Get("--concurrency", "4").c_str()));
  options.poll_interval = std::chrono::milliseconds(200);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(std::atoi(args.Get("--timeout", "600").c_str()));
  ProgressLine progress("balcao queue drain");
  options.on_round = [&progress, &outbox](const offline::DrainerStats& so_far) {
    auto depth = outbox.Metrics();
    progress.Update(std::to_string(so_far.sent) + " sent, " + std::to_string(so_far.done) + " done, " +
                    std::to_string(so_far.lookups) + " looked up, " +
                    (depth.ok() ? std::to_string(depth->depth) : std::string("?")) + " left");
  };
  auto stats = offline::DrainNow(outbox, bank, options, args.Has("--wait"), deadline);
  progress.Finish();
  if (!stats.ok()) return Fail(stats.status());
  auto m = outbox.Metrics();
  std::printf("sent=%lld done=%lld unknown=%lld lookups=%lld failed=%lld not_sent=%lld depth=%lld\n",
              static_cast<long long>(stats->sent), static_cast<long long>(stats->done),
              static_cast<long long>(stats->unknown), static_cast<long long>(stats->lookups),
              static_cast<long long>(stats->failed), static_cast<long long>(stats->not_sent),
              static_cast<long long>(m.ok() ? m->depth : -1));
  return m.ok() && m->depth == 0 ? 0 : 1;
}

int RunQueue(const std::vector<std::string>& raw) {
  Args args;
  std::string error;
  if (!ParseArgs(raw, args, error)) return Fail(InvalidArgumentError(error));
  if (args.positional.empty() || args.Has("--help")) {
    std::fputs(kUsage, args.positional.empty() && !args.Has("--help") ? stderr : stdout);
    return args.Has("--help") ? 0 : 2;
  }
  auto opened = internal::OpenBoxStore(args.Get("--db"), args.Get("--config"));
  if (!opened.ok()) return Fail(opened.status());
  if (!args.Has("--credentials") && !opened->box.credentials_path.empty())
    args.options["--credentials"] = opened->box.credentials_path;
  offline::OutboxPolicy policy;
  if (args.Has("--settle-ms")) policy.unknown_settle_ms = std::atoll(args.Get("--settle-ms").c_str());
  if (args.Has("--backoff-ms")) {
    policy.backoff_initial_ms = std::max(1LL, std::atoll(args.Get("--backoff-ms").c_str()));
    policy.backoff_max_ms = policy.backoff_initial_ms * 300;
  }
  if (args.Has("--max-attempts")) policy.max_attempts = std::max(1, std::atoi(args.Get("--max-attempts").c_str()));
  Outbox outbox(*opened->store, policy);
  const std::string& verb = args.positional[0];
  if (verb == "list") return List(outbox, args);
  if (verb == "show") return Show(outbox, args);
  if (verb == "metrics") return Metrics(*opened->store, outbox, args);
  if (verb == "drain") return Drain(*opened->store, outbox, args);
  if (verb == "retry" || verb == "drop") {
    if (args.positional.size() < 2) return Fail(InvalidArgumentError(verb + ": which request? (ID or key)"));
    auto item = Find(outbox, args.positional[1]);
    if (!item.ok()) return Fail(item.status());
    const char* user = std::getenv("USER");
    const std::string who = args.Get("--operator", user != nullptr ? user : "operator");
    Status s = verb == "retry" ? outbox.Retry(item->id, who, args.Get("--reason"))
                               : outbox.Drop(item->id, who, args.Get("--reason"));
    if (!s.ok()) return Fail(s);
    std::printf("%s %lld: %s\n", verb == "retry" ? "retrying" : "dropped", static_cast<long long>(item->id),
                offline::OutboxStateName(outbox.Get(item->id)->state));
    return 0;
  }
  std::fputs(kUsage, stderr);
  return 2;
}

}  // namespace

BALCAO_COMMAND("queue", "the offline queue: list, show, retry, drop, drain, metrics", RunQueue);

}  // namespace balcao::terminal
