#include "terminal/service/hub_link.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/log.h"
#include "common/private_file.h"
#include "hub/routing.h"
#include "offline/journal_chain.h"

namespace balcao::terminal::service {
namespace {

constexpr std::chrono::milliseconds kFetchWait{1000};
constexpr std::chrono::milliseconds kReconnectPause{1000};
constexpr std::chrono::milliseconds kRetryDelay{2000};
constexpr std::chrono::milliseconds kNightWait{3000};
constexpr std::chrono::milliseconds kPhoneWait{2000};  // the cashier waits for the QR meanwhile
constexpr std::chrono::seconds kNightRetry{10};

}  // namespace

StatusOr<HubCredentials> LoadHubCredentials(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return NotFoundError("hub.credentials: no file " + path);
  if ((info.st_mode & 077) != 0)
    return FailedPreconditionError("hub.credentials: " + path + " must be readable by its owner only (chmod 600)");
  std::ifstream in(path);
  const auto json = nlohmann::json::parse(in, nullptr, false);
  if (!json.is_object()) return InvalidArgumentError("hub.credentials: " + path + " is not a JSON object");
  HubCredentials c;
  auto text = [&json](const char* key) {
    return json.contains(key) && json[key].is_string() ? json[key].get<std::string>() : "";
  };
  c.nats_url = text("nats_url");
  c.user = text("user");
  c.password = text("password");
  c.ca_file = text("ca_file");
  c.store = text("store");
  c.terminal = text("terminal");
  if (c.user.empty() != c.password.empty())
    return InvalidArgumentError("hub.credentials: " + path + ": user and password go together");
  return c;
}

Status SaveHubCredentials(const std::string& path, const HubCredentials& c) {
  const nlohmann::json json = {{"nats_url", c.nats_url}, {"user", c.user},   {"password", c.password},
                               {"ca_file", c.ca_file},   {"store", c.store}, {"terminal", c.terminal}};
  return WritePrivateFile(path, json.dump(2) + "\n");
}

HubLink::HubLink(hub::NatsEndpoint endpoint, std::string store, std::string terminal, Apply apply,
                 UnixMicros heartbeat_every, std::string chain_file)
    : endpoint_(std::move(endpoint)),
      store_(std::move(store)),
      terminal_(std::move(terminal)),
      apply_(std::move(apply)) {
  heartbeat_.every = heartbeat_every;
  heartbeat_.file = std::move(chain_file);
  if (!heartbeat_.file.empty()) {
    std::ifstream in(heartbeat_.file);
    if (!(in >> heartbeat_.reported_rows) || heartbeat_.reported_rows < 0) heartbeat_.reported_rows = 0;
  }
  thread_ = std::thread([this] { Run(); });
}

HubLink::~HubLink() { Stop(); }

void HubLink::Stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(link_mu_);
  link_.reset();
}

Status HubLink::PublishHeartbeat(const std::string& json) {
  std::shared_ptr<hub::NatsLink> link;
  {
    std::lock_guard lock(link_mu_);
    link = link_;
  }
  if (!link || !connected_) return UnavailableError("hub: not connected");
  return link->PublishCore(hub::BoxSubject(store_, terminal_, "heartbeat"), json);
}

bool HubLink::HeartbeatDue(UnixMicros now) {
  if (now < heartbeat_.next_at) return false;
  heartbeat_.next_at = now + heartbeat_.every;
  return true;
}

void HubLink::SendHeartbeat(nlohmann::json beat, offline::Journal& journal) {
  const std::int64_t reported = heartbeat_.reported_rows;
  auto chain = journal.ReportChain(reported);
  if (chain.ok())
    beat["chain"] = {{"rows", chain->rows},
                     {"head", offline::HexOf(chain->head)},
                     {"prev_rows", reported},
                     {"prev_at", offline::HexOf(chain->at)}};
  if (!PublishHeartbeat(beat.dump()).ok() || !chain.ok() || chain->rows == reported) return;
  heartbeat_.reported_rows = chain->rows;
  if (heartbeat_.file.empty()) return;
  std::ofstream(heartbeat_.file + ".new") << heartbeat_.reported_rows << "\n";
  std::error_code ec;
  // A lost note: the next check is skipped, logged by the hub.
  std::filesystem::rename(heartbeat_.file + ".new", heartbeat_.file, ec);
}

