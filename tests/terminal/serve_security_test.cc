// `balcao serve` against the requests a hostile web page or a curious passer-by can send
// (docs/security.md): cross-site writes, DNS rebinding, no session, the PIN lock at the
// login, and the PIN nowhere on disk, in the log or on paper.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/terminal/serve_fixture.h"

namespace balcao::terminal::testing {
namespace {

class ServeSecurity : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir("security");
    serve_.Start(dir_ / "data", {"--printer", "file:" + (dir_ / "printer.bin").string()});
    ASSERT_FALSE(serve_.url().empty());
  }
  int SalesToday() {
    const Reply list = serve_.Get("/api/sales");
    return list.json.contains("sales") ? static_cast<int>(list.json["sales"].size()) : -1;
  }
  std::filesystem::path dir_;
  ServeProcess serve_;
};

TEST_F(ServeSecurity, CrossSiteWritesAreRefusedAndOpenNoSale) {
  const int before = SalesToday();
  ASSERT_GE(before, 0);
  // A page's form or fetch without preflight: text/plain, the victim's cookie attached.
  Reply text = serve_.Call("POST", "/api/sales", R"({"amount":1500})",
                           {{"Content-Type", "text/plain"}, {"Origin", "http://evil.example"}});
  EXPECT_EQ(text.status, 403) << text.body;
  EXPECT_EQ(text.json["error"]["field"], "Content-Type");
  Reply foreign = serve_.Call("POST", "/api/sales", R"({"amount":1500})", {{"Origin", "http://evil.example"}});
  EXPECT_EQ(foreign.status, 403) << foreign.body;
  EXPECT_EQ(foreign.json["error"]["field"], "Origin");
  EXPECT_EQ(SalesToday(), before);
  // The service's own page may.
  const std::string own = serve_.url();
  EXPECT_EQ(serve_.Call("POST", "/api/sales", R"({"amount":1500})", {{"Origin", own}}).status, 201);
}

TEST_F(ServeSecurity, AForeignHostIsMisdirected) {
  const std::string port = serve_.url().substr(serve_.url().rfind(':') + 1);
  for (const char* path : {"/api/sales", "/", "/healthz", "/api/login"}) {
    Reply r = serve_.Call("GET", path, "", {{"Host", "attacker.example:" + port}});
    EXPECT_EQ(r.status, 421) << path << " " << r.body;
  }
  EXPECT_EQ(serve_.Call("GET", "/api/sales", "", {{"Host", "localhost:" + port}}).status, 200);
}

TEST_F(ServeSecurity, EveryApiRouteNeedsASession) {
  serve_.LogOut();
  const std::vector<std::pair<std::string, std::string>> routes = {
      {"GET", "/api/status"},          {"GET", "/api/sales"},           {"POST", "/api/sales"},
      {"GET", "/api/sales/x"},         {"POST", "/api/sales/x/method"}, {"POST", "/api/sales/x/card"},
      {"POST", "/api/sales/x/refund"}, {"POST", "/api/sales/x/cancel"}, {"GET", "/api/sales/x/qr.svg"},
      {"GET", "/api/queue"},           {"POST", "/api/logout/x"},       {"DELETE", "/api/sales/x"}};
  for (const auto& [method, path] : routes) {
    Reply r = serve_.Call(method, path, "{}");
    EXPECT_EQ(r.status, 401) << method << " " << path << " " << r.body;
  }
  EXPECT_EQ(serve_.Call("GET", "/api/session").status, 401);
  EXPECT_EQ(serve_.Call("GET", "/healthz").status, 200);
  // A forged cookie is no session.
  EXPECT_EQ(serve_.Call("GET", "/api/sales", "", {{"Cookie", "balcao_session=" + std::string(64, 'a')}}).status, 401);
  ASSERT_EQ(serve_.LogIn(kCashier, kCashierPin).status, 200);
  EXPECT_EQ(serve_.Get("/api/session").json["operator"], kCashier);
  EXPECT_EQ(serve_.Post("/api/logout", Json::object()).status, 200);
}

TEST_F(ServeSecurity, DisablingAnOperatorEndsTheirSession) {
  ASSERT_EQ(serve_.Get("/api/sales").status, 200);
  const std::string disable = std::string(BALCAO_CLI) + " operator disable " + kCashier + " --db '" +
                              (dir_ / "data" / "balcao.db").string() + "' >/dev/null 2>&1";
  ASSERT_EQ(std::system(disable.c_str()), 0);
  EXPECT_EQ(serve_.Get("/api/sales").status, 401);
  EXPECT_EQ(serve_.LogIn(kCashier, kCashierPin).status, 403);
}

TEST_F(ServeSecurity, TheSixthWrongPinIsRefusedEvenWithTheRightPin) {
  for (int i = 0; i < 5; ++i) EXPECT_EQ(serve_.LogIn(kCashier, "0000").status, 401) << i;
  Reply sixth = serve_.LogIn(kCashier, kCashierPin);
  EXPECT_EQ(sixth.status, 423) << sixth.body;
  EXPECT_NE(sixth.json["error"]["rule"].get<std::string>().find("locked"), std::string::npos);
  // Unknown operators get the same answer as a wrong PIN.
  EXPECT_EQ(serve_.LogIn("ninguem", "1234").json["error"]["rule"], "wrong operator or PIN");
}

TEST_F(ServeSecurity, ThePinsAreNowhereOnDiskInTheLogOrOnPaper) {
  // A sale refunded with the supervisor's approval: every PIN went through the service.
  const std::string id = serve_.NewSale(2590)["id"].get<std::string>();
  const Reply pix = serve_.Post("/api/sales/" + id + "/method", {{"method", "pix"}});
  ASSERT_EQ(serve_.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix.json, "brcode")}}).status, 200);
  serve_.WaitFor(id, "paid");
  const Reply refund = serve_.Post("/api/sales/" + id + "/refund", ServeProcess::Approved({{"reason", "troca"}}));
  ASSERT_EQ(refund.status, 200) << refund.body;
  serve_.Stop();
  for (const char* pin : {kCashierPin, kSupervisorPin})
    EXPECT_TRUE(FilesContaining(dir_, pin).empty()) << pin << " found in " << FilesContaining(dir_, pin).front();
  // The journal names both people.
  EXPECT_FALSE(FilesContaining(dir_ / "data", std::string("\"approved_by\":\"") + kSupervisor).empty());
}

}  // namespace
}  // namespace balcao::terminal::testing
