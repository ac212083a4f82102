#include "api/client.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include "api/internal/curl_transport.h"
#include "api/internal/http_status.h"
#include "api/resources.h"

#ifndef BALCAO_VERSION
#define BALCAO_VERSION "0"
#endif

namespace balcao::api {

struct Client::Impl {
  std::string base_url;
  Credentials credentials;
  ClientOptions options;
  std::shared_ptr<internal::CurlTransport> transport;
  std::shared_ptr<BankClock> bank_clock;
};

const char* BaseUrlOf(Environment env) {
  return env == Environment::kProduction ? "https://api.starkbank.com" : "https://sandbox.api.starkbank.com";
}

namespace {

// Checks and normalises a base URL: "scheme://host[:port][/prefix]" without a trailing
// "/" or "/v2"; https everywhere, http only to a loopback host (the local sandbox).
StatusOr<std::string> NormaliseBaseUrl(std::string url) {
  const auto bad = [&](const std::string& why) {
    return InvalidArgumentError("invalid bank base URL '" + url + "': " + why);
  };
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return bad("expected https://host[:port]");
  std::string scheme = url.substr(0, scheme_end);
  std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return std::tolower(c); });
  if (scheme != "https" && scheme != "http") return bad("the scheme must be https (or http for loopback)");
  for (char c : url)
    if (static_cast<unsigned char>(c) <= 0x20 || c == '?' || c == '#') return bad("spaces, '?' and '#' not allowed");
  const std::size_t host_begin = scheme_end + 3;
  std::size_t host_end = url.find('/', host_begin);
  if (host_end == std::string::npos) host_end = url.size();
  std::string authority = url.substr(host_begin, host_end - host_begin);
  if (authority.find('@') != std::string::npos) return bad("user info is not allowed");
  std::string host = authority;
  if (!host.empty() && host.front() == '[') {
    host = host.substr(0, host.find(']') + 1);
  } else if (auto colon = host.rfind(':'); colon != std::string::npos) {
    host = host.substr(0, colon);
  }
  if (host.empty()) return bad("missing host");
  if (scheme == "http" && !internal::IsLoopbackHost(host))
    return bad("http:// is allowed only for loopback hosts (127.0.0.1, localhost, ::1); use https");
  std::string out = scheme + "://" + url.substr(host_begin);
  while (!out.empty() && out.back() == '/') out.pop_back();
  if (out.size() >= 3 && out.compare(out.size() - 3, 3, "/v2") == 0) out.resize(out.size() - 3);
  while (!out.empty() && out.back() == '/') out.pop_back();
  return out;
}

bool IsMethod(std::string_view m) { return m == "GET" || m == "POST" || m == "PUT" || m == "PATCH" || m == "DELETE"; }

// True when the path addresses one entity: /v2/<resource>[/log]/<id>[/...].
bool IsByIdRoute(std::string_view path) {
  std::string_view rest = path.substr(4);  // after "/v2/"
  const ResourceSpec* best = nullptr;
  for (const auto& r : Resources())
    if (rest.substr(0, r.name.size()) == r.name && (rest.size() == r.name.size() || rest[r.name.size()] == '/'))
      if (best == nullptr || r.name.size() > best->name.size()) best = &r;
  if (best == nullptr) return false;
  rest.remove_prefix(best->name.size());
  if (rest.substr(0, 4) == "/log") rest.remove_prefix(4);
  return rest.size() > 1;
}

std::chrono::microseconds Backoff(const RetryPolicy& p, int failed_attempts) {
  double delay = static_cast<double>(p.initial_backoff.count());
  for (int i = 1; i < failed_attempts; ++i) delay *= p.multiplier;
  delay = std::min(delay, static_cast<double>(p.max_backoff.count()));
  // Jitter (thundering herd): uniform in [delay/2, delay].
  thread_local std::minstd_rand rng{std::random_device{}()};
  std::uniform_real_distribution<double> dist(delay / 2, delay);
  return std::chrono::microseconds(static_cast<std::int64_t>(dist(rng)));
}

