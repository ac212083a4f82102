// The hub's and the box's one door to NATS JetStream (libnats from Debian): a connection with
// its JetStream context, the events stream, publishing with a message id (answered only once
// JetStream has stored it) and pulling from a durable consumer. libnats stays behind this file.
// docs/hub.md, "NATS".
// Ownership: a NatsLink owns its connection, context and subscription; a PulledMsg owns its
// message (acked, nak'ed or terminated at most once; dropped unanswered, JetStream redelivers it
// after the consumer's ack wait).
// Thread-safety: Publish from any thread; Fetch from one thread; a PulledMsg's answers from any.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"

struct __natsMsg;

namespace balcao::hub {

// Where and as whom to connect. `url` is nats://host:port or tls://host:port; `ca_file`, when
// set, is the PEM the server's certificate must chain to (tls:// then checks the host name).
struct NatsEndpoint {
  std::string url;
  std::string user;
  std::string password;
  std::string ca_file;
  std::string inbox_prefix;  // replies come under it ("" = _INBOX): a lane may read only its own
  std::string name;          // shown by the server (connz)
};

// A message taken from a pull consumer.
class PulledMsg {
 public:
  explicit PulledMsg(__natsMsg* msg);
  ~PulledMsg();
  PulledMsg(PulledMsg&& other) noexcept;
  PulledMsg& operator=(PulledMsg&&) = delete;
  PulledMsg(const PulledMsg&) = delete;
  std::string subject() const;
  std::string data() const;
  std::string header(const char* name) const;  // "" when absent
  std::uint64_t delivered() const;             // how many times JetStream delivered it (1 the first)
  Status Ack();                                // waits for the server to confirm the ack
  Status NakAfter(std::chrono::milliseconds delay);
  Status Terminate();  // never delivered again (a message this lane can never take)

 private:
  __natsMsg* msg_;
};

// The stream every event goes to, and its retention.
struct StreamSpec {
  std::string name;                   // kStreamName
  std::vector<std::string> subjects;  // balcao.events.>
  std::chrono::seconds max_age;       // at least the replay window
  std::chrono::seconds duplicate_window;
};

class NatsLink {
 public:
  // Connects (retrying the initial connect for up to `connect_wait`), with endless reconnects
  // afterwards. kUnavailable when the server cannot be reached, kPermissionDenied when it
  // refuses the user.
  static StatusOr<std::unique_ptr<NatsLink>> Connect(const NatsEndpoint& endpoint,
                                                     std::chrono::milliseconds connect_wait = std::chrono::seconds(5));
  ~NatsLink();
  NatsLink(const NatsLink&) = delete;
  NatsLink& operator=(const NatsLink&) = delete;

  // Creates the stream, or updates its subjects and retention when it exists.
  Status EnsureStream(const StreamSpec& spec);
  // A durable pull consumer of `stream` filtered on `subject`, acked one by one (AckExplicit).
  Status EnsureConsumer(const std::string& stream, const std::string& durable, const std::string& subject);
  Status DeleteConsumer(const std::string& stream, const std::string& durable);
  // Publishes `data` on `subject` with Nats-Msg-Id `msg_id` and returns once JetStream stored
  // it (or saw the id within its duplicate window: duplicate = true, nothing stored twice).
  struct Stored {
    std::uint64_t sequence = 0;
    bool duplicate = false;
  };
  StatusOr<Stored> Publish(const std::string& subject, const std::string& msg_id, const std::string& data);
  // Plain NATS publish (heartbeats): no stream, no ack.
  Status PublishCore(const std::string& subject, const std::string& data);
  // PublishCore, then a round trip to the server: kPermissionDenied when it refused the subject.
  Status PublishConfirmed(const std::string& subject, const std::string& data);
  // Binds to the existing durable consumer `durable` of `stream` (never creates one), for Fetch.
  Status Bind(const std::string& stream, const std::string& durable);
  // Up to `batch` messages, waiting at most `wait`; an empty list on a timeout.
  StatusOr<std::vector<PulledMsg>> Fetch(int batch, std::chrono::milliseconds wait);
  // Subscribes to `subject` (plain NATS) and calls `on_message(subject, data)` on libnats' thread.
  Status Subscribe(const std::string& subject,
                   std::function<void(const std::string& subject, const std::string& data)> on_message);
  // Subscribes to `subject` and answers each request with what `on_request(subject, data)`
  // returns (on libnats' thread; a message without a reply subject gets no answer).
  using Responder = std::function<std::string(const std::string& subject, const std::string& data)>;
  Status Serve(const std::string& subject, Responder on_request);
  // Publishes `data` on `subject` and waits up to `wait` for the one answer (replies come under
  // the endpoint's inbox prefix). kDeadlineExceeded when nobody answered in time.
  StatusOr<std::string> Request(const std::string& subject, const std::string& data, std::chrono::milliseconds wait);
  bool connected() const;
  // What a durable consumer still owes its box, and how many messages the stream holds.
  struct ConsumerState {
    std::uint64_t pending = 0;        // in its subject, not yet delivered
    std::int64_t ack_pending = 0;     // delivered, not yet acked
    std::int64_t redelivered = 0;     // delivered more than once, not yet acked
    std::uint64_t delivered_seq = 0;  // the last stream sequence delivered
  };
  StatusOr<ConsumerState> Consumer(const std::string& stream, const std::string& durable);
  StatusOr<std::uint64_t> StreamMessages(const std::string& stream);

  struct Impl;

 private:
  explicit NatsLink(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

inline constexpr const char* kStreamName = "BALCAO_EVENTS";

}  // namespace balcao::hub
