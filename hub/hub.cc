#include "hub/hub.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>

#include "api/bank.h"
#include "api/events.h"
#include "common/log.h"
#include "http/server.h"
#include "hub/chain_watch.h"
#include "hub/client_address.h"
#include "hub/fleet_page.h"
#include "hub/hub_store.h"
#include "hub/phone_home.h"
#include "hub/routing.h"

namespace balcao::hub {
namespace {

using http::HttpRequest;
using http::HttpResponse;

HttpResponse Error(int status, const std::string& field, const std::string& rule) {
  const nlohmann::json body = {{"error", {{"field", field}, {"rule", rule}}}};
  return HttpResponse{status, "application/json; charset=utf-8", body.dump(), {}};
}

// The webhook at the bank pointing at the hub, registered once per URL.
Status RegisterHubWebhook(const api::Bank& bank, const std::string& url) {
  auto listed = bank.client().Call("GET", "/v2/webhook", api::Query().Add("limit", std::int64_t{100}));
  if (!listed.ok()) return listed.status();
  const auto page = nlohmann::json::parse(listed->body, nullptr, false);
  if (page.is_object() && page.contains("webhooks") && page["webhooks"].is_array())
    for (const auto& hook : page["webhooks"])
      if (hook.is_object() && hook.value("url", "") == url) return OkStatus();
  const nlohmann::json body = {{"url", url}, {"subscriptions", nlohmann::json::array({"deposit", "invoice"})}};
  auto created = bank.client().Call("POST", "/v2/webhook", {}, body.dump());
  return created.ok() ? OkStatus() : created.status();
}

}  // namespace

struct Hub::Impl {
  HubOptions options;
  std::unique_ptr<HubStore> store;
  std::unique_ptr<NatsLink> nats;
  std::unique_ptr<api::Bank> bank;
  std::unique_ptr<api::EventVerifier> verifier;
  std::unique_ptr<http::Server> server;
  std::unique_ptr<FleetPage> fleet;
  std::unique_ptr<PhoneHome> phone;  // null without phone_assets
  unsigned short port = 0;
  int schema_version = 0;
  std::atomic<long long> routed{0}, replayed{0}, refused{0}, failed{0}, unclaimed{0}, heartbeats{0}, chain_alarms{0},
      nights{0};
  std::atomic<long long> next_prune_us{0};
  // Where a routed delivery's time goes (microseconds summed per stage): the signature, the
  // dedupe lookup and the route (PostgreSQL; a brcode's lane at the bank once), JetStream's
  // acknowledgement of the publish, and PostgreSQL's commit of the record.
  enum Stage { kVerify, kLookup, kPublish, kRecord, kStages };
  std::array<std::atomic<long long>, kStages> stage_us{};
  void Spent(Stage stage, std::chrono::steady_clock::time_point& since) {
    const auto now = std::chrono::steady_clock::now();
    stage_us[stage] += std::chrono::duration_cast<std::chrono::microseconds>(now - since).count();
    since = now;
  }

