// `balcao hub serve|enroll|join|revoke|status`: the chain's hub (hub/, docs/hub.md): the bank
// account's one webhook, each event routed to its lane's boxes over NATS JetStream, its state in
// PostgreSQL; and on a box, `join`, which trades an enrolment code for the lane's NATS user.
#include <curl/curl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hub/chain_settle.h"
#include "hub/enrolment.h"
#include "hub/fleet.h"
#include "hub/hub.h"
#include "hub/hub_config.h"
#include "hub/hub_store.h"
#include "hub/routing.h"
#include "terminal/command.h"
#include "terminal/internal/stop_signals.h"
#include "terminal/service/config.h"
#include "terminal/service/hub_link.h"
#include "terminal/service/web_assets.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao hub serve [--config FILE] [--postgres CONNINFO] [--nats URL] [--address A] [--port N]\n"
    "                        [--webhook-url URL] [--credentials FILE]\n"
    "       balcao hub enroll --store S --lane T [--config FILE]\n"
    "       balcao hub join CODE --hub URL [--out FILE] [--ca FILE] [--nats-ca FILE] [--box-config FILE]\n"
    "       balcao hub revoke --store S --lane T [--config FILE]\n"
    "       balcao hub status [--config FILE] [--json]\n"
    "       balcao hub settle [--day YYYY-MM-DD] [--json] [--connections N] [--config FILE]\n"
    "       balcao hub user add NAME [--config FILE]    (the password on stdin, 10 characters or more)\n"
    "serve: receives the bank's deliveries on /bank/webhook (behind the TLS proxy), checks each\n"
    "signature, publishes each event to JetStream under its lane's subject and records it in\n"
    "PostgreSQL, answering 200 only once JetStream stored it. enroll: a one-time code (24 h) for a\n"
    "lane. join (on the box): trades it at the hub for the lane's NATS user, written 0600 to --out\n"
    "(default: the box config's hub.credentials, else <data_dir>/hub.json). revoke: ends the\n"
    "lane's access at once. status: lanes, their last heartbeat (silent: none for 5 minutes), the\n"
    "events routed to each, and whether its journal still extends the heads the hub saw. settle:\n"
    "the day's night (default yesterday) four ways per lane, store and account: the boxes' reports,\n"
    "the events routed, the bank's entities and its ledger; names every lane whose report is\n"
    "missing. Exit 0 reconciled, 1 items to look at, 2 could not run.\n"
    "--config: the hub's JSON config (default $BALCAO_HUB_CONFIG, else /etc/balcao/hub.json when\n"
    "it exists). docs/hub.md.\n";

int Fail(const std::string& message) {
  std::fprintf(stderr, "balcao hub: %s\n", message.c_str());
  return 2;
}

// Flags as name -> value ("--json" -> ""), positional words apart.
struct Args {
  std::map<std::string, std::string> flags;
  std::vector<std::string> words;
};
StatusOr<Args> ParseArgs(const std::vector<std::string>& args, const std::vector<std::string>& switches) {
  Args out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      out.words.push_back(a);
    } else if (std::find(switches.begin(), switches.end(), a) != switches.end()) {
      out.flags[a] = "";
    } else if (i + 1 < args.size()) {
      out.flags[a] = args[++i];
    } else {
      return InvalidArgumentError(a + ": needs a value");
    }
  }
  return out;
}

// The hub's options: its config file, then the flags given.
StatusOr<hub::HubOptions> HubOptionsFrom(const Args& args) {
  hub::HubOptions options;
  std::string path = args.flags.count("--config") ? args.flags.at("--config") : "";
  if (path.empty() && std::getenv("BALCAO_HUB_CONFIG") != nullptr) path = std::getenv("BALCAO_HUB_CONFIG");
  std::error_code ec;
  if (path.empty() && std::filesystem::exists(hub::kInstalledHubConfig, ec)) path = hub::kInstalledHubConfig;
  if (!path.empty()) BALCAO_RETURN_IF_ERROR(hub::LoadHubConfig(path, options));
  for (const auto& [flag, value] : args.flags) {
    if (flag == "--postgres") options.postgres = value;
    if (flag == "--nats") options.nats.url = value;
    if (flag == "--address") options.address = value;
    if (flag == "--webhook-url") options.webhook_url = value;
    if (flag == "--credentials") options.bank_credentials = value;
    if (flag == "--port") {
      char* end = nullptr;
      const long port = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || port < 0 || port > 65535)
        return InvalidArgumentError("--port: a number 0-65535, got '" + value + "'");
      options.port = static_cast<unsigned short>(port);
    }
  }
  if (options.postgres.empty()) return InvalidArgumentError("postgres: required (--postgres or the config's)");
  return options;
}

