#include "tests/testing/test_request.h"

#include <curl/curl.h>

#include <memory>
#include <utility>

namespace balcao::test_util {
namespace {

std::size_t Collect(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

}  // namespace

TestRequest::TestRequest(std::string method, std::string url) : method_(std::move(method)), url_(std::move(url)) {}

TestRequest& TestRequest::Header(const std::string& name, const std::string& value) {
  headers_[name] = value;
  return *this;
}

TestRequest& TestRequest::Body(std::string bytes) {
  body_ = std::move(bytes);
  return *this;
}

TestRequest& TestRequest::Sign(const api::PrivateKey& key) {
  if (headers_.count("Access-Signature") == 0)
    headers_["Access-Signature"] = key.Sign(Value("Access-Id") + ":" + Value("Access-Time") + ":" + body_.value_or(""));
  return *this;
}

TestRequest& TestRequest::TimeoutMs(long ms) {
  timeout_ms_ = ms;
  return *this;
}

TestRequest& TestRequest::FreshConnection() {
  fresh_connection_ = true;
  return *this;
}

std::string TestRequest::Value(const std::string& header) const {
  const auto it = headers_.find(header);
  return it == headers_.end() ? "" : it->second;
}

HttpReply TestRequest::Send(void* curl) const {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> own(curl == nullptr ? curl_easy_init() : nullptr,
                                                          &curl_easy_cleanup);
  CURL* c = curl == nullptr ? own.get() : static_cast<CURL*>(curl);
  curl_easy_reset(c);
  HttpReply reply;
  curl_slist* list = nullptr;
  for (const auto& [name, value] : headers_)
    list = curl_slist_append(list, (value.empty() ? name + ":" : name + ": " + value).c_str());
  if (headers_.count("Content-Type") == 0) list = curl_slist_append(list, "Content-Type: application/json");
  curl_easy_setopt(c, CURLOPT_URL, url_.c_str());
  curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method_.c_str());
  if (body_) {
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body_->data());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body_->size()));
  }
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &Collect);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &reply.body);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms_);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  if (fresh_connection_) curl_easy_setopt(c, CURLOPT_FRESH_CONNECT, 1L);
  // Loopback test servers present self-signed certificates.
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
  reply.curl_code = curl_easy_perform(c);
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &reply.status);
  char* type = nullptr;
  curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &type);
  if (type != nullptr) reply.content_type = type;
  curl_slist_free_all(list);
  return reply;
}

}  // namespace balcao::test_util