  HttpResponse Deliver(const HttpRequest& request);
  StatusOr<std::string> SubjectOf(const api::Event& event);
  void PruneIfDue(UnixMicros now);
  HttpResponse Metrics();
  HttpResponse MetricsFor(const HttpRequest& request);
  HttpResponse JoinLane(const HttpRequest& request);
  void OnBoxMessage(const std::string& subject, const std::string& data);
  std::string OnNight(const std::string& subject, const std::string& data);
  Status CheckChain(const std::string& store_id, const std::string& terminal, const std::string& chain_json);
};

// A box's journal head, against every head of that lane the hub saw (chain_watch.h).
Status Hub::Impl::CheckChain(const std::string& store_id, const std::string& terminal, const std::string& chain_json) {
  BALCAO_ASSIGN_OR_RETURN(ChainClaim claim, ParseChainClaim(chain_json));
  BALCAO_ASSIGN_OR_RETURN(std::optional<std::string> at_prev, store->ChainHeadAt(store_id, terminal, claim.prev_rows));
  BALCAO_ASSIGN_OR_RETURN(std::optional<std::string> at_rows, store->ChainHeadAt(store_id, terminal, claim.rows));
  BALCAO_ASSIGN_OR_RETURN(std::int64_t most, store->MostChainRows(store_id, terminal));
  const UnixMicros now = SystemClock::Instance().Now();
  if (const std::string broken = ChainBreakOf(claim, at_prev, at_rows, most); !broken.empty()) {
    ++chain_alarms;
    logging::Error("hub", "journal rewritten on a box",
                   {{"store", store_id}, {"terminal", terminal}, {"detail", broken}});
    return store->RecordChainAlarm(store_id, terminal, broken, now);
  }
  return store->RecordChainPoint(store_id, terminal, claim.rows, claim.head, now);
}

// balcao.box.<store>.<terminal>.heartbeat: only that lane's user may publish there (enrolment.h).
void Hub::Impl::OnBoxMessage(const std::string& subject, const std::string& data) {
  BoxSubjectParts lane;
  if (!ParseBoxSubject(subject, lane) || lane.kind != "heartbeat") return;
  if (!nlohmann::json::accept(data)) {
    logging::Warn("hub", "heartbeat not JSON: ignored", {{"subject", subject}});
    return;
  }
  ++heartbeats;
  if (Status kept = store->RecordHeartbeat(lane.store, lane.terminal, data, SystemClock::Instance().Now()); !kept.ok())
    logging::Warn("hub", "heartbeat not recorded", {{"subject", subject}, {"reason", kept.message()}});
  const auto beat = nlohmann::json::parse(data, nullptr, false);
  if (beat.is_object() && beat.contains("chain"))
    if (Status checked = CheckChain(lane.store, lane.terminal, beat["chain"].dump()); !checked.ok())
      logging::Warn("hub", "chain head not checked", {{"subject", subject}, {"reason", checked.message()}});
}

// balcao.box.<store>.<terminal>.night: a box's settlement summary after its nightly run
// (settlement::NightSummaryJson). Answered only once PostgreSQL holds it: the box sends it
// again until then.
std::string Hub::Impl::OnNight(const std::string& subject, const std::string& data) {
  BoxSubjectParts lane;
  if (!ParseBoxSubject(subject, lane) || lane.kind != "night") return "";
  auto night = ParseNight(lane.store, lane.terminal, data);
  if (!night.ok()) {
    logging::Warn("hub", "night refused", {{"subject", subject}, {"reason", night.status().message()}});
    return nlohmann::json{{"error", night.status().message()}}.dump();
  }
  night->received = SystemClock::Instance().Now();
  if (Status kept = store->RecordNight(*night); !kept.ok()) {
    logging::Warn("hub", "night not recorded", {{"subject", subject}, {"reason", kept.message()}});
    return nlohmann::json{{"error", kept.message()}}.dump();
  }
  ++nights;
  logging::Info("hub", "night recorded",
                {{"store", lane.store}, {"terminal", lane.terminal}, {"day", night->day}, {"status", night->status}});
  return R"({"stored":true})";
}

HttpResponse Hub::Impl::JoinLane(const HttpRequest& request) {
  if (request.method != "POST") return Error(405, "method", "POST {\"code\": ...}");
  if (options.authority.auth_file.empty())
    return Error(404, "path", "this hub manages no NATS users (--nats-auth-file)");
  const auto body = nlohmann::json::parse(request.body, nullptr, false);
  if (!body.is_object() || !body.contains("code") || !body["code"].is_string())
    return Error(400, "code", "required: the one-time code of balcao hub enroll");
  auto joined = Join(*store, *nats, options.authority, body["code"].get<std::string>());
  if (!joined.ok() && joined.status().code() == StatusCode::kNotFound) {
    logging::Warn("hub", "join refused", {{"from", request.remote_address}});
    return Error(403, "code", joined.status().message());
  }
  if (!joined.ok()) return Error(503, "join", joined.status().message());
  logging::Info("hub", "lane joined", {{"store", joined->store}, {"terminal", joined->terminal}});
  const nlohmann::json answer = {{"nats_url", joined->nats_url},
                                 {"user", joined->user},
                                 {"password", joined->password},
                                 {"store", joined->store},
                                 {"terminal", joined->terminal}};
  return HttpResponse{200, "application/json; charset=utf-8", answer.dump(), {}};
}

StatusOr<std::string> Hub::Impl::SubjectOf(const api::Event& event) {
  Route route = RouteOfEvent(event);
  if (route.brcode_uuid.empty()) return route.subject;
  BALCAO_ASSIGN_OR_RETURN(std::optional<std::string> known, store->BrcodeSubject(route.brcode_uuid));
  if (known) return *known;
  BALCAO_ASSIGN_OR_RETURN(
      auto page, bank->dynamic_brcode().ListPage(api::ListParams().Filter("uuids", route.brcode_uuid).Limit(1)));
  const std::string subject = page.items.empty()
                                  ? std::string(kUnclaimedSubject)
                                  : RouteOfTags(page.items.front().tags.value_or(api::Strings{})).subject;
  BALCAO_RETURN_IF_ERROR(store->RecordBrcodeSubject(route.brcode_uuid, subject));  // tags never change
  return subject;
}

void Hub::Impl::PruneIfDue(UnixMicros now) {
  long long due = next_prune_us.load();
  if (now < due || !next_prune_us.compare_exchange_strong(due, now + 3600 * kMicrosPerSecond)) return;
  auto forgotten = store->ForgetRoutedBefore(now - options.replay_window_days * 86400 * kMicrosPerSecond);
  if (!forgotten.ok()) logging::Warn("hub", "routed events not pruned", {{"reason", forgotten.status().message()}});
}

HttpResponse Hub::Impl::Deliver(const HttpRequest& request) {
  if (request.method != "POST") return Error(405, "method", "POST (the bank's deliveries)");
  const std::string signature(request.Header("digital-signature"));
  if (signature.empty()) {
    ++refused;
    return Error(401, "Digital-Signature", "required: the bank signs every delivery");
  }
  auto since = std::chrono::steady_clock::now();
  if (Status verified = verifier->Verify(request.body, signature); !verified.ok()) {
    if (verified.code() != StatusCode::kPermissionDenied && verified.code() != StatusCode::kInvalidArgument)
      return Error(503, "public-key", verified.message());  // the bank delivers again later
    ++refused;
    logging::Warn("hub", "delivery refused", {{"reason", verified.message()}});
    return Error(401, "Digital-Signature", verified.message());
  }
  auto event = api::ParseEvent(request.body);
  if (!event.ok()) {
    ++refused;
    return Error(400, "event", event.status().message());
  }
  Spent(kVerify, since);
  const UnixMicros now = SystemClock::Instance().Now();
  PruneIfDue(now);
  if (event->created < now - options.replay_window_days * 86400 * kMicrosPerSecond) {
    ++refused;
    return Error(422, "event", "older than the " + std::to_string(options.replay_window_days) + "-day replay window");
  }
  auto seen = store->Routed(event->id);
  if (!seen.ok()) return ++failed, Error(503, "store", seen.status().message());
  if (*seen) {
    ++replayed;
    return HttpResponse{200, "application/json; charset=utf-8", R"({"outcome":"replayed"})", {}};
  }
  auto subject = SubjectOf(*event);
  if (!subject.ok()) return ++failed, Error(503, "route", subject.status().message());
  Spent(kLookup, since);
  auto stored = nats->Publish(*subject, event->id, request.body);
  if (!stored.ok()) return ++failed, Error(503, "jetstream", stored.status().message());
  Spent(kPublish, since);
  if (Status recorded = store->RecordRouted(
          {event->id, event->created, *subject, stored->sequence, event->subscription + "/" + event->log.entity_id});
      !recorded.ok())
    return ++failed, Error(503, "store", recorded.message());  // stored in JetStream; a repeat is a duplicate there
  Spent(kRecord, since);
  ++routed;
  if (*subject == kUnclaimedSubject) ++unclaimed;
  const nlohmann::json answer = {{"outcome", "routed"}, {"subject", *subject}, {"sequence", stored->sequence}};
  return HttpResponse{200, "application/json; charset=utf-8", answer.dump(), {}};
}

// /metrics: Prometheus where the hub runs (a request that did not come through the proxy), or a
// signed-in fleet user through it; the proxy's public site refuses it anyway (docs/hub.md).
HttpResponse Hub::Impl::MetricsFor(const HttpRequest& request) {
  const bool through_proxy = !request.Header("x-forwarded-for").empty() &&
                             std::find(options.trusted_proxies.begin(), options.trusted_proxies.end(),
                                       request.remote_address) != options.trusted_proxies.end();
  if (through_proxy && fleet->SignedIn(request).empty())
    return Error(403, "session", "/metrics through the proxy: sign in on /fleet/ first");
  return Metrics();
}

HttpResponse Hub::Impl::Metrics() {
  std::string text;
  auto counter = [&text](const char* name, const char* help, const std::string& labels, long long value) {
    text += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " counter\n";
    text += std::string(name) + labels + " " + std::to_string(value) + "\n";
  };
  counter("balcao_hub_deliveries_routed_total", "Deliveries published to JetStream and recorded.", "", routed.load());
  counter("balcao_hub_deliveries_replayed_total", "Deliveries of an event routed before.", "", replayed.load());
  counter("balcao_hub_deliveries_refused_total", "Deliveries refused (signature, body, replay window).", "",
          refused.load());
  counter("balcao_hub_deliveries_failed_total", "Deliveries answered 503 (PostgreSQL, JetStream or the bank).", "",
          failed.load());
  counter("balcao_hub_events_unclaimed_total", "Events no lane's tags name.", "", unclaimed.load());
  text +=
      "# HELP balcao_hub_delivery_stage_seconds_total Time deliveries spent per stage (verify, lookup, publish, "
      "record).\n# TYPE balcao_hub_delivery_stage_seconds_total counter\n";
  const char* stages[] = {"verify", "lookup", "publish", "record"};
  for (int stage = 0; stage < kStages; ++stage) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.6f", static_cast<double>(stage_us[stage].load()) / 1e6);
    text += std::string("balcao_hub_delivery_stage_seconds_total{stage=\"") + stages[stage] + "\"} " + seconds + "\n";
  }
  counter("balcao_hub_heartbeats_total", "Heartbeats received from boxes.", "", heartbeats.load());
  counter("balcao_hub_nights_total", "Boxes' settlement summaries recorded.", "", nights.load());
  counter("balcao_hub_chain_alarms_total", "Box journals whose head does not extend the last one seen.", "",
          chain_alarms.load());
  auto gauge = [&text](const char* name, const char* help, long long value) {
    text += std::string("# HELP ") + name + " " + help + "\n# TYPE " + name + " gauge\n";
    text += std::string(name) + " " + std::to_string(value) + "\n";
  };
  if (auto lanes = fleet->Lanes(); lanes.ok()) {
    const FleetCounts counts = CountFleet(*lanes, SystemClock::Instance().Now());
    gauge("balcao_hub_lanes", "Lanes enrolled.", counts.lanes);
    gauge("balcao_hub_lanes_silent", "Lanes without a heartbeat for 5 minutes (or never seen).", counts.silent);
    gauge("balcao_hub_lanes_tampered", "Lanes whose journal contradicted a head the hub saw.", counts.tampered);
  }
  return HttpResponse{200, "text/plain; version=0.0.4; charset=utf-8", text, {}};
}