Status HubLink::AnnouncePhoneSession(const std::string& uuid, const std::string& json) {
  {
    std::lock_guard lock(requests_.phones.mu);  // before it is sent: an end cannot slip in between
    requests_.phones.announced.insert(uuid);
  }
  std::shared_ptr<hub::NatsLink> link;
  {
    std::lock_guard lock(link_mu_);
    link = link_;
  }
  if (!link || !connected_) return UnavailableError("hub: not connected");
  BALCAO_ASSIGN_OR_RETURN(std::string answer,
                          link->Request(hub::BoxSubject(store_, terminal_, hub::kPhoneKind), json, kPhoneWait));
  const auto reply = nlohmann::json::parse(answer, nullptr, false);
  if (!reply.is_object() || !reply.value("stored", false))
    return UnavailableError("hub: phone session not stored: " + answer);
  return OkStatus();
}

void HubLink::EndPhoneSessions(const std::function<bool(const std::string& uuid)>& awaited) {
  std::lock_guard lock(requests_.phones.mu);
  for (auto it = requests_.phones.announced.begin(); it != requests_.phones.announced.end();) {
    if (awaited(*it)) {
      ++it;
      continue;
    }
    requests_.phones.ending.insert(*it);
    it = requests_.phones.announced.erase(it);
  }
}

std::size_t HubLink::phone_sessions_ending() const {
  std::lock_guard lock(requests_.phones.mu);
  return requests_.phones.ending.size();
}

// Each as a request, on the link's thread between fetches: the hub answers once PostgreSQL
// holds the end. Unanswered, the rest wait for the next round.
void HubLink::SendPhoneEnds(hub::NatsLink& link) {
  const auto now = std::chrono::steady_clock::now();
  if (now < requests_.phones.next_try) return;
  std::set<std::string> ending;
  {
    std::lock_guard lock(requests_.phones.mu);
    ending = requests_.phones.ending;
  }
  for (const std::string& uuid : ending) {
    auto answer = link.Request(hub::BoxSubject(store_, terminal_, hub::kPhoneEndedKind),
                               nlohmann::json{{"uuid", uuid}}.dump(), kPhoneWait);
    const auto reply = nlohmann::json::parse(answer.ok() ? *answer : "", nullptr, false);
    if (!reply.is_object() || !reply.value("ended", false)) {
      requests_.phones.next_try = now + kRetryDelay;
      if (!requests_.phones.warned)
        logging::Warn("hub-link", "phone page's end not stored at the hub (trying again)",
                      {{"reason", answer.ok() ? *answer : answer.status().message()}});
      requests_.phones.warned = true;
      return;
    }
    requests_.phones.warned = false;
    std::lock_guard lock(requests_.phones.mu);
    requests_.phones.ending.erase(uuid);
  }
}

void HubLink::KeepNightsIn(const std::string& mark_file) {
  std::lock_guard lock(requests_.nights.mu);
  requests_.nights.mark_file = mark_file;
  std::int64_t mark = 0;
  std::ifstream in(mark_file);
  if (in >> mark && mark > 0) requests_.nights.reported_ms = mark;
}

void HubLink::OfferNight(std::int64_t settled_at_ms, std::string summary_json) {
  if (settled_at_ms <= requests_.nights.reported_ms) return;
  std::lock_guard lock(requests_.nights.mu);
  requests_.nights.json = std::move(summary_json);
  requests_.nights.queued_ms = settled_at_ms;
}

