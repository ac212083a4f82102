// The hub's fleet page and /metrics over real HTTP (docs/hub.md, "The fleet page"): a user added
// with `balcao hub user add` signs in; the page's API shows every enrolled lane with the health
// its heartbeats carry and today's sales, the lane never started flagged silent; nothing of it
// without a session, failed logins throttled, /metrics only where the hub runs or signed in.
#include <gtest/gtest.h>

#include <thread>

#include "tests/hub/hub_fixture.h"

namespace balcao::hub::testing {
namespace {

constexpr const char* kFleetPassword = "senha-da-rede-42";

class HubFleet : public HubE2E {
 protected:
  std::string Direct(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(hub_port_) + path; }
  Reply LogIn(const std::string& password) const {
    return Http("POST", Direct("/fleet/api/login"), Json{{"name", "gerente"}, {"password", password}}.dump());
  }
  Reply Fleet(const std::string& cookie) const {
    return Http("GET", Direct("/fleet/api/fleet"), "", {{"Cookie", cookie}});
  }
  static Json LaneOf(const Json& fleet, const std::string& store, const std::string& terminal) {
    for (const Json& s : fleet["stores"])
      for (const Json& lane : s["lanes"])
        if (s["store"] == store && lane["terminal"] == terminal) return lane;
    return Json();
  }
};

TEST_F(HubFleet, ASignedInUserSeesTheFleetAndNobodyElseDoes) {
  StartBox(*boxes_[0]);
  StartBox(*boxes_[1]);  // boxes_[2] is never started: never seen
  const Sale sale = Sell(*boxes_[0], "pix", 2345);
  Pay(sale);
  ExpectPaidOnce(sale);
  ASSERT_EQ(RunCliStatus({"hub", "user", "add", "gerente", "--config", hub_config_}, "curta").second, 2)
      << "a short password is refused";
  ASSERT_EQ(RunCliStatus({"hub", "user", "add", "gerente", "--config", hub_config_}, kFleetPassword).second, 0);

  // Nothing without a session; the page itself (no data in it) is there for anyone.
  EXPECT_EQ(Fleet("").status, 401);
  EXPECT_EQ(Fleet("balcao_hub_session=forged").status, 401);
  const Reply page = Http("GET", Direct("/fleet/"));
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("fleet.js"), std::string::npos);
  EXPECT_EQ(Http("GET", Direct("/fleet/fleet.css")).status, 200);
  EXPECT_EQ(
      Http("POST", Direct("/fleet/api/login"), R"({"name":"gerente","password":"x"})", {{"Content-Type", "text/plain"}})
          .status,
      415)
      << "a cross-site form cannot sign in";
  EXPECT_EQ(LogIn("not-the-password").status, 401);

  const Reply signed_in = LogIn(kFleetPassword);
  ASSERT_EQ(signed_in.status, 200) << signed_in.body;
  for (const char* attribute : {"HttpOnly", "Secure", "SameSite=Strict", "Path=/fleet"})
    EXPECT_NE(signed_in.set_cookie.find(attribute), std::string::npos) << signed_in.set_cookie;
  const std::string cookie = signed_in.set_cookie.substr(0, signed_in.set_cookie.find(';'));

  // The sale reaches the page with the box's next heartbeat (every second in these tests), and
  // the second box is seen at its first.
  Json fleet, lane;
  for (int i = 0; i < 100; ++i) {
    fleet = Fleet(cookie).json;
    lane = LaneOf(fleet, "loja-1", "caixa-1");
    if (lane.is_object() && lane["today"]["sales"] == 1 && LaneOf(fleet, "loja-1", "caixa-2")["seen"] == true) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(fleet["user"], "gerente");
  EXPECT_EQ(fleet["lanes"], 3);
  EXPECT_EQ(fleet["silent"], 1) << fleet.dump();
  EXPECT_EQ(fleet["tampered"], 0);
  EXPECT_EQ(fleet["today"]["collected"], 2345) << fleet.dump();
  EXPECT_EQ(lane["silent"], false) << lane.dump();
  EXPECT_FALSE(lane["version"].get<std::string>().empty());
  EXPECT_EQ(lane["today"]["sales"], 1);
  EXPECT_EQ(lane["today"]["collected"], 2345);
  EXPECT_GT(lane["disk_free_bytes"].get<long long>(), 0);
  EXPECT_EQ(lane["queue_depth"], 0);
  EXPECT_TRUE(lane["clock_offset_s"].is_number());
  EXPECT_TRUE(lane["bank_ok"].get<bool>()) << lane.dump();
  EXPECT_FALSE(lane["last_sale_at"].get<std::string>().empty()) << lane.dump();
  EXPECT_FALSE(lane["printer"].get<std::string>().empty());
  const Json never = LaneOf(fleet, "loja-2", "caixa-1");
  EXPECT_EQ(never["silent"], true);
  EXPECT_EQ(never["seen"], false);

  // /metrics: where the hub runs, yes; through the proxy, only signed in.
  const Reply local = Http("GET", Direct("/metrics"));
  EXPECT_EQ(local.status, 200);
  EXPECT_NE(local.body.find("balcao_hub_lanes_silent 1"), std::string::npos) << local.body;
  EXPECT_NE(local.body.find("balcao_hub_lanes 3"), std::string::npos);
  EXPECT_EQ(Http("GET", caddy_.url() + "/metrics", "", {}, caddy_.root_ca()).status, 403);
  EXPECT_EQ(Http("GET", caddy_.url() + "/metrics", "", {{"Cookie", cookie}}, caddy_.root_ca()).status, 200);
  // Nor does a header a client writes itself make a request local.
  EXPECT_EQ(Http("GET", caddy_.url() + "/metrics", "", {{"X-Forwarded-For", "127.0.0.1"}}, caddy_.root_ca()).status,
            403);

  // The page's language: Accept-Language alone, then the browser's choice, which a signed-in
  // user keeps (their next sign-in, in any browser, answers it and sets it).
  const auto lang_of = [](const Reply& page) { return page.body.substr(page.body.find("<html lang="), 19); };
  EXPECT_EQ(lang_of(Http("GET", Direct("/fleet/"))), "<html lang=\"pt-BR\">");
  EXPECT_EQ(lang_of(Http("GET", Direct("/fleet/"), "", {{"Accept-Language", "en-GB,en;q=0.9"}})),
            "<html lang=\"en-US\">");
  EXPECT_EQ(Http("POST", Direct("/fleet/api/language"), R"({"language":"fr-FR"})").status, 400);
  const Reply chosen = Http("POST", Direct("/fleet/api/language"), R"({"language":"en-US"})", {{"Cookie", cookie}});
  ASSERT_EQ(chosen.status, 200) << chosen.body;
  EXPECT_EQ(chosen.set_cookie.substr(0, chosen.set_cookie.find(';')), "balcao_hub_language=en-US");
  EXPECT_EQ(lang_of(Http("GET", Direct("/fleet/"), "", {{"Cookie", "balcao_hub_language=en-US"}})),
            "<html lang=\"en-US\">");
  const Reply again = LogIn(kFleetPassword);
  EXPECT_EQ(again.json["language"], "en-US") << again.body;

  // Signing out ends the session; five failed logins stop a sixth try, even the right one.
  EXPECT_EQ(Http("POST", Direct("/fleet/api/logout"), "{}", {{"Cookie", cookie}}).status, 200);
  EXPECT_EQ(Fleet(cookie).status, 401);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(LogIn("wrong-" + std::to_string(i)).status, 401);
  EXPECT_EQ(LogIn(kFleetPassword).status, 429);
}

}  // namespace
}  // namespace balcao::hub::testing