// CallRecord::outcome of a call's result (api/options.h).
std::string_view OutcomeOf(const Status& status, int http_status) {
  if (status.ok()) return "ok";
  if (status.delivery() == Delivery::kNotSent) return "not_sent";
  if (status.delivery() == Delivery::kOutcomeUnknown) return "unknown";
  if (http_status >= 400 && http_status <= 499) return "rejected";
  if (http_status >= 500 && http_status <= 599) return "server_error";
  return "bad_answer";
}

Status WithAttempts(Status s, int attempts) {
  if (attempts <= 1) return s;
  return Status(s.code(), s.message() + " (after " + std::to_string(attempts) + " attempts)", s.detail());
}

}  // namespace

StatusOr<Client> Client::Create(Credentials credentials, ClientOptions options) {
  std::string url = options.base_url.empty() ? BaseUrlOf(options.environment) : options.base_url;
  auto base = NormaliseBaseUrl(url);
  if (!base.ok()) return base.status();
  if (options.language != "en-US" && options.language != "pt-BR")
    return InvalidArgumentError("language must be en-US or pt-BR, got '" + options.language + "'");
  if (options.retry.max_attempts < 1) return InvalidArgumentError("retry.max_attempts must be at least 1");
  if (options.retry.multiplier <= 1.0) return InvalidArgumentError("retry.multiplier must be greater than 1");
  if (options.max_response_bytes == 0) return InvalidArgumentError("max_response_bytes must be positive");
  if (options.user_agent.empty()) options.user_agent = std::string("balcao/") + BALCAO_VERSION;
  if (options.clock == nullptr) options.clock = &SystemClock::Instance();
  internal::TransportOptions t;
  t.ca_file = options.ca_file;
  t.connect_timeout = options.connect_timeout;
  t.total_timeout = options.total_timeout;
  t.max_response_bytes = options.max_response_bytes;
  auto bank_clock = std::make_shared<BankClock>(*options.clock);
  auto impl =
      std::make_shared<Impl>(Impl{*std::move(base), std::move(credentials), std::move(options),
                                  std::make_shared<internal::CurlTransport>(std::move(t)), std::move(bank_clock)});
  return Client(std::move(impl));
}

StatusOr<Client> Client::FromEnvironment(const std::string& credentials_path) {
  auto config = LoadConfig(credentials_path);
  if (!config.ok()) return config.status();
  return Create(std::move(config->credentials), std::move(config->options));
}

StatusOr<Client> Client::InWorkspace(std::string workspace_id) const {
  auto creds = impl_->credentials.InWorkspace(std::move(workspace_id));
  if (!creds.ok()) return creds.status();
  auto impl = std::make_shared<Impl>(*impl_);
  impl->credentials = *std::move(creds);
  return Client(std::move(impl));
}

Client Client::WithObserver(CallObserver observer) const {
  auto impl = std::make_shared<Impl>(*impl_);
  impl->options.observer = std::move(observer);
  return Client(std::move(impl));
}

Client Client::WithBankClock(std::shared_ptr<BankClock> clock) const {
  auto impl = std::make_shared<Impl>(*impl_);
  impl->bank_clock = std::move(clock);
  return Client(std::move(impl));
}

const std::shared_ptr<BankClock>& Client::bank_clock() const { return impl_->bank_clock; }
const ClientOptions& Client::options() const { return impl_->options; }
const std::string& Client::base_url() const { return impl_->base_url; }
const Credentials& Client::credentials() const { return impl_->credentials; }

