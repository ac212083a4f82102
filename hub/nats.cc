#include "hub/nats.h"

#include <nats/nats.h>

#include <thread>

namespace balcao::hub {
namespace {

constexpr std::int64_t kNanosPerSecond = 1'000'000'000;

// libnats' status as ours: refusals by the server's permissions or its user list are
// kPermissionDenied (a lane reaching past its own), the rest kUnavailable with the text.
Status FromNats(natsStatus s, const std::string& what, jsErrCode js_error = static_cast<jsErrCode>(0)) {
  if (s == NATS_OK) return OkStatus();
  std::string text = what + ": " + natsStatus_GetText(s);
  const char* detail = nats_GetLastError(nullptr);
  if (detail != nullptr && *detail != '\0') text += " (" + std::string(detail) + ")";
  if (js_error != 0) text += " [jetstream error " + std::to_string(static_cast<int>(js_error)) + "]";
  if (s == NATS_NOT_PERMITTED || s == NATS_CONNECTION_AUTH_FAILED) return PermissionDeniedError(text);
  if (s == NATS_NOT_FOUND || js_error == JSConsumerNotFoundErr || js_error == JSStreamNotFoundErr)
    return NotFoundError(text);
  if (s == NATS_TIMEOUT) return DeadlineExceededError(text);
  return UnavailableError(text);
}

// A reload of nats-server's users (enrolment.h) takes JetStream away for a moment (its API
// answers "no responders"): a JetStream call is tried again for up to this long.
constexpr auto kReloadRideOut = std::chrono::seconds(5);

template <typename Call>
natsStatus RideOutReload(Call call) {
  const auto deadline = std::chrono::steady_clock::now() + kReloadRideOut;
  natsStatus s = call();
  while (s == NATS_NO_RESPONDERS && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    s = call();
  }
  return s;
}

}  // namespace

struct NatsLink::Impl {
  natsConnection* connection = nullptr;
  jsCtx* js = nullptr;
  natsSubscription* pull = nullptr;
  std::vector<natsSubscription*> subscriptions;
  std::vector<std::unique_ptr<NatsLink::Responder>> handlers;
  ~Impl() {
    if (pull != nullptr) natsSubscription_Destroy(pull);
    for (natsSubscription* sub : subscriptions) natsSubscription_Destroy(sub);
    jsCtx_Destroy(js);
    if (connection != nullptr) {
      natsConnection_Close(connection);
      natsConnection_Destroy(connection);
    }
  }
};

// --- PulledMsg ---

PulledMsg::PulledMsg(natsMsg* msg) : msg_(msg) {}
PulledMsg::~PulledMsg() {
  if (msg_ != nullptr) natsMsg_Destroy(msg_);
}
PulledMsg::PulledMsg(PulledMsg&& other) noexcept : msg_(other.msg_) { other.msg_ = nullptr; }
std::string PulledMsg::subject() const { return natsMsg_GetSubject(msg_); }
std::string PulledMsg::data() const {
  return std::string(natsMsg_GetData(msg_), static_cast<std::size_t>(natsMsg_GetDataLength(msg_)));
}
std::string PulledMsg::header(const char* name) const {
  const char* value = nullptr;
  return natsMsgHeader_Get(msg_, name, &value) == NATS_OK && value != nullptr ? std::string(value) : std::string();
}
std::uint64_t PulledMsg::delivered() const {
  jsMsgMetaData* meta = nullptr;
  if (natsMsg_GetMetaData(&meta, msg_) != NATS_OK) return 0;
  const std::uint64_t n = meta->NumDelivered;
  jsMsgMetaData_Destroy(meta);
  return n;
}
Status PulledMsg::Ack() {
  jsErrCode error = static_cast<jsErrCode>(0);
  return FromNats(natsMsg_AckSync(msg_, nullptr, &error), "ack", error);
}
Status PulledMsg::NakAfter(std::chrono::milliseconds delay) {
  return FromNats(natsMsg_NakWithDelay(msg_, delay.count(), nullptr), "nak");
}
Status PulledMsg::Terminate() { return FromNats(natsMsg_Term(msg_, nullptr), "term"); }

// --- NatsLink ---

NatsLink::NatsLink(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
NatsLink::~NatsLink() = default;

StatusOr<std::unique_ptr<NatsLink>> NatsLink::Connect(const NatsEndpoint& endpoint,
                                                      std::chrono::milliseconds connect_wait) {
  natsOptions* options = nullptr;
  if (natsOptions_Create(&options) != NATS_OK) return InternalError("nats: no memory for options");
  std::unique_ptr<natsOptions, void (*)(natsOptions*)> owned(options, natsOptions_Destroy);
  natsStatus s = natsOptions_SetURL(options, endpoint.url.c_str());
  if (s == NATS_OK && !endpoint.user.empty())
    s = natsOptions_SetUserInfo(options, endpoint.user.c_str(), endpoint.password.c_str());
  if (s == NATS_OK && !endpoint.ca_file.empty())
    s = natsOptions_LoadCATrustedCertificates(options, endpoint.ca_file.c_str());
  if (s == NATS_OK && !endpoint.inbox_prefix.empty())
    s = natsOptions_SetCustomInboxPrefix(options, endpoint.inbox_prefix.c_str());
  if (s == NATS_OK && !endpoint.name.empty()) s = natsOptions_SetName(options, endpoint.name.c_str());
  if (s == NATS_OK) s = natsOptions_SetMaxReconnect(options, -1);  // a box rides out any outage
  if (s == NATS_OK) s = natsOptions_SetReconnectWait(options, 500);
  if (s != NATS_OK) return FromNats(s, "nats options (" + endpoint.url + ")");
  auto impl = std::make_unique<Impl>();
  const auto deadline = std::chrono::steady_clock::now() + connect_wait;
  for (;;) {
    s = natsConnection_Connect(&impl->connection, options);
    if (s == NATS_OK || s == NATS_CONNECTION_AUTH_FAILED || s == NATS_NOT_PERMITTED ||
        std::chrono::steady_clock::now() >= deadline)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (s != NATS_OK) return FromNats(s, "nats connect " + endpoint.url);
  if (natsStatus js = natsConnection_JetStream(&impl->js, impl->connection, nullptr); js != NATS_OK)
    return FromNats(js, "jetstream context");
  return std::unique_ptr<NatsLink>(new NatsLink(std::move(impl)));
}

Status NatsLink::EnsureStream(const StreamSpec& spec) {
  std::vector<const char*> subjects;
  for (const std::string& subject : spec.subjects) subjects.push_back(subject.c_str());
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  config.Name = spec.name.c_str();
  config.Subjects = subjects.data();
  config.SubjectsLen = static_cast<int>(subjects.size());
  config.Storage = js_FileStorage;
  config.MaxAge = spec.max_age.count() * kNanosPerSecond;
  config.Duplicates = spec.duplicate_window.count() * kNanosPerSecond;
  jsErrCode error = static_cast<jsErrCode>(0);
  jsStreamInfo* info = nullptr;
  natsStatus s = RideOutReload([&] { return js_AddStream(&info, impl_->js, &config, nullptr, &error); });
  if (s != NATS_OK && error == JSStreamNameExistErr) {
    error = static_cast<jsErrCode>(0);
    s = js_UpdateStream(&info, impl_->js, &config, nullptr, &error);
  }
  if (info != nullptr) jsStreamInfo_Destroy(info);
  return FromNats(s, "stream " + spec.name, error);
}

Status NatsLink::EnsureConsumer(const std::string& stream, const std::string& durable, const std::string& subject) {
  jsConsumerConfig config;
  jsConsumerConfig_Init(&config);
  config.Durable = durable.c_str();
  config.FilterSubject = subject.c_str();
  config.AckPolicy = js_AckExplicit;
  config.DeliverPolicy = js_DeliverAll;
  config.AckWait = 30 * kNanosPerSecond;
  config.MaxAckPending = 1000;
  jsErrCode error = static_cast<jsErrCode>(0);
  jsConsumerInfo* info = nullptr;
  const natsStatus s =
      RideOutReload([&] { return js_AddConsumer(&info, impl_->js, stream.c_str(), &config, nullptr, &error); });
  if (info != nullptr) jsConsumerInfo_Destroy(info);
  return FromNats(s, "consumer " + durable, error);
}

Status NatsLink::DeleteConsumer(const std::string& stream, const std::string& durable) {
  jsErrCode error = static_cast<jsErrCode>(0);
  const natsStatus s = js_DeleteConsumer(impl_->js, stream.c_str(), durable.c_str(), nullptr, &error);
  if (error == JSConsumerNotFoundErr) return OkStatus();  // gone already
  return FromNats(s, "delete consumer " + durable, error);
}

StatusOr<NatsLink::Stored> NatsLink::Publish(const std::string& subject, const std::string& msg_id,
                                             const std::string& data) {
  jsPubOptions options;
  jsPubOptions_Init(&options);
  options.MsgId = msg_id.c_str();
  options.MaxWait = 5000;
  jsPubAck* ack = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const natsStatus s = RideOutReload([&] {
    return js_Publish(&ack, impl_->js, subject.c_str(), data.data(), static_cast<int>(data.size()), &options, &error);
  });
  if (s != NATS_OK) return FromNats(s, "publish " + subject, error);
  Stored stored{ack->Sequence, ack->Duplicate};
  jsPubAck_Destroy(ack);
  return stored;
}

Status NatsLink::PublishCore(const std::string& subject, const std::string& data) {
  return FromNats(
      natsConnection_Publish(impl_->connection, subject.c_str(), data.data(), static_cast<int>(data.size())),
      "publish " + subject);
}

Status NatsLink::PublishConfirmed(const std::string& subject, const std::string& data) {
  BALCAO_RETURN_IF_ERROR(PublishCore(subject, data));
  // The server answers the PING after it handled the PUB: a refusal (-ERR) is read before the PONG.
  BALCAO_RETURN_IF_ERROR(FromNats(natsConnection_FlushTimeout(impl_->connection, 5000), "flush"));
  const char* text = nullptr;
  const natsStatus last = natsConnection_GetLastError(impl_->connection, &text);
  if (last == NATS_NOT_PERMITTED) return PermissionDeniedError("publish " + subject + ": " + (text ? text : "refused"));
  return OkStatus();
}

Status NatsLink::Bind(const std::string& stream, const std::string& durable) {
  jsSubOptions options;
  jsSubOptions_Init(&options);
  options.Stream = stream.c_str();
  options.Consumer = durable.c_str();
  options.ManualAck = true;
  jsErrCode error = static_cast<jsErrCode>(0);
  return FromNats(js_PullSubscribe(&impl_->pull, impl_->js, nullptr, durable.c_str(), nullptr, &options, &error),
                  "bind consumer " + durable, error);
}

StatusOr<std::vector<PulledMsg>> NatsLink::Fetch(int batch, std::chrono::milliseconds wait) {
  if (impl_->pull == nullptr) return FailedPreconditionError("fetch before Bind");
  natsMsgList list{nullptr, 0};
  jsErrCode error = static_cast<jsErrCode>(0);
  const natsStatus s = natsSubscription_Fetch(&list, impl_->pull, batch, wait.count(), &error);
  if (s == NATS_TIMEOUT) return std::vector<PulledMsg>{};
  if (s != NATS_OK) return FromNats(s, "fetch", error);
  std::vector<PulledMsg> out;
  for (int i = 0; i < list.Count; ++i) {
    out.emplace_back(list.Msgs[i]);
    list.Msgs[i] = nullptr;  // owned by the PulledMsg now
  }
  natsMsgList_Destroy(&list);
  return out;
}

Status NatsLink::Subscribe(const std::string& subject,
                           std::function<void(const std::string& subject, const std::string& data)> on_message) {
  return Serve(subject, [on_message = std::move(on_message)](const std::string& s, const std::string& data) {
    on_message(s, data);
    return std::string();
  });
}

Status NatsLink::Serve(const std::string& subject, Responder on_request) {
  impl_->handlers.push_back(std::make_unique<Responder>(std::move(on_request)));
  natsSubscription* sub = nullptr;
  const natsStatus s = natsConnection_Subscribe(
      &sub, impl_->connection, subject.c_str(),
      [](natsConnection* connection, natsSubscription*, natsMsg* msg, void* closure) {
        const std::string answer = (*static_cast<Responder*>(closure))(
            natsMsg_GetSubject(msg),
            std::string(natsMsg_GetData(msg), static_cast<std::size_t>(natsMsg_GetDataLength(msg))));
        const char* reply = natsMsg_GetReply(msg);
        if (reply != nullptr && *reply != '\0' && !answer.empty())
          (void)natsConnection_Publish(connection, reply, answer.data(), static_cast<int>(answer.size()));
        natsMsg_Destroy(msg);
      },
      impl_->handlers.back().get());
  if (s != NATS_OK) return FromNats(s, "subscribe " + subject);
  impl_->subscriptions.push_back(sub);
  return OkStatus();
}

StatusOr<std::string> NatsLink::Request(const std::string& subject, const std::string& data,
                                        std::chrono::milliseconds wait) {
  natsMsg* reply = nullptr;
  const natsStatus s = natsConnection_Request(&reply, impl_->connection, subject.c_str(), data.data(),
                                              static_cast<int>(data.size()), wait.count());
  if (s != NATS_OK) return FromNats(s, "request " + subject);
  std::string answer(natsMsg_GetData(reply), static_cast<std::size_t>(natsMsg_GetDataLength(reply)));
  natsMsg_Destroy(reply);
  return answer;
}

StatusOr<NatsLink::ConsumerState> NatsLink::Consumer(const std::string& stream, const std::string& durable) {
  jsConsumerInfo* info = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const natsStatus s = js_GetConsumerInfo(&info, impl_->js, stream.c_str(), durable.c_str(), nullptr, &error);
  if (s != NATS_OK) return FromNats(s, "consumer " + durable, error);
  ConsumerState state{info->NumPending, info->NumAckPending, info->NumRedelivered, info->Delivered.Stream};
  jsConsumerInfo_Destroy(info);
  return state;
}

StatusOr<std::uint64_t> NatsLink::StreamMessages(const std::string& stream) {
  jsStreamInfo* info = nullptr;
  jsErrCode error = static_cast<jsErrCode>(0);
  const natsStatus s = js_GetStreamInfo(&info, impl_->js, stream.c_str(), nullptr, &error);
  if (s != NATS_OK) return FromNats(s, "stream " + stream, error);
  const std::uint64_t messages = info->State.Msgs;
  jsStreamInfo_Destroy(info);
  return messages;
}

bool NatsLink::connected() const { return natsConnection_Status(impl_->connection) == NATS_CONN_STATUS_CONNECTED; }

}  // namespace balcao::hub
