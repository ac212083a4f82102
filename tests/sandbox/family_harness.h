// Test harness of the family tests: starts an in-process sandbox (HTTP only, in-memory
// database) and talks to it over real loopback HTTP with real Access-Signature headers
// (the demo project's key), following the sandbox clock for Access-Time. Also drives the
// unsigned simulation API (/sandbox/...). One harness per test; not thread-safe.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sandbox/sandbox.h"

namespace balcao::sandbox::family_testing {

using Json = nlohmann::json;

struct Reply {
  long status = 0;
  std::string body;
  std::string content_type;
  Json json() const { return Json::parse(body, nullptr, false); }
  // The first error code of a 400 body, or "".
  std::string code() const;
};

class FamilyHarness : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Signed /v2 request; `path` starts after /v2 ("/transfer?limit=2").
  Reply Api(const std::string& method, const std::string& path, const Json& body = nullptr);
  // The answer of a signed request that must succeed (HTTP 200), parsed.
  Json Ok(const std::string& method, const std::string& path, const Json& body = nullptr);
  // Unsigned simulation request: POST /sandbox/<name>.
  Reply Sim(const std::string& name, const Json& body = Json::object());
  Json SimOk(const std::string& name, const Json& body = Json::object());
  // Unsigned GET /sandbox/<name> (clock, webhook-deliveries).
  Json SimGet(const std::string& name);
  // Signs later requests as another principal (e.g. a second workspace's project).
  void SignAs(const std::string& access_id, const std::string& key_pem);
  void SignAsDemoProject();
  // Advances the sandbox clock (running due jobs) by `seconds`.
  void Advance(std::int64_t seconds);
  // Sets the sandbox clock to an ISO timestamp (forward only).
  void SetClock(const std::string& timestamp);
  std::string Now();
  std::int64_t Balance();
  // Funds the demo workspace with a Pix deposit (simulation).
  void Fund(std::int64_t cents);
  // GET a binary and run `pdftotext - -`; returns the text ("" if not a PDF).
  std::string PdfText(const std::string& path, bool sign = true);
  // A receipt as the bank's look (docs/sandbox.md, "Receipts and PDFs"): a PDF of at least
  // 4 KB whose text (pdftotext) holds the authentication code's label and every one of `fields`,
  // and whose authentication QR code decodes (pdftoppm + zbarimg; skipped, said, when missing).
  void ExpectReceipt(const std::string& path, const std::vector<std::string>& fields, bool sign = true);

  std::unique_ptr<Sandbox> sandbox_;

  // Any request to a full URL; `sign` adds the API signature headers.
  Reply Send(const std::string& method, const std::string& url, const std::string& body, bool sign);

 private:
  double clock_offset_seconds_ = 0;  // sandbox clock - system clock
  void* curl_ = nullptr;
  std::string access_id_;  // "project/<id>" or "organization/<id>[/workspace/<id>]"
  std::string key_pem_;
  std::string data_dir_;  // removed on TearDown (keys, database)
};

}  // namespace balcao::sandbox::family_testing