StatusOr<Response> Client::Call(std::string_view method, std::string_view path, const Query& query,
                                std::string_view body) const {
  if (!IsMethod(method)) return InvalidArgumentError("unsupported HTTP method '" + std::string(method) + "'");
  std::string full_path;
  if (path.substr(0, 4) != "/v2/") full_path = path.substr(0, 1) == "/" ? "/v2" : "/v2/";
  full_path += path;
  for (char c : full_path)
    if (static_cast<unsigned char>(c) <= 0x20 || c == '?' || c == '#' || c == '%' || c == '\\' ||
        static_cast<unsigned char>(c) >= 0x7f)
      return InvalidArgumentError("invalid API path '" + std::string(path) +
                                  "': no spaces, '?', '#', '%' or non-ASCII (put the query in `query`)");
  if (full_path.find("/../") != std::string::npos || full_path.find("//") != std::string::npos ||
      (full_path.size() >= 3 && full_path.compare(full_path.size() - 3, 3, "/..") == 0))
    return InvalidArgumentError("invalid API path '" + std::string(path) + "': empty or '..' segment");

  const Impl& impl = *impl_;
  internal::HttpRequest request;
  request.method = std::string(method);
  request.url = impl.base_url + full_path;
  if (!query.empty()) request.url += "?" + query.Encode();
  request.body = std::string(body);
  const bool is_get = method == "GET";
  request.may_replay = is_get;
  const std::string what = request.method + " " + full_path;
  const bool by_id = IsByIdRoute(full_path);

  const std::string& access_id = impl.credentials.access_id();
  const auto started = std::chrono::steady_clock::now();
  int http_status = 0;
  // Every return from here on is a call that went out: the observer hears of it.
  const auto observed = [&](StatusOr<Response> result, int attempts) {
    if (impl.options.observer) {
      CallRecord record;
      record.method = request.method;
      record.route = EndpointTemplateOf(request.method, full_path);
      record.outcome = OutcomeOf(result.ok() ? OkStatus() : result.status(), http_status);
      record.elapsed = std::chrono::steady_clock::now() - started;
      record.attempts = attempts;
      record.http_status = http_status;
      impl.options.observer(record);
    }
    return result;
  };
  Status last;
  const int max_attempts = impl.options.retry.max_attempts;
  bool clock_retried = false;
  int attempts = 0;
  for (int attempt = 1; attempt <= max_attempts; ++attempt) {
    ++attempts;
    // Signed per attempt: Access-Time is the bank's "now" (integer seconds), body bytes as sent.
    const std::string access_time = std::to_string(impl.bank_clock->Now() / kMicrosPerSecond);
    std::string message;
    message.reserve(access_id.size() + access_time.size() + request.body.size() + 2);
    message.append(access_id).append(":").append(access_time).append(":").append(request.body);
    request.headers = {{"Access-Id", access_id},
                       {"Access-Time", access_time},
                       {"Access-Signature", impl.credentials.key().Sign(message)},
                       {"User-Agent", impl.options.user_agent},
                       {"Accept-Language", impl.options.language},
                       {"Content-Type", "application/json"}};
    const auto sent = BankClock::Steady::now();
    auto answer = impl.transport->Send(request);
    bool retryable;
    if (!answer.ok()) {
      last = answer.status();
      http_status = last.http_status();
      retryable = last.delivery() == Delivery::kNotSent || (is_get && last.delivery() == Delivery::kOutcomeUnknown);
    } else {
      http_status = answer->status;
      const bool clock_moved =
          answer->date_seconds >= 0 && impl.bank_clock->Observe(answer->date_seconds, sent, BankClock::Steady::now());
      last = internal::AsStatus(answer->status, answer->body, what, by_id);
      if (last.ok())
        return observed(Response{answer->status, std::move(answer->body), std::move(answer->content_type)}, attempts);
      // Refused for its Access-Time: the bank did nothing with it, and its answer's Date has
      // just corrected the clock. Once per call, and not counted against the retry policy.
      if (!clock_retried && clock_moved &&
          (last.HasErrorCode("invalidAccessTime") || last.HasErrorCode("expiredAccessTime"))) {
        clock_retried = true;
        --attempt;
        continue;
      }
      retryable = is_get && answer->status >= 500 && answer->status <= 599;
    }
    if (!retryable || attempt == max_attempts) return observed(WithAttempts(std::move(last), attempts), attempts);
    std::this_thread::sleep_for(Backoff(impl.options.retry, attempt));
  }
  return observed(last, attempts);
}

}  // namespace balcao::api
