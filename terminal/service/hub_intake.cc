// The box's side of the chain's hub (docs/hub.md, "The box"): the link is started when the
// config names hub credentials, and every event it pulls is taken here, on the driver's thread,
// by the same intake as a webhook delivery. The hub checked the bank's signature before it
// published: only the hub may publish under balcao.events (NATS permissions, docs/hub.md).
#include <filesystem>
#include <future>

#include "common/log.h"
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {

Status Service::Impl::StartHubLink() {
  if (setup.config.hub.credentials.empty()) {
    if (!setup.config.hub.url.empty())
      return InvalidArgumentError("hub.credentials: required with hub.url (balcao hub join)");
    return OkStatus();
  }
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

void Service::Impl::SendHeartbeat(UnixMicros now) {
  if (!events.hub_link || !events.hub_link->HeartbeatDue(now)) return;
  events.hub_link->SendHeartbeat({{"version", BALCAO_VERSION},
                                  {"store_id", setup.lane.store_id},
                                  {"terminal_id", setup.lane.terminal_id},
                                  {"sent_at", FormatTimestamp(SystemClock::Instance().Now())},
                                  {"open_sales", sales->book().Unsettled().size()},
                                  {"events_taken", events.hub_link->taken()},
                                  {"health", health->HealthJson()}},
                                 storage->journal());
}

}  // namespace balcao::terminal::service
