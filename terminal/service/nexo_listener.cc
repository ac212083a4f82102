// The nexo listener (docs/integration.md): its own HTTPS port with the box's certificate, POST
// /nexo and /nexo/, bodies up to 64 KiB. A protected request is checked in this order, and a
// refusal at any step is a nexo EventNotification reject that is logged and changes nothing:
// the envelope parses, its KeyIdentifier and KeyVersion are a registered register's live key
// whose SaleID is the header's, the NexoBlob decrypts and its HMAC matches, the nonce was never
// seen with this key (written to the store: a replay after a restart is refused too), the
// inner message is the one the outer header announced, and POIID names this box. Only then is
// the request given to the Counter, and its answer protected with the same key.
#include <nlohmann/json.hpp>

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

}  // namespace

Status Service::Impl::StartNexo(const ListenerTls* listener_tls) {
  std::optional<unsigned short> port = options.nexo_port;
  if (!port) {
    auto keys = registers->List();
    if (!keys.ok() || keys->empty()) return OkStatus();  // no register: no nexo port open
    port = kDefaultNexoPort;
  }
  ListenerTls tls;
  if (listener_tls != nullptr) {
    tls = *listener_tls;
  } else {
    ListenerPlan plan;
    plan.tls = true;
    plan.self_signed = config.tls_cert.empty();
    BALCAO_ASSIGN_OR_RETURN(tls, PrepareListenerTls(plan, config, options.address, options.data_dir));
  }
  http::ServerOptions server_options;
  server_options.threads = 2;
  server_options.body_limit = 64 << 10;
  server_options.read_timeout = std::chrono::seconds(30);
  server_options.tls_cert_pem = tls.files.cert_pem;
  server_options.tls_key_pem = tls.files.key_pem;
  nexo_server = std::make_unique<http::Server>(
      server_options, [this](HttpRequest request, Respond respond) { OnNexo(std::move(request), std::move(respond)); });
  auto listening = nexo_server->ListenTls(options.address, *port);
  if (!listening.ok())
    return Status(listening.status().code(),
                  "--nexo-port " + std::to_string(*port) + ": " + listening.status().message());
  nexo_port = *listening;
  logging::Info("nexo", "listening",
                {{"url", "https://" + options.address + ":" + std::to_string(nexo_port) + "/nexo/"},
                 {"certificate", tls.cert_path}});
  return OkStatus();
}