// Sent as a request: the hub answers once PostgreSQL holds it. Unanswered (the hub down, NATS
// up) it is tried again every kNightRetry; the lane's events are fetched meanwhile.
void HubLink::SendNight(hub::NatsLink& link) {
  const auto now = std::chrono::steady_clock::now();
  if (requests_.nights.queued_ms == 0 || now < requests_.nights.next_try) return;
  std::string json, mark_file;
  {
    std::lock_guard lock(requests_.nights.mu);
    json = requests_.nights.json;
    mark_file = requests_.nights.mark_file;
  }
  const std::int64_t settled_at_ms = requests_.nights.queued_ms;
  auto answer = link.Request(hub::BoxSubject(store_, terminal_, "night"), json, kNightWait);
  const auto reply = nlohmann::json::parse(answer.ok() ? *answer : "", nullptr, false);
  if (!reply.is_object() || !reply.value("stored", false)) {
    requests_.nights.next_try = now + kNightRetry;
    logging::Warn("hub-link", "night not stored at the hub (trying again)",
                  {{"reason", answer.ok() ? *answer : answer.status().message()}});
    return;
  }
  requests_.nights.reported_ms = settled_at_ms;
  std::int64_t sent = settled_at_ms;  // a newer night queued meanwhile stays queued
  requests_.nights.queued_ms.compare_exchange_strong(sent, 0);
  if (!mark_file.empty())
    if (Status kept = WritePrivateFile(mark_file, std::to_string(settled_at_ms) + "\n"); !kept.ok())
      logging::Warn("hub-link", "night mark not kept (sent again after a restart)", {{"reason", kept.message()}});
  logging::Info("hub-link", "night stored at the hub", {{"settled_at_ms", settled_at_ms}});
}

void HubLink::Handle(hub::PulledMsg& msg) {
  const HubVerdict verdict = apply_(msg.data(), stop_);
  Status answered;
  if (verdict == HubVerdict::kAck) {
    answered = msg.Ack();
    if (answered.ok()) ++taken_;
  } else if (verdict == HubVerdict::kRetry) {
    answered = msg.NakAfter(kRetryDelay);
  } else {
    answered = msg.Terminate();
  }
  // Unanswered, JetStream delivers it again after the ack wait; the intake answers it replayed.
  if (!answered.ok()) logging::Warn("hub-link", "event not answered", {{"reason", answered.message()}});
}

void HubLink::Run() {
  std::shared_ptr<hub::NatsLink> link;
  bool warned = false;
  while (!stop_) {
    if (!link) {
      auto connected = hub::NatsLink::Connect(endpoint_, std::chrono::milliseconds(500));
      Status bound = connected.ok() ? (*connected)->Bind(hub::kStreamName, hub::ConsumerName(store_, terminal_))
                                    : connected.status();
      if (!bound.ok()) {
        if (!warned)
          logging::Warn("hub-link", "hub not reachable (retrying)",
                        {{"url", endpoint_.url}, {"reason", bound.message()}});
        warned = true;
        std::this_thread::sleep_for(kReconnectPause);
        continue;
      }
      link = std::shared_ptr<hub::NatsLink>(std::move(*connected));
      {
        std::lock_guard lock(link_mu_);
        link_ = link;
      }
      connected_ = true;
      warned = false;
      logging::Info("hub-link", "pulling the lane's events",
                    {{"url", endpoint_.url}, {"consumer", hub::ConsumerName(store_, terminal_)}});
    }
    auto batch = link->Fetch(16, kFetchWait);
    if (!batch.ok()) {
      connected_ = link->connected();
      if (batch.status().code() == StatusCode::kPermissionDenied) {
        logging::Error("hub-link", "the hub refused this lane (revoked?)", {{"reason", batch.status().message()}});
        std::this_thread::sleep_for(kReconnectPause * 5);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
      }
      continue;
    }
    connected_ = true;
    for (hub::PulledMsg& msg : *batch) {
      if (stop_) break;  // unanswered: delivered again to the next run
      Handle(msg);
    }
    SendPhoneEnds(*link);
    SendNight(*link);
  }
  connected_ = false;
}

}  // namespace balcao::terminal::service
