// Options of a bank API client: where the bank is, language, TLS, timeouts, response
// size cap, the retry policy and an optional observer of every call (for metrics). Plain
// values, copied into the client at creation.
// Defaults follow the bank's SDKs and Azure's RetryOptions (3 attempts, 800 ms base,
// 60 s cap). TLS verification is always on: there is deliberately no switch to turn it off.
// Thread-safety: value types.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "common/time.h"

namespace balcao::api {

enum class Environment { kSandbox, kProduction };

// "https://sandbox.api.starkbank.com" / "https://api.starkbank.com" (paths add /v2/...).
const char* BaseUrlOf(Environment env);

// Which requests are retried, and how long to wait between attempts. Only two kinds of
// failure are ever retried (docs/wire.md, "Retries"; docs/style.md S3):
//   - not sent (resolve, connect, TLS handshake failed): any method;
//   - GET answered 5xx, or GET whose outcome is unknown (timeout/reset after sending).
// A POST/PATCH/PUT/DELETE that may have reached the bank is never re-sent silently.
struct RetryPolicy {
  int max_attempts = 3;  // total attempts, >= 1
  std::chrono::microseconds initial_backoff = std::chrono::milliseconds(800);
  std::chrono::microseconds max_backoff = std::chrono::seconds(60);
  double multiplier = 2.0;  // > 1; each delay is then jittered down to [delay/2, delay]
};

// What one Client::Call did, told to ClientOptions::observer when it returns: one record per
// call, retries included (the time is what the caller waited, backoff too). Calls refused
// before anything is sent (a bad path or method) are not observed.
struct CallRecord {
  std::string_view method;  // "GET", "POST"...
  std::string_view route;   // the endpoint's template ("/v2/invoice/{id}"), "other" when none matches
  // "ok"; "not_sent" (Delivery::kNotSent); "unknown" (kOutcomeUnknown: sent, no answer);
  // "rejected" (the bank answered 4xx); "server_error" (5xx); "bad_answer" (anything else,
  // e.g. an answer over max_response_bytes).
  std::string_view outcome;
  std::chrono::nanoseconds elapsed{0};
  int attempts = 0;
  int http_status = 0;  // of the last answer, 0 when none came
};
// Called on the calling thread, after the answer; it must be quick and must not throw.
using CallObserver = std::function<void(const CallRecord&)>;

struct ClientOptions {
  // Scheme + host [+ port] [+ prefix], with or without a trailing "/v2". Empty: the
  // environment's URL. http:// is accepted only for loopback hosts (the local sandbox).
  std::string base_url;
  Environment environment = Environment::kSandbox;
  std::string language = "en-US";  // en-US or pt-BR (Accept-Language)
  std::string user_agent;          // empty: "balcao/<BALCAO_VERSION>"
  std::string ca_file;             // extra trust anchors (PEM); empty: system store
  std::chrono::milliseconds connect_timeout = std::chrono::seconds(5);
  std::chrono::milliseconds total_timeout = std::chrono::seconds(30);
  std::size_t max_response_bytes = 20u << 20;  // larger answers fail with kResourceExhausted
  RetryPolicy retry;
  // The local clock under the client's BankClock (Access-Time = this + the offset learned from
  // the bank's Date headers); null: SystemClock.
  const Clock* clock = nullptr;
  CallObserver observer;  // optional: every call's route, outcome and time
};

}  // namespace balcao::api