int RunServe(const Args& args) {
  auto options = HubOptionsFrom(args);
  if (!options.ok()) return Fail(options.status().message());
  if (options->nats.url.empty()) return Fail("nats.url: required (--nats or the config's)");
  options->nats.name = "balcao-hub";
  options->phone_assets = &service::WebAssets();  // the phone-card page (docs/hub.md)
  const StopSignals stop;                         // before the hub's threads start
  auto started = hub::Hub::Start(*options);
  if (!started.ok()) return Fail(started.status().ToString());
  std::printf("balcao hub listening on http://%s:%u/ (schema %d)\n", options->address.c_str(), (*started)->port(),
              (*started)->schema_version());
  std::fflush(stdout);
  stop.Wait();
  (*started)->Stop();
  return 0;
}

StatusOr<std::unique_ptr<hub::HubStore>> OpenStore(const hub::HubOptions& options) {
  BALCAO_ASSIGN_OR_RETURN(auto store, hub::HubStore::Open(options.postgres));
  BALCAO_RETURN_IF_ERROR(store->Migrate().status());
  return store;
}

int RunEnroll(const Args& args) {
  auto options = HubOptionsFrom(args);
  if (!options.ok()) return Fail(options.status().message());
  if (!args.flags.count("--store") || !args.flags.count("--lane"))
    return Fail("enroll: --store S --lane T\n" + std::string(kUsage));
  auto store = OpenStore(*options);
  if (!store.ok()) return Fail(store.status().message());
  auto code = hub::Enroll(**store, args.flags.at("--store"), args.flags.at("--lane"));
  if (!code.ok()) return Fail(code.status().message());
  std::printf("%s\n", code->c_str());
  std::fprintf(stderr, "one-time code for %s/%s, valid 24 hours: on the box, balcao hub join %s --hub https://<hub>\n",
               args.flags.at("--store").c_str(), args.flags.at("--lane").c_str(), code->c_str());
  return 0;
}

int RunRevoke(const Args& args) {
  auto options = HubOptionsFrom(args);
  if (!options.ok()) return Fail(options.status().message());
  if (!args.flags.count("--store") || !args.flags.count("--lane")) return Fail("revoke: --store S --lane T");
  auto store = OpenStore(*options);
  if (!store.ok()) return Fail(store.status().message());
  hub::NatsAuthority authority = options->authority;
  authority.hub_user = options->nats.user;
  auto hash = hub::BcryptHash(options->nats.password);
  if (!hash.ok()) return Fail(hash.status().message());
  authority.hub_password_hash = *hash;
  if (Status revoked = hub::Revoke(**store, authority, args.flags.at("--store"), args.flags.at("--lane"));
      !revoked.ok())
    return Fail(revoked.message());
  std::printf("revoked %s/%s: its NATS user is gone and its connection closed\n", args.flags.at("--store").c_str(),
              args.flags.at("--lane").c_str());
  return 0;
}

size_t AppendBody(char* data, size_t size, size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

// POST <hub>/hub/join {"code"}: the answer's status and body.
StatusOr<std::pair<long, std::string>> PostJoin(const std::string& hub_url, const std::string& code,
                                                const std::string& ca_file) {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) return InternalError("libcurl: no handle");
  std::string url = hub_url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  url += "/hub/join";
  const std::string body = nlohmann::json{{"code", code}}.dump();
  std::string answer;
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, AppendBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
  if (!ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, ca_file.c_str());
  const CURLcode sent = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  if (sent != CURLE_OK) return UnavailableError(url + ": " + curl_easy_strerror(sent));
  return std::make_pair(status, answer);
}