void Service::Impl::OnNexo(HttpRequest request, Respond respond) {
  if (request.path != "/nexo" && request.path != "/nexo/")
    return respond(HttpResponse{404, "application/json", R"({"error":"POST /nexo/"})", {}});
  if (request.method != "POST")
    return respond(HttpResponse{405, "application/json", R"({"error":"POST /nexo/"})", {{"Allow", "POST"}}});
  const std::string& text = request.body;
  auto reject = [&](const nexo::MessageHeader& header, const std::string& reason) {
    logging::Warn("nexo", "request refused",
                  {{"reason", reason},
                   {"peer", request.remote_address},
                   {"sale_id", header.sale_id},
                   {"service_id", header.service_id}});
    respond(NexoJson(nexo::RejectNotification(header, reason, text, Now())));
  };
  auto outer = nexo::ParseRequest(text);
  if (!outer.ok()) return reject({}, outer.status().message());
  Reply reply;
  nexo::Request message;
  if (outer->is_protected) {
    const nexo::SecurityTrailer& trailer = outer->trailer;
    auto key = registers->FindKey(trailer.key_identifier, trailer.key_version);
    if (!key.ok()) return reject(outer->header, "SecurityTrailer.KeyIdentifier: unknown key or version");
    if (key->disabled) return reject(outer->header, "SecurityTrailer.KeyIdentifier: the cash register is disabled");
    if (key->retired_at_ms > 0 && SystemClock::Instance().Now() / 1000 > key->retired_at_ms + kRetiredKeyGraceMs)
      return reject(outer->header, "SecurityTrailer.KeyVersion: retired (pos rotate) more than 24 h ago");
    if (key->register_id != outer->header.sale_id)
      return reject(outer->header, "MessageHeader.SaleID: not the cash register of this key");
    auto keys = nexo::DerivedKeys::FromHex(key->derived_keys);
    if (!keys.ok()) return reject(outer->header, "the key in the store does not read");
    auto plain = nexo::Unprotect(outer->blob, trailer, *keys);
    if (!plain.ok()) return reject(outer->header, plain.status().message());
    if (Status fresh = registers->RememberNonce(trailer.key_identifier, trailer.nonce); !fresh.ok())
      return reject(outer->header, fresh.message());
    auto inner = nexo::ParseRequest(*plain);
    if (!inner.ok()) return reject(outer->header, inner.status().message());
    if (inner->is_protected) return reject(outer->header, "NexoBlob: a message protected twice");
    const auto& a = outer->header;
    const auto& b = inner->header;
    if (a.service_id != b.service_id || a.sale_id != b.sale_id || a.poi_id != b.poi_id ||
        a.message_category != b.message_category)
      return reject(outer->header, "MessageHeader: differs from the protected message's");
    reply = Reply{true, *keys, trailer.key_identifier, trailer.key_version};
    message = *std::move(inner);
    message.payment.message_text = *plain;
  } else {
    if (!config.nexo.allow_plain_loopback || !IsLoopback(request.remote_address))
      return reject(outer->header,
                    "SecurityTrailer: required (unprotected requests only from loopback with "
                    "nexo.allow_plain_loopback)");
    message = *std::move(outer);
    message.payment.message_text = text;
  }
  if (message.header.poi_id != config.store.merchant.terminal_id)
    return reject(message.header, "MessageHeader.POIID: this box is " + config.store.merchant.terminal_id);

  auto shared = std::make_shared<Respond>(std::move(respond));
  switch (message.category) {
    case nexo::Category::kPayment: {
      message.payment.identity.register_id = message.header.sale_id;
      const auto wait = std::chrono::seconds(config.nexo.response_timeout_s);
      counter->Pay(message.payment, wait, [shared, reply, message](integration::PaymentOutcome outcome) {
        (*shared)(reply.Of(nexo::PaymentResponse(message, outcome, Now())));
      });
      return;
    }
    case nexo::Category::kTransactionStatus: {
      const integration::RequestIdentity target{message.header.sale_id, message.reference.service_id, ""};
      if (!message.reference.sale_id.empty() && message.reference.sale_id != message.header.sale_id)
        return (*shared)(reply.Of(
            nexo::FailureResponse(message, "NotAllowed", "MessageReference.SaleID: another cash register", Now())));
      counter->Lookup(target, [shared, reply, message](integration::StatusLookup lookup) {
        std::optional<nexo::Request> original;
        if (!lookup.message_text.empty())
          if (auto parsed = nexo::ParseRequest(lookup.message_text); parsed.ok()) original = *parsed;
        if (lookup.outcome && !original) lookup.outcome.reset();
        (*shared)(reply.Of(nexo::TransactionStatusResponse(message, lookup, original, Now())));
      });
      return;
    }
    case nexo::Category::kAbort: {
      integration::AbortRequest abort{
          {message.header.sale_id, message.header.service_id, ""}, message.reference.service_id, message.abort_reason};
      // nexo's Abort has no response message: HTTP 200 with an empty body, as Adyen's
      // terminals answer it (its client libraries expect that); the aborted payment's own
      // answer says Aborted.
      counter->Abort(abort, [shared](Status status) {
        (void)status;
        (*shared)(HttpResponse{200, "application/json", "", {}});
      });
      return;
    }
    case nexo::Category::kReversal: {
      message.reversal.identity.register_id = message.header.sale_id;
      counter->Reverse(message.reversal, [shared, reply, message](integration::ReversalOutcome outcome) {
        (*shared)(reply.Of(nexo::ReversalResponse(message, outcome, Now())));
      });
      return;
    }
  }
}

}  // namespace balcao::terminal::service
