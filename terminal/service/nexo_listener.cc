// The nexo listener (docs/integration.md): its own HTTPS port with the box's certificate, POST
// /nexo and /nexo/, bodies up to 64 KiB. A protected request is checked in this order, and a
// refusal at any step is a nexo EventNotification reject that is logged and changes nothing:
// the envelope parses, its KeyIdentifier and KeyVersion are a registered register's live key
// whose SaleID is the header's, the NexoBlob decrypts and its HMAC matches, the nonce was never
// seen with this key (written to the store: a replay after a restart is refused too), the
// inner message is the one the outer header announced, and POIID names this box. Only then is
// the request given to the Counter, and its answer protected with the same key.
#include <memory>
#include <nlohmann/json.hpp>
#include <variant>

#include "common/log.h"
#include "integration/nexo/message.h"
#include "terminal/service/nexo_keys.h"
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {
namespace {

namespace nexo = integration::nexo;

std::string Now() { return nexo::IsoTime(SystemClock::Instance().Now() / 1000); }

HttpResponse NexoJson(std::string body) { return HttpResponse{200, "application/json", std::move(body), {}}; }

// How the answer goes back: protected with the request's key, or plain (loopback, allowed).
struct Reply {
  bool is_protected = false;
  nexo::DerivedKeys keys;
  std::string key_identifier;
  int key_version = 0;

  HttpResponse Of(const std::string& plaintext) const {
    if (!is_protected) return NexoJson(plaintext);
    auto sealed = nexo::ProtectResponse(plaintext, keys, key_identifier, key_version);
    if (!sealed.ok()) return HttpResponse{500, "application/json", R"({"error":"response not protected"})", {}};
    return NexoJson(*sealed);
  }
};

// A request refused before the Counter sees it: answered with a reject under `header`.
struct NexoRefusal {
  nexo::MessageHeader header;
  std::string reason;
};

// A request that passed every check, and how its answer goes back.
struct NexoArrival {
  nexo::Request message;
  Reply reply;
};

using NexoRead = std::variant<NexoArrival, NexoRefusal>;

// The protected request `outer`: its key is a registered register's live key, the blob
// decrypts under it, the nonce is new, and the inner message is the one announced.
NexoRead Unprotect(Service::Impl& s, const nexo::Request& outer) {
  auto refuse = [&](std::string reason) { return NexoRefusal{outer.header, std::move(reason)}; };
  const nexo::SecurityTrailer& trailer = outer.trailer;
  auto key = s.storage->registers().FindKey(trailer.key_identifier, trailer.key_version);
  if (!key.ok()) return refuse("SecurityTrailer.KeyIdentifier: unknown key or version");
  if (key->disabled) return refuse("SecurityTrailer.KeyIdentifier: the cash register is disabled");
  if (key->retired_at_ms > 0 && SystemClock::Instance().Now() / 1000 > key->retired_at_ms + kRetiredKeyGraceMs)
    return refuse("SecurityTrailer.KeyVersion: retired (pos rotate) more than 24 h ago");
  if (key->register_id != outer.header.sale_id)
    return refuse("MessageHeader.SaleID: not the cash register of this key");
  auto keys = nexo::DerivedKeys::FromHex(key->derived_keys);
  if (!keys.ok()) return refuse("the key in the store does not read");
  auto plain = nexo::Unprotect(outer.blob, trailer, *keys);
  if (!plain.ok()) return refuse(plain.status().message());
  if (Status fresh = s.storage->registers().RememberNonce(trailer.key_identifier, trailer.nonce); !fresh.ok())
    return refuse(fresh.message());
  auto inner = nexo::ParseRequest(*plain);
  if (!inner.ok()) return refuse(inner.status().message());
  if (inner->is_protected) return refuse("NexoBlob: a message protected twice");
  const auto& a = outer.header;
  const auto& b = inner->header;
  if (a.service_id != b.service_id || a.sale_id != b.sale_id || a.poi_id != b.poi_id ||
      a.message_category != b.message_category)
    return refuse("MessageHeader: differs from the protected message's");
  NexoArrival arrival{*std::move(inner), Reply{true, *keys, trailer.key_identifier, trailer.key_version}};
  arrival.message.payment.message_text = *plain;
  return arrival;
}

// The checks of the file's header, in their order.
NexoRead ReadNexoRequest(Service::Impl& s, const HttpRequest& request) {
  auto outer = nexo::ParseRequest(request.body);
  if (!outer.ok()) return NexoRefusal{{}, outer.status().message()};
  NexoRead read;
  if (outer->is_protected) {
    read = Unprotect(s, *outer);
  } else if (!s.setup.config.nexo.allow_plain_loopback || !IsLoopback(request.remote_address)) {
    return NexoRefusal{outer->header,
                       "SecurityTrailer: required (unprotected requests only from loopback with "
                       "nexo.allow_plain_loopback)"};
  } else {
    read = NexoArrival{*std::move(outer), Reply{}};
    std::get<NexoArrival>(read).message.payment.message_text = request.body;
  }
  if (auto* arrival = std::get_if<NexoArrival>(&read);
      arrival != nullptr && arrival->message.header.poi_id != s.setup.config.store.merchant.terminal_id)
    return NexoRefusal{arrival->message.header,
                       "MessageHeader.POIID: this box is " + s.setup.config.store.merchant.terminal_id};
  return read;
}

// A status lookup of the register's earlier payment, answered with its original request.
void LookUp(integration::Counter& counter, const nexo::Request& message, const Reply& reply,
            std::shared_ptr<Respond> respond) {
  const integration::RequestIdentity target{message.header.sale_id, message.reference.service_id, ""};
  if (!message.reference.sale_id.empty() && message.reference.sale_id != message.header.sale_id)
    return (*respond)(reply.Of(
        nexo::FailureResponse(message, "NotAllowed", "MessageReference.SaleID: another cash register", Now())));
  counter.Lookup(target, [respond, reply, message](integration::StatusLookup lookup) {
    std::optional<nexo::Request> original;
    if (!lookup.message_text.empty())
      if (auto parsed = nexo::ParseRequest(lookup.message_text); parsed.ok()) original = *parsed;
    if (lookup.outcome && !original) lookup.outcome.reset();
    (*respond)(reply.Of(nexo::TransactionStatusResponse(message, lookup, original, Now())));
  });
}

// The request, by its category, to the Counter; its answer goes back under the request's key.
void GiveToCounter(integration::Counter& counter, int response_timeout_s, NexoArrival arrival, Respond respond) {
  auto shared = std::make_shared<Respond>(std::move(respond));
  nexo::Request& message = arrival.message;
  const Reply& reply = arrival.reply;
  switch (message.category) {
    case nexo::Category::kPayment:
      message.payment.identity.register_id = message.header.sale_id;
      return counter.Pay(message.payment, std::chrono::seconds(response_timeout_s),
                         [shared, reply, message](integration::PaymentOutcome outcome) {
                           (*shared)(reply.Of(nexo::PaymentResponse(message, outcome, Now())));
                         });
    case nexo::Category::kTransactionStatus:
      return LookUp(counter, message, reply, shared);
    case nexo::Category::kAbort: {
      integration::AbortRequest abort{
          {message.header.sale_id, message.header.service_id, ""}, message.reference.service_id, message.abort_reason};
      // nexo's Abort has no response message: HTTP 200 with an empty body, as Adyen's
      // terminals answer it (its client libraries expect that); the aborted payment's own
      // answer says Aborted.
      return counter.Abort(abort, [shared](Status status) {
        (void)status;  // the aborted payment's answer tells the outcome
        (*shared)(HttpResponse{200, "application/json", "", {}});
      });
    }
    case nexo::Category::kReversal:
      message.reversal.identity.register_id = message.header.sale_id;
      return counter.Reverse(message.reversal, [shared, reply, message](integration::ReversalOutcome outcome) {
        (*shared)(reply.Of(nexo::ReversalResponse(message, outcome, Now())));
      });
  }
}

}  // namespace

Status Service::Impl::StartNexo(const ListenerTls* listener_tls) {
  std::optional<unsigned short> port = setup.options.nexo_port;
  if (!port) {
    auto keys = storage->registers().List();
    if (!keys.ok() || keys->empty()) return OkStatus();  // no register: no nexo port open
    port = kDefaultNexoPort;
  }
  ListenerTls tls;
  if (listener_tls != nullptr) {
    tls = *listener_tls;
  } else {
    ListenerPlan plan;
    plan.tls = true;
    plan.self_signed = setup.config.tls_cert.empty();
    BALCAO_ASSIGN_OR_RETURN(tls, PrepareListenerTls(plan, setup.config, setup.options.address, setup.options.data_dir));
  }
  http::ServerOptions server_options;
  server_options.threads = 2;
  server_options.body_limit = 64 << 10;
  server_options.read_timeout = std::chrono::seconds(30);
  server_options.tls_cert_pem = tls.files.cert_pem;
  server_options.tls_key_pem = tls.files.key_pem;
  doors.nexo = std::make_unique<http::Server>(
      server_options, [this](HttpRequest request, Respond respond) { OnNexo(std::move(request), std::move(respond)); });
  auto listening = doors.nexo->ListenTls(setup.options.address, *port);
  if (!listening.ok())
    return Status(listening.status().code(),
                  "--nexo-port " + std::to_string(*port) + ": " + listening.status().message());
  doors.nexo_port = *listening;
  logging::Info("nexo", "listening",
                {{"url", "https://" + setup.options.address + ":" + std::to_string(doors.nexo_port) + "/nexo/"},
                 {"certificate", tls.cert_path}});
  return OkStatus();
}

void Service::Impl::OnNexo(HttpRequest request, Respond respond) {
  if (request.path != "/nexo" && request.path != "/nexo/")
    return respond(HttpResponse{404, "application/json", R"({"error":"POST /nexo/"})", {}});
  if (request.method != "POST")
    return respond(HttpResponse{405, "application/json", R"({"error":"POST /nexo/"})", {{"Allow", "POST"}}});
  auto read = ReadNexoRequest(*this, request);
  if (auto* refused = std::get_if<NexoRefusal>(&read)) {
    logging::Warn("nexo", "request refused",
                  {{"reason", refused->reason},
                   {"peer", request.remote_address},
                   {"sale_id", refused->header.sale_id},
                   {"service_id", refused->header.service_id}});
    return respond(NexoJson(nexo::RejectNotification(refused->header, refused->reason, request.body, Now())));
  }
  GiveToCounter(*counter, setup.config.nexo.response_timeout_s, std::get<NexoArrival>(std::move(read)),
                std::move(respond));
}

}  // namespace balcao::terminal::service