// Where `join` writes the credentials: --out, else the box config's hub.credentials, else
// <data_dir>/hub.json.
StatusOr<std::string> JoinTarget(const Args& args) {
  if (args.flags.count("--out")) return args.flags.at("--out");
  const std::string config_path =
      service::FindConfigFile(args.flags.count("--box-config") ? args.flags.at("--box-config") : "");
  if (config_path.empty()) return InvalidArgumentError("--out: where to write the credentials (no box config found)");
  BALCAO_ASSIGN_OR_RETURN(service::ServeConfig config, service::LoadServeConfig(config_path));
  if (!config.hub.credentials.empty()) return config.hub.credentials;
  if (config.data_dir.empty()) return InvalidArgumentError("--out: the box config names no data_dir");
  return (std::filesystem::path(config.data_dir) / "hub.json").string();
}

int RunJoin(const Args& args) {
  if (args.words.size() != 1 || !args.flags.count("--hub")) return Fail("join: CODE --hub URL\n" + std::string(kUsage));
  auto target = JoinTarget(args);
  if (!target.ok()) return Fail(target.status().message());
  const std::string ca = args.flags.count("--ca") ? args.flags.at("--ca") : "";
  auto answer = PostJoin(args.flags.at("--hub"), args.words[0], ca);
  if (!answer.ok()) return Fail(answer.status().message());
  const auto json = nlohmann::json::parse(answer->second, nullptr, false);
  if (answer->first != 200 || !json.is_object() || !json.contains("user")) {
    const std::string rule =
        json.is_object() && json.contains("error") ? json["error"].value("rule", "") : answer->second;
    return Fail("the hub refused the code (HTTP " + std::to_string(answer->first) + "): " + rule);
  }
  service::HubCredentials credentials{
      json.value("nats_url", ""), json.value("user", ""),
      json.value("password", ""), args.flags.count("--nats-ca") ? args.flags.at("--nats-ca") : "",
      json.value("store", ""),    json.value("terminal", "")};
  if (Status saved = service::SaveHubCredentials(*target, credentials); !saved.ok()) return Fail(saved.message());
  std::printf("joined the hub as %s/%s: credentials in %s (0600); set hub.credentials in the box's config\n",
              credentials.store.c_str(), credentials.terminal.c_str(), target->c_str());
  return 0;
}

