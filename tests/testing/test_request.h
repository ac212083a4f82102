// One HTTP request of an end-to-end test, built up and then sent with libcurl, signed the
// way the bank's API wants when asked (docs/wire.md, "Signing"):
//   HttpReply r = TestRequest("POST", base + "/v2/invoice")
//                     .Body(invoices.dump())
//                     .Header("Access-Id", id).Header("Access-Time", now).Sign(key)
//                     .Send(curl);
// Content-Type is application/json unless set. Nothing here checks the answer: the test does.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "api/crypto.h"

namespace balcao::test_util {

struct HttpReply {
  long status = 0;    // 0: no HTTP answer (refused, reset, timed out: see curl_code)
  int curl_code = 0;  // CURLcode
  std::string body;
  std::string content_type;
};

class TestRequest {
 public:
  TestRequest(std::string method, std::string url);

  // Sets (or replaces) a header. An empty value sends "Name:", which also stops libcurl
  // from sending a default of its own ("Expect", "Content-Type").
  TestRequest& Header(const std::string& name, const std::string& value);
  // The request body, sent as is (also with a GET when set).
  TestRequest& Body(std::string bytes);
  // Access-Signature over "<Access-Id>:<Access-Time>:<body>" with the headers as set so far
  // (an absent one counts as empty); a signature the test set itself is kept.
  TestRequest& Sign(const api::PrivateKey& key);
  TestRequest& TimeoutMs(long ms);
  // A new connection for this request: libcurl re-sends a request whose reused connection
  // died before answering, and a fault test needs one request to be one attempt.
  TestRequest& FreshConnection();

  // Sends on `curl` (a CURL* the caller keeps for keep-alive), or on a handle of its own.
  HttpReply Send(void* curl = nullptr) const;

 private:
  std::string Value(const std::string& header) const;

  std::string method_;
  std::string url_;
  std::map<std::string, std::string> headers_;
  std::optional<std::string> body_;
  long timeout_ms_ = 30'000;
  bool fresh_connection_ = false;
};

}  // namespace balcao::test_util
