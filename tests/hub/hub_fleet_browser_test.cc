// The hub's fleet page in a real browser (docs/hub.md, "The fleet page"): the hub behind Caddy,
// three lanes of two stores (two boxes up, one never started) and a Pix sale paid on loja-1;
// then tests/hub/browser/fleet.test.js (playwright-core driving Debian's headless Chromium)
// signs in through Caddy and reads the fleet in pt-BR and en-US at 1024x768 and 800x480.
// Skipped, naming what is missing, without the engines, node and npm, or /usr/bin/chromium.
#include <gtest/gtest.h>
#include <unistd.h>

#include "tests/hub/hub_fixture.h"
#include "tests/testing/eventually.h"

namespace balcao::hub::testing {
namespace {

constexpr const char* kUser = "gerente";
constexpr const char* kPassword = "senha-da-rede-42";

class HubFleetBrowser : public HubE2E {
 protected:
  void SetUp() override {
    if (::access("/usr/bin/chromium", X_OK) != 0)
      GTEST_SKIP() << "/usr/bin/chromium not installed (deploy/install-deps.sh)";
    if (testing::Run({"sh", "-c", "command -v node && command -v npm"}, FreshDir("hub-browser-probe") / "probe.log") !=
        0)
      GTEST_SKIP() << "node and npm are required for the browser test (deploy/install-deps.sh)";
    HubE2E::SetUp();
  }
  // Whether the hub's fleet API shows the sale and both boxes that run.
  bool FleetShowsTheSale() const {
    const std::string direct = "http://127.0.0.1:" + std::to_string(hub_port_);
    const Reply login =
        Http("POST", direct + "/fleet/api/login", Json{{"name", kUser}, {"password", kPassword}}.dump());
    if (login.status != 200) return false;
    const Json fleet = Http("GET", direct + "/fleet/api/fleet", "",
                            {{"Cookie", login.set_cookie.substr(0, login.set_cookie.find(';'))}})
                           .json;
    if (!fleet.is_object() || fleet["today"]["sales"] != 1) return false;
    int seen = 0;
    for (const Json& store : fleet["stores"])
      for (const Json& lane : store["lanes"]) seen += lane["seen"] == true;
    return seen == 2;
  }
};

TEST_F(HubFleetBrowser, SignsInAndReadsTheFleetInBothLanguagesAtBothSizes) {
  StartBox(*boxes_[0]);
  StartBox(*boxes_[1]);  // boxes_[2] is never started: never seen
  const Sale sale = Sell(*boxes_[0], "pix", 2345);
  Pay(sale);
  ExpectPaidOnce(sale);
  ASSERT_EQ(RunCliStatus({"hub", "user", "add", kUser, "--config", hub_config_}, kPassword).second, 0);
  ASSERT_TRUE(test_util::Eventually([this] { return FleetShowsTheSale(); }, std::chrono::seconds(60)))
      << "the fleet API never showed the sale and both boxes";

  const std::filesystem::path log = dir_ / "browser.log";
  const int status =
      testing::Run({"env", "BALCAO_HUB_URL=" + caddy_.url() + "/fleet/", std::string("BALCAO_HUB_USER=") + kUser,
                    std::string("BALCAO_HUB_PASSWORD=") + kPassword, "bash",
                    std::string(BALCAO_SOURCE_DIR) + "/tests/hub/browser/run.sh", BALCAO_HUB_BROWSER_DIR},
                   log);
  std::ifstream in(log);
  const std::string output((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(status, 0) << output;
}

}  // namespace
}  // namespace balcao::hub::testing
