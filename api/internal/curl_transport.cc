#include "api/internal/curl_transport.h"

#include <curl/curl.h>

#include <cstring>
#include <functional>
#include <memory>

namespace balcao::api::internal {
namespace {

void GlobalInitOnce() {
  static const bool done = [] { return curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK; }();
  (void)done;
}

// Per-request state the callbacks see.
struct Exchange {
  std::string* body = nullptr;
  std::size_t cap = 0;
  bool too_large = false;
  int prereq_calls = 0;  // each call = curl is about to write the request on a live connection
  bool may_replay = false;
  bool replay_refused = false;
};

std::size_t OnWrite(char* data, std::size_t size, std::size_t nmemb, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  const std::size_t n = size * nmemb;
  if (ex->body->size() + n > ex->cap) {
    ex->too_large = true;
    return 0;  // aborts the transfer with CURLE_WRITE_ERROR
  }
  ex->body->append(data, n);
  return n;
}

int OnPrereq(void* user, char*, char*, int, int) {
  auto* ex = static_cast<Exchange*>(user);
  ++ex->prereq_calls;
  // A second call means curl is replaying the request after a reused connection died.
  // The server may have acted on the first copy: only idempotent reads may be replayed.
  if (ex->prereq_calls > 1 && !ex->may_replay) {
    ex->replay_refused = true;
    return CURL_PREREQFUNC_ABORT;
  }
  return CURL_PREREQFUNC_OK;
}

Status TransportError(StatusCode code, Delivery delivery, std::string message) {
  BankErrorDetail detail;
  detail.delivery = delivery;
  return Status(code, std::move(message), std::move(detail));
}

struct SlistFree {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};

}  // namespace

bool IsLoopbackHost(std::string_view host) {
  if (host == "localhost" || host == "::1" || host == "[::1]") return true;
  if (host.substr(0, 4) != "127.") return false;
  for (char c : host)
    if (c != '.' && (c < '0' || c > '9')) return false;
  return true;
}

CurlTransport::CurlTransport(TransportOptions options) : options_(std::move(options)) { GlobalInitOnce(); }

CurlTransport::~CurlTransport() {
  for (void* h : idle_) curl_easy_cleanup(static_cast<CURL*>(h));
}

void* CurlTransport::Acquire() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!idle_.empty()) {
      void* h = idle_.back();
      idle_.pop_back();
      return h;
    }
  }
  return curl_easy_init();
}

void CurlTransport::Release(void* handle) {
  std::lock_guard<std::mutex> lock(mu_);
  idle_.push_back(handle);
}

StatusOr<HttpAnswer> CurlTransport::Send(const HttpRequest& request) {
  CURL* h = static_cast<CURL*>(Acquire());
  if (h == nullptr) return TransportError(StatusCode::kUnavailable, Delivery::kNotSent, "curl_easy_init failed");
  // The handle goes back to the pool whatever happens: its connection cache is the keep-alive.
  std::unique_ptr<void, std::function<void(void*)>> keep(h, [this](void* p) { Release(p); });
  curl_easy_reset(h);  // clears options, keeps live connections and the DNS cache

  HttpAnswer answer;
  Exchange ex;
  ex.body = &answer.body;
  ex.cap = options_.max_response_bytes;
  ex.may_replay = request.may_replay;
  char error_buffer[CURL_ERROR_SIZE] = {0};

  curl_slist* raw_headers = nullptr;
  for (const auto& [name, value] : request.headers)
    raw_headers = curl_slist_append(raw_headers, (name + ": " + value).c_str());
  raw_headers = curl_slist_append(raw_headers, "Expect:");  // no 100-continue round trip
  std::unique_ptr<curl_slist, SlistFree> headers(raw_headers);

  curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  // TLS: 1.2 or newer, peer and host always verified. There is no option to disable this.
  curl_easy_setopt(h, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
  if (!options_.ca_file.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, options_.ca_file.c_str());
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout.count()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.total_timeout.count()));
  curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options_.max_response_bytes));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &OnWrite);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &ex);
  curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, &OnPrereq);
  curl_easy_setopt(h, CURLOPT_PREREQDATA, &ex);

  if (request.method == "GET") {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
  } else {
    if (request.method != "POST") curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    if (request.method != "DELETE" || !request.body.empty()) {
      curl_easy_setopt(h, CURLOPT_POST, 1L);
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    }
  }

  const CURLcode rc = curl_easy_perform(h);
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  answer.status = static_cast<int>(status);
  const char* content_type = nullptr;
  if (curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &content_type) == CURLE_OK && content_type != nullptr)
    answer.content_type = content_type;
  // The bank's clock (api/bank_clock.h): every answer, refusals included, carries it.
  curl_header* date = nullptr;
  if (curl_easy_header(h, "Date", 0, CURLH_HEADER, -1, &date) == CURLHE_OK && date != nullptr) {
    const time_t parsed = curl_getdate(date->value, nullptr);
    if (parsed >= 0) answer.date_seconds = static_cast<std::int64_t>(parsed);
  }
  const std::string what = std::string(request.method) + " " + request.url + ": " +
                           (error_buffer[0] != 0 ? error_buffer : curl_easy_strerror(rc));
  if (ex.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
    BankErrorDetail detail;
    detail.http_status = answer.status;
    detail.delivery = Delivery::kAnswered;
    return Status(StatusCode::kResourceExhausted,
                  "bank response larger than " + std::to_string(options_.max_response_bytes) +
                      " bytes (ClientOptions::max_response_bytes): " + request.method + " " + request.url,
                  std::move(detail));
  }
  if (rc == CURLE_OK) return answer;
  if (ex.replay_refused)
    return TransportError(StatusCode::kDeadlineExceeded, Delivery::kOutcomeUnknown,
                          "outcome unknown: the connection closed after the request was written, and a " +
                              request.method + " is not re-sent automatically: " + what);
  if (ex.prereq_calls == 0) {
    // Resolve, connect and TLS handshake failures, or a timeout before any of the
    // request was written: the server cannot have seen it.
    return TransportError(StatusCode::kUnavailable, Delivery::kNotSent, "request not sent: " + what);
  }
  return TransportError(StatusCode::kDeadlineExceeded, Delivery::kOutcomeUnknown,
                        "outcome unknown (the request was sent, no complete answer came back): " + what);
}

}  // namespace balcao::api::internal