Hub::Hub(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Hub::~Hub() { Stop(); }
unsigned short Hub::port() const { return impl_->port; }
int Hub::schema_version() const { return impl_->schema_version; }
void Hub::Stop() {
  if (impl_->server) impl_->server->Stop();
}

StatusOr<std::unique_ptr<Hub>> Hub::Start(const HubOptions& options) {
  auto impl = std::make_unique<Impl>();
  Impl& h = *impl;
  h.options = options;
  // A connection per delivery thread and two for the boxes' messages (heartbeats, nights, phone
  // pages): a delivery's commit never waits behind another's (docs/performance.md, "## hub").
  BALCAO_ASSIGN_OR_RETURN(h.store, HubStore::Open(options.postgres, options.threads + 2));
  BALCAO_ASSIGN_OR_RETURN(h.schema_version, h.store->Migrate());
  h.fleet = std::make_unique<FleetPage>(*h.store);
  if (!options.authority.auth_file.empty()) {
    h.options.authority.hub_user = options.nats.user;
    BALCAO_ASSIGN_OR_RETURN(h.options.authority.hub_password_hash, BcryptHash(options.nats.password));
    // nats-server may not run yet: it reads the file when it starts.
    if (Status applied = ApplyLanes(*h.store, h.options.authority); !applied.ok())
      logging::Warn("hub", "NATS users written, not reloaded", {{"reason", applied.message()}});
  }
  // The users file was just rewritten and nats-server told to reload it: while it reloads it
  // may refuse even the hub's own user for a moment (seen when the hub restarts at once).
  auto connected = NatsLink::Connect(options.nats);
  for (int retry = 0; retry < 50 && !connected.ok() && connected.status().code() == StatusCode::kPermissionDenied &&
                      !options.authority.auth_file.empty();
       ++retry) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    connected = NatsLink::Connect(options.nats);
  }
  BALCAO_ASSIGN_OR_RETURN(h.nats, std::move(connected));
  const auto window = std::chrono::seconds(std::int64_t{options.replay_window_days} * 86400);
  // Kept one day past the replay window: a box off for the whole window still catches up.
  BALCAO_RETURN_IF_ERROR(h.nats->EnsureStream(
      {kStreamName, {std::string(kEventsPrefix) + ">"}, window + std::chrono::hours(24), std::chrono::hours(3)}));
  BALCAO_RETURN_IF_ERROR(
      h.nats->Subscribe("balcao.box.*.*.heartbeat",
                        [&h](const std::string& subject, const std::string& data) { h.OnBoxMessage(subject, data); }));
  BALCAO_RETURN_IF_ERROR(
      h.nats->Serve("balcao.box.*.*.night",
                    [&h](const std::string& subject, const std::string& data) { return h.OnNight(subject, data); }));
  BALCAO_ASSIGN_OR_RETURN(api::Client client, api::Client::FromEnvironment(options.bank_credentials));
  h.bank = std::make_unique<api::Bank>(client);
  if (options.phone_assets != nullptr) {
    h.phone = std::make_unique<PhoneHome>(*h.store, *h.bank, *options.phone_assets);
    BALCAO_RETURN_IF_ERROR(h.nats->Serve(
        "balcao.box.*.*.phone",
        [&h](const std::string& subject, const std::string& data) { return h.phone->OnAnnounce(subject, data); }));
    BALCAO_RETURN_IF_ERROR(h.nats->Serve(
        std::string("balcao.box.*.*.") + kPhoneEndedKind,
        [&h](const std::string& subject, const std::string& data) { return h.phone->OnEnded(subject, data); }));
  }
  h.verifier = std::make_unique<api::EventVerifier>([bank = *h.bank] { return bank.FetchPublicKeyPem(); });
  http::ServerOptions server_options;
  server_options.threads = options.threads;
  server_options.body_limit = 64 << 10;
  server_options.server_name = "balcao-hub";
  h.server = std::make_unique<http::Server>(
      server_options, http::Synchronous([&h](HttpRequest& request) {
        if (request.path == kWebhookPath) return h.Deliver(request);
        if (request.path == "/hub/join") return h.JoinLane(request);
        const std::string client = ClientAddress(request, h.options.trusted_proxies);
        if (auto page = h.fleet->Handle(request, client)) return *std::move(page);
        if (h.phone)
          if (auto page = h.phone->Handle(request, client)) return *std::move(page);
        for (const auto& [prefix, page] : h.options.public_pages)
          if (request.path.rfind(prefix, 0) == 0) return page(request, client);
        if (request.path == "/healthz") return HttpResponse{200, "application/json", R"({"status":"ok"})", {}};
        if (request.path == "/metrics") return h.MetricsFor(request);
        return Error(404, "path",
                     "the hub serves " + std::string(kWebhookPath) + ", /hub/join, /fleet/, /healthz and /metrics");
      }));
  BALCAO_ASSIGN_OR_RETURN(h.port, h.server->Listen(options.address, options.port));
  h.server->Start();
  if (!options.webhook_url.empty()) BALCAO_RETURN_IF_ERROR(RegisterHubWebhook(*h.bank, options.webhook_url));
  logging::Info("hub", "listening",
                {{"url", "http://" + options.address + ":" + std::to_string(h.port) + "/"},
                 {"schema", h.schema_version},
                 {"nats", options.nats.url},
                 {"webhook", options.webhook_url}});
  return std::unique_ptr<Hub>(new Hub(std::move(impl)));
}

}  // namespace balcao::hub
