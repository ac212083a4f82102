// The box's side of the chain's hub (docs/hub.md, "The box"): the link is started when the
// config names hub credentials, and every event it pulls is taken here, on the driver's thread,
// by the same intake as a webhook delivery. The hub checked the bank's signature before it
// published: only the hub may publish under balcao.events (NATS permissions, docs/hub.md).
#include <filesystem>
#include <future>

#include "common/log.h"
#include "offline/settlement_records.h"
#include "settlement/report.h"
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {

Status Service::Impl::StartHubLink() {
  if (setup.config.hub.credentials.empty()) {
    if (!setup.config.hub.url.empty() || !setup.config.hub.public_url.empty())
      return InvalidArgumentError("hub.credentials: required with hub.url and hub.public_url (balcao hub join)");
    return OkStatus();
  }
  if (!setup.config.hub.public_url.empty() && setup.config.hub.public_url.rfind("https://", 0) != 0)
    return InvalidArgumentError("hub.public_url: the hub's public https:// address, got '" +
                                setup.config.hub.public_url + "'");
  BALCAO_ASSIGN_OR_RETURN(HubCredentials credentials, LoadHubCredentials(setup.config.hub.credentials));
  if ((!credentials.store.empty() && credentials.store != setup.lane.store_id) ||
      (!credentials.terminal.empty() && credentials.terminal != setup.lane.terminal_id))
    return InvalidArgumentError("hub.credentials: made for lane " + credentials.store + "/" + credentials.terminal +
                                ", this box is " + setup.lane.store_id + "/" + setup.lane.terminal_id);
  hub::NatsEndpoint endpoint;
  endpoint.url = setup.config.hub.url.empty() ? credentials.nats_url : setup.config.hub.url;
  if (endpoint.url.empty()) return InvalidArgumentError("hub.url: required (the credentials file names none)");
  endpoint.user = credentials.user;
  endpoint.password = credentials.password;
  endpoint.ca_file = credentials.ca_file;
  endpoint.inbox_prefix = hub::LaneInbox(setup.lane.store_id, setup.lane.terminal_id);
  endpoint.name = "balcao-box-" + setup.lane.store_id + "-" + setup.lane.terminal_id;
  // The head last reported to the hub, kept across restarts (HubLink::SendHeartbeat).
  const std::string chain_file = (std::filesystem::path(setup.options.data_dir) / "hub-chain-reported").string();
  events.hub_link = std::make_unique<HubLink>(
      endpoint, setup.lane.store_id, setup.lane.terminal_id,
      [this](const std::string& body, const std::atomic<bool>& link_stopping) {
        return TakeFromHub(body, link_stopping);
      },
      setup.config.hub.heartbeat_s * kMicrosPerSecond, chain_file);
  events.hub_link->KeepNightsIn((std::filesystem::path(setup.options.data_dir) / "hub-night-reported").string());
  return OkStatus();
}

HubVerdict Service::Impl::TakeFromHub(const std::string& body, const std::atomic<bool>& link_stopping) {
  auto event = api::ParseEvent(body);
  if (!event.ok()) {
    logging::Error("serve", "hub event unreadable: dropped", {{"reason", event.status().message()}});
    return HubVerdict::kTerminate;
  }
  if (storage->applied_events().OlderThanWindow(event->created)) {  // its id may be forgotten: never taken again
    logging::Warn("serve", "hub event older than the replay window: dropped", {{"event", event->id}});
    return HubVerdict::kTerminate;
  }
  auto verdict = std::make_shared<std::promise<HubVerdict>>();
  std::future<HubVerdict> answered = verdict->get_future();
  sales->loop().Post([this, verdict, event = *std::move(event)] {
    auto taken = events.intake->Take(event);
    metrics->CountWebhook(taken.ok() ? checkout::Name(taken->outcome) : "unavailable");
    HubVerdict v = HubVerdict::kAck;
    if (!taken.ok()) {
      if (offline::IsDiskFailure(taken.status())) health->NoteStoreFailure("hub", taken.status());
      v = HubVerdict::kRetry;
    } else if (taken->outcome == checkout::IntakeOutcome::kNotYet) {
      v = HubVerdict::kRetry;
    } else if (taken->outcome == checkout::IntakeOutcome::kForeign) {
      logging::Error("serve", "hub routed another lane's event here: dropped",
                     {{"event", event.id}, {"reason", taken->reason}});
      v = HubVerdict::kTerminate;
    } else {
      if (taken->outcome != checkout::IntakeOutcome::kReplayed) ++events.applied;
      if (!taken->sale_id.empty()) sales->Touch(taken->sale_id);
    }
    sales->Publish();
    verdict->set_value(v);
  });
  // The journal committed before the verdict is set: only then is the event acked.
  while (answered.wait_for(std::chrono::milliseconds(200)) != std::future_status::ready)
    if (events.stopping || link_stopping) return HubVerdict::kRetry;
  return answered.get();
}

namespace {

// The oldest night `balcao settle` recorded in the store that the hub has not stored yet, handed
// to the link (hub_link.h); the nightly run is its own process, so the box looks at each beat.
void OfferUnreportedNight(offline::Store& store, HubLink& link) {
  auto nights = offline::ListSettlements(store, 7);
  if (!nights.ok()) return;  // the store's trouble shows in the heartbeat's health
  const offline::SettlementRow* oldest = nullptr;
  for (const offline::SettlementRow& row : *nights)
    if (row.settled_at_ms > link.night_reported_ms() && (!oldest || row.settled_at_ms < oldest->settled_at_ms))
      oldest = &row;
  if (oldest == nullptr || link.night_queued(oldest->settled_at_ms)) return;
  Status error;
  const auto full = offline::FindSettlement(store, oldest->business_day, error);
  auto summary = full ? settlement::NightSummaryJson(full->report_json) : StatusOr<std::string>(error);
  if (!full && error.ok()) return;  // gone meanwhile
  if (!summary.ok()) {
    logging::Warn("serve", "night not offered to the hub",
                  {{"day", oldest->business_day}, {"reason", summary.status().message()}});
    return;
  }
  link.OfferNight(oldest->settled_at_ms, *std::move(summary));
}

// What the hub's fleet page shows beside the health (docs/hub.md, "The fleet page"): the queue,
// the free disk, today's sales and collected cents, and when the last sale opened.
void AddFleetFacts(nlohmann::json& beat, offline::Outbox& outbox, long long free_bytes, const SaleBook& book,
                   UnixMicros now) {
  if (auto queue = outbox.Metrics(); queue.ok())
    beat["queue"] = {{"depth", queue->depth}, {"oldest_age_s", queue->oldest_age_ms / 1000}};
  beat["disk_free_bytes"] = free_bytes;
  const std::string day = StoreDay(now);
  int sales = 0;
  checkout::Cents collected = 0;
  for (const SaleBook::Tally& tally : book.TallyOfDay(day)) {
    sales += tally.sales;
    collected += tally.collected;
  }
  beat["today"] = {{"day", day}, {"sales", sales}, {"collected", collected}};
  const std::vector<std::string> ids = book.IdsOfDay(day);
  if (ids.empty()) return;
  const auto view = nlohmann::json::parse(book.ViewJson(ids.back()).value_or(""), nullptr, false);
  if (view.is_object() && view.contains("opened_at")) beat["last_sale_at"] = view["opened_at"];
}

}  // namespace

void Service::Impl::SendHeartbeat(UnixMicros now) {
  if (!events.hub_link || !events.hub_link->HeartbeatDue(now)) return;
  nlohmann::json beat = {{"version", BALCAO_VERSION},
                         {"store_id", setup.lane.store_id},
                         {"terminal_id", setup.lane.terminal_id},
                         {"sent_at", FormatTimestamp(SystemClock::Instance().Now())},
                         {"open_sales", sales->book().Unsettled().size()},
                         {"events_taken", events.hub_link->taken()},
                         {"health", health->HealthJson()}};
  AddFleetFacts(beat, storage->outbox(), health->free_bytes(), sales->book(), bank_side->clock().Now());
  events.hub_link->SendHeartbeat(std::move(beat), storage->journal());
  OfferUnreportedNight(storage->store(), *events.hub_link);
}

}  // namespace balcao::terminal::service
