// The service's route table (terminal/service/routes.h), without sockets: which row a request
// reaches, what it captures, the 404/405 it gets otherwise, and that who may call each route
// agrees with docs/security.md (the gate's default for a path no row matches).
#include <gtest/gtest.h>

#include <string>

#include "terminal/service/routes.h"

namespace balcao::terminal::service {
namespace {

// The row `method path` reaches, as "METHOD pattern", or "" when none takes it.
std::string Reached(std::string_view method, std::string_view path) {
  const RouteMatch found = FindRoute(Routes(), method, path);
  return found.route ? std::string(found.route->method) + " " + found.route->pattern : "";
}

TEST(RouteTable, EachRequestReachesItsRowWithItsCaptures) {
  EXPECT_EQ(Reached("POST", "/api/login"), "POST /api/login");
  EXPECT_EQ(Reached("HEAD", "/healthz"), "GET /healthz");  // GET rows take HEAD
  EXPECT_EQ(Reached("DELETE", "/bank/webhook"), "* /bank/webhook");
  EXPECT_EQ(Reached("GET", "/device/abc123"), "* /device/*");
  EXPECT_EQ(Reached("GET", "/pay/0123456789abcdef0123456789abcdef"), "GET /pay/*");
  EXPECT_EQ(Reached("GET", "/pay/0123456789abcdef0123456789abcdef/session"), "GET /pay/*");
  // The page writes nothing; its one POST asks the box to poll the bank now (phone_pay.cc).
  EXPECT_EQ(Reached("POST", "/pay/0123456789abcdef0123456789abcdef/answered"), "POST /pay/*");
  EXPECT_EQ(Reached("GET", "/api/sales/v1-a/phone-link"), "GET /api/sales/{sale}/phone-link");
  EXPECT_EQ(Reached("GET", "/"), "GET /");
  EXPECT_EQ(Reached("GET", "/app.js"), "GET /{item}");
  EXPECT_EQ(Reached("GET", "/api/sales/v1-a"), "GET /api/sales/{sale}");
  EXPECT_EQ(Reached("POST", "/api/sales/v1-a/card"), "POST /api/sales/{sale}/card");
  EXPECT_EQ(Reached("POST", "/api/sales/v1-a/no-such"), "POST /api/sales/{sale}/*");
  EXPECT_EQ(Reached("POST", "/api/queue/card/v1-a/drop"), "POST /api/queue/card/{item}/{action}");

  const RouteMatch queued = FindRoute(Routes(), "POST", "/api/queue/42/retry");
  ASSERT_NE(queued.route, nullptr);
  EXPECT_EQ(queued.id, "42");
  EXPECT_EQ(queued.action, "retry");
  const RouteMatch sale = FindRoute(Routes(), "POST", "/api/sales/v1-a/refund");
  EXPECT_EQ(sale.id, "v1-a");
}

TEST(RouteTable, NoRowOfThePathIs404AndNoneTakingTheMethodIs405WithWhatIsAllowed) {
  for (const char* path : {"/api/nothing", "/a/b", "/api/queue/1/2/3", "/api/sales"})
    EXPECT_EQ(FindRoute(Routes(), "DELETE", path).of_path == nullptr, std::string(path) != "/api/sales") << path;
  // An unknown action of a sale reaches the row that answers 404 "action" (after the body's 400).
  EXPECT_EQ(Reached("POST", "/api/sales/v1-a/b/c"), "POST /api/sales/{sale}/*");
  const RouteMatch status = FindRoute(Routes(), "POST", "/api/status");
  EXPECT_EQ(status.route, nullptr);
  ASSERT_NE(status.of_path, nullptr);
  EXPECT_EQ(status.allow, "GET");
  const RouteMatch sales = FindRoute(Routes(), "PUT", "/api/sales");
  EXPECT_EQ(sales.route, nullptr);
  EXPECT_EQ(sales.allow, "GET, POST");
  const RouteMatch action = FindRoute(Routes(), "GET", "/api/sales/v1-a/cancel");
  EXPECT_EQ(action.route, nullptr);
  EXPECT_EQ(action.allow, "POST");
}

TEST(RouteTable, WhoMayCallEachRouteIsWhatTheSecurityPageSays) {
  for (const Route& route : Routes()) {
    const std::string pattern = route.pattern;
    const bool api = pattern.rfind("/api/", 0) == 0;
    if (pattern == "/api/login" || pattern == "/api/session" || pattern == "/api/language") {
      EXPECT_EQ(route.who, Audience::kAnyone) << pattern;
    } else if (pattern.rfind("/api/queue", 0) == 0) {
      EXPECT_EQ(route.who, Audience::kSupervisor) << pattern;
    } else if (api) {
      EXPECT_EQ(route.who, Audience::kOperator) << pattern;
    } else if (pattern == kWebhookPath) {
      EXPECT_EQ(route.who, Audience::kBank);
    } else if (pattern.rfind("/device/", 0) == 0) {
      EXPECT_EQ(route.who, Audience::kDeviceLink);
    } else {
      EXPECT_EQ(route.who, Audience::kAnyone) << pattern;  // the web app, /healthz, /readyz, /metrics
    }
    // A path no row matches gets the gate's default: it never lets through more than the row.
    if (route.who == Audience::kOperator) {
      EXPECT_EQ(AccessPolicy::AudienceOf(pattern), Audience::kOperator) << pattern;
    }
  }
}

}  // namespace
}  // namespace balcao::terminal::service
