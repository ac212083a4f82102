// balcao::api::Client: a signed, retrying HTTP client for the bank API v2. Every request
// goes through Call(): the body is serialised once by the caller, signed (docs/wire.md,
// "Signing": Access-Id, Access-Time, Access-Signature over "id:time:body"), sent over libcurl
// with keep-alive, and the answer is mapped to a Status in one place (docs/style.md S2).
// Typed resource operations live in api/resource.h and api/bank.h, on top of Call().
//
// Ownership: Client is a cheap copyable handle; copies share one connection pool.
// Thread-safety: all methods are const and may be called from any number of threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "api/bank_clock.h"
#include "api/credentials.h"
#include "api/options.h"
#include "api/query.h"
#include "common/status.h"

namespace balcao::api {

// A 200 answer. Non-200 answers come back as a Status (see AsStatus in
// api/internal/http_status.h) carrying http_status, delivery and the bank's errors.
struct Response {
  int http_status = 0;
  std::string body;          // JSON text, or the bytes of a PDF/PNG
  std::string content_type;  // as the bank declared it, may be empty
};

namespace internal {
class CurlTransport;
}

class Client {
 public:
  // kInvalidArgument for a bad base URL (or http:// to a non-loopback host), a bad
  // language, or options out of range.
  static StatusOr<Client> Create(Credentials credentials, ClientOptions options = {});
  // Create(LoadConfig(credentials_path)): environment and credentials.json.
  static StatusOr<Client> FromEnvironment(const std::string& credentials_path = {});

  // One signed request. `path` is "/v2/..." (a missing "/v2" prefix is added). Retries
  // follow options().retry; see RetryPolicy for what may be retried. Access-Time is
  // bank_clock()'s time, which learns from every answer's Date header; a request the bank
  // refuses for its Access-Time (invalidAccessTime, expiredAccessTime: refused before anything
  // was done, so it is safe to send again) is signed again and sent once more when that
  // refusal's Date moved the clock.
  // Errors: the bank's 400/500/other answers (Delivery::kAnswered), transport failures
  // (kUnavailable + kNotSent, kDeadlineExceeded + kOutcomeUnknown), kResourceExhausted
  // for an answer larger than options().max_response_bytes.
  StatusOr<Response> Call(std::string_view method, std::string_view path, const Query& query = {},
                          std::string_view body = {}) const;

  // The same organization credentials acting in a workspace; shares the connection pool.
  StatusOr<Client> InWorkspace(std::string workspace_id) const;
  // The same client (credentials, options, connection pool) telling `observer` about every
  // call (ClientOptions::observer); copies made before keep their own observer.
  Client WithObserver(CallObserver observer) const;

  // The same client sharing `clock` (so that every client of a process learns from every
  // answer, and the process's business days use the same time).
  Client WithBankClock(std::shared_ptr<BankClock> clock) const;
  // The bank's time as this client knows it (one per Create, shared by the copies).
  const std::shared_ptr<BankClock>& bank_clock() const;

  const ClientOptions& options() const;
  const std::string& base_url() const;  // normalised: no trailing "/" and no "/v2"
  const Credentials& credentials() const;

 private:
  struct Impl;
  explicit Client(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace balcao::api