int RunStatus(const Args& args) {
  auto options = HubOptionsFrom(args);
  if (!options.ok()) return Fail(options.status().message());
  auto store = OpenStore(*options);
  if (!store.ok()) return Fail(store.status().message());
  auto lanes = (*store)->ActiveLanes();
  auto health = (*store)->Health();
  if (!lanes.ok() || !health.ok()) return Fail((lanes.ok() ? health.status() : lanes.status()).message());
  std::map<std::string, hub::HubStore::LaneHealth> seen;
  for (auto& h : *health) seen[h.store + "/" + h.terminal] = h;
  nlohmann::json out = nlohmann::json::array();
  const UnixMicros now = SystemClock::Instance().Now();
  for (const auto& lane : *lanes) {
    auto routed = (*store)->CountRouted(hub::LaneSubject(lane.store, lane.terminal));
    auto alarm = (*store)->LastChainAlarm(lane.store, lane.terminal);
    const auto found = seen.find(lane.store + "/" + lane.terminal);
    out.push_back({{"store", lane.store},
                   {"terminal", lane.terminal},
                   {"events_routed", routed.ok() ? *routed : -1},
                   {"last_seen", found == seen.end() ? "never" : FormatTimestamp(found->second.last_seen)},
                   {"silent", found == seen.end() || now - found->second.last_seen > hub::kSilentAfter},
                   {"chain", !alarm.ok()      ? alarm.status().message()
                             : alarm->empty() ? "ok"
                                              : *alarm}});
  }
  if (args.flags.count("--json")) {
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  std::printf("%-16s %-16s %13s  %-32s %-7s %s\n", "store", "lane", "events routed", "last heartbeat", "state",
              "journal");
  for (const auto& lane : out)
    std::printf("%-16s %-16s %13lld  %-32s %-7s %s\n", lane["store"].get<std::string>().c_str(),
                lane["terminal"].get<std::string>().c_str(), lane["events_routed"].get<long long>(),
                lane["last_seen"].get<std::string>().c_str(), lane["silent"].get<bool>() ? "SILENT" : "up",
                lane["chain"].get<std::string>().c_str());
  return 0;
}

// The chain's night, four ways (hub/night.h). Exit 0 reconciled, 1 items to look at, 2 could
// not run, as `balcao settle`.
int RunSettle(const Args& args) {
  auto options = HubOptionsFrom(args);
  if (!options.ok()) return Fail(options.status().message());
  hub::ChainSettleOptions settle;
  settle.now = SystemClock::Instance().Now();
  settle.day = args.flags.count("--day") ? args.flags.at("--day") : PreviousBusinessDay(settle.now);
  if (auto valid = BusinessDayStart(settle.day); !valid.ok()) return Fail("--day " + valid.status().message());
  settle.replay_window_days = options->replay_window_days;
  if (args.flags.count("--connections")) {
    const std::string& n = args.flags.at("--connections");
    if (n.size() != 1 || n[0] < '1' || n[0] > '5') return Fail("--connections: 1 to 5, got '" + n + "'");
    settle.connections = n[0] - '0';
  }
  auto store = OpenStore(*options);
  if (!store.ok()) return Fail(store.status().message());
  auto client = api::Client::FromEnvironment(options->bank_credentials);
  if (!client.ok()) return Fail("bank: " + client.status().ToString());
  auto night = hub::SettleChain(**store, api::Bank(*client), settle);
  if (!night.ok()) return Fail("the chain's night " + settle.day + ": " + night.status().ToString());
  const std::string out = args.flags.count("--json") ? hub::ChainNightJson(*night) : hub::ChainNightText(*night);
  std::fputs(out.c_str(), stdout);
  return night->items == 0 ? 0 : 1;
}

// A fleet page user (hub/fleet_page.h): the password is read from stdin, never from the
// command line (ps would show it). Adding an existing user sets a new password and ends its sessions.
int RunUser(const Args& args) {
  if (args.words.size() != 2 || args.words[0] != "add") return Fail("user: add NAME (the password on stdin)");
  const std::string& name = args.words[1];
  if (name.empty() || name.size() > 64 || name.find_first_of(" \t\n:") != std::string::npos)
    return Fail("NAME: 1 to 64 characters, no spaces or ':'");
  std::string password;
  std::getline(std::cin, password);
  if (!password.empty() && password.back() == '\r') password.pop_back();
  if (password.size() < 10) return Fail("password (stdin): 10 characters or more");
  auto options = HubOptionsFrom(args);
  if (!options.ok()) return Fail(options.status().message());
  auto store = OpenStore(*options);
  if (!store.ok()) return Fail(store.status().message());
  auto hash = hub::BcryptHash(password);
  if (!hash.ok()) return Fail(hash.status().message());
  if (Status kept = (*store)->PutFleetUser(name, *hash, SystemClock::Instance().Now()); !kept.ok())
    return Fail(kept.message());
  std::printf("fleet user %s: may sign in on /fleet/\n", name.c_str());
  return 0;
}

int RunHub(const std::vector<std::string>& args) {
  if (args.empty()) return Fail(std::string("which subcommand?\n") + kUsage);
  if (args[0] == "--help" || args[0] == "-h") return std::fputs(kUsage, stdout), 0;
  auto parsed = ParseArgs(std::vector<std::string>(args.begin() + 1, args.end()), {"--json", "--help"});
  if (!parsed.ok()) return Fail(parsed.status().message());
  if (parsed->flags.count("--help")) return std::fputs(kUsage, stdout), 0;
  if (args[0] == "serve") return RunServe(*parsed);
  if (args[0] == "enroll") return RunEnroll(*parsed);
  if (args[0] == "join") return RunJoin(*parsed);
  if (args[0] == "revoke") return RunRevoke(*parsed);
  if (args[0] == "status") return RunStatus(*parsed);
  if (args[0] == "settle") return RunSettle(*parsed);
  if (args[0] == "user") return RunUser(*parsed);
  return Fail("unknown subcommand '" + args[0] + "'\n" + kUsage);
}

}  // namespace

BALCAO_COMMAND("hub", "the chain's hub: one webhook for the account, events routed to each lane (docs/hub.md)", RunHub);

}  // namespace balcao::terminal
