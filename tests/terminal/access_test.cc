// The service's gate, without sockets: foreign Host 421, cross-site writes 403, no session
// 401; and the session book (tokens, idle timeout, cookie attributes).
#include "terminal/service/access.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>

#include "terminal/service/sessions.h"

namespace balcao::terminal::service {
namespace {

const AccessPolicy kLocal(8080, {}, /*tls=*/false);

RequestFacts Req(std::string_view method, std::string_view path, std::string_view host = "127.0.0.1:8080") {
  RequestFacts r;
  r.method = method;
  r.path = path;
  r.host = host;
  r.content_type = "application/json";
  r.has_session = true;
  return r;
}

TEST(AccessPolicy, AForeignHostIsMisdirectedBeforeAnythingElse) {
  EXPECT_EQ(kLocal.Check(Req("GET", "/api/sales", "attacker.example:8080"))->status, 421);
  EXPECT_EQ(kLocal.Check(Req("GET", "/", "127.0.0.1:9999"))->status, 421);
  EXPECT_EQ(kLocal.Check(Req("GET", "/healthz", ""))->status, 421);
  EXPECT_FALSE(kLocal.Check(Req("GET", "/api/sales", "LOCALHOST:8080")));
  const AccessPolicy lan(8443, {"caixa1.loja.lan", "10.0.0.5:8443"}, /*tls=*/true);
  EXPECT_FALSE(lan.Check(Req("GET", "/api/sales", "caixa1.loja.lan:8443")));
  EXPECT_FALSE(lan.Check(Req("GET", "/api/sales", "10.0.0.5:8443")));
  EXPECT_EQ(lan.Check(Req("GET", "/api/sales", "caixa1.loja.lan"))->status, 421);
}

TEST(AccessPolicy, CrossSiteWritesAreRefused) {
  RequestFacts text = Req("POST", "/api/sales");
  text.content_type = "text/plain";
  EXPECT_EQ(kLocal.Check(text)->status, 403);
  EXPECT_EQ(kLocal.Check(text)->field, "Content-Type");
  RequestFacts form = Req("POST", "/api/login");
  form.content_type = "application/x-www-form-urlencoded";
  EXPECT_EQ(kLocal.Check(form)->status, 403);
  RequestFacts foreign = Req("POST", "/api/sales");
  foreign.origin = "http://evil.example";
  EXPECT_EQ(kLocal.Check(foreign)->status, 403);
  EXPECT_EQ(kLocal.Check(foreign)->field, "Origin");
  RequestFacts own = Req("POST", "/api/sales");
  own.origin = "http://localhost:8080";
  own.content_type = "application/json; charset=utf-8";
  EXPECT_FALSE(kLocal.Check(own));
  RequestFacts no_origin = Req("DELETE", "/api/sales/x");  // curl on the box: no Origin
  EXPECT_FALSE(kLocal.Check(no_origin));
}

TEST(AccessPolicy, EveryApiRouteNeedsASessionButTheLoginTheWebhookAndHealth) {
  for (const char* path : {"/api/sales", "/api/status", "/api/sales/s1/refund", "/api/queue", "/api/anything"}) {
    RequestFacts r = Req("GET", path);
    r.has_session = false;
    ASSERT_TRUE(kLocal.Check(r)) << path;
    EXPECT_EQ(kLocal.Check(r)->status, 401) << path;
  }
  for (const char* path : {"/", "/app.js", "/healthz", "/readyz", "/metrics", "/api/session"}) {
    RequestFacts r = Req("GET", path);
    r.has_session = false;
    EXPECT_FALSE(kLocal.Check(r)) << path;
  }
  RequestFacts login = Req("POST", "/api/login");
  login.has_session = false;
  EXPECT_FALSE(kLocal.Check(login));
  RequestFacts webhook = Req("POST", kWebhookPath);  // the bank sends its own content type
  webhook.has_session = false;
  webhook.content_type = "text/plain";
  EXPECT_FALSE(kLocal.Check(webhook));
}

class StepClock final : public Clock {
 public:
  UnixMicros Now() const override { return now_.load(); }
  void Advance(int seconds) { now_ += seconds * kMicrosPerSecond; }

 private:
  std::atomic<UnixMicros> now_{1'780'000'000LL * kMicrosPerSecond};
};

TEST(Sessions, OpaqueTokensIdleTimeoutAndCookie) {
  StepClock clock;
  Sessions sessions(clock, std::chrono::seconds(900));
  offline::Operator ana;
  ana.name = "ana";
  std::set<std::string> tokens;
  for (int i = 0; i < 50; ++i) tokens.insert(sessions.Open(ana));
  EXPECT_EQ(tokens.size(), 50u);
  const std::string token = *tokens.begin();
  EXPECT_EQ(token.size(), 64u);
  clock.Advance(899);
  ASSERT_TRUE(sessions.Touch(token));  // restarts the idle timer
  clock.Advance(899);
  EXPECT_EQ(sessions.Touch(token)->operator_name, "ana");
  clock.Advance(901);
  EXPECT_FALSE(sessions.Touch(token));
  EXPECT_FALSE(sessions.Touch(token));  // gone for good
  // A screen's background poll does not keep an idle session alive.
  const std::string polled = sessions.Open(ana);
  ASSERT_TRUE(sessions.Touch(polled));
  clock.Advance(600);
  ASSERT_TRUE(sessions.Touch(polled, /*activity=*/false));
  clock.Advance(301);
  EXPECT_FALSE(sessions.Touch(polled, /*activity=*/false));
  const std::string other = *tokens.rbegin();
  sessions.CloseAllOf("ana");
  EXPECT_FALSE(sessions.Touch(other));
  EXPECT_EQ(sessions.Cookie("abc", false), "balcao_session=abc; Path=/; HttpOnly; SameSite=Strict");
  EXPECT_EQ(sessions.Cookie("abc", true), "balcao_session=abc; Path=/; HttpOnly; SameSite=Strict; Secure");
  EXPECT_EQ(Sessions::TokenIn("theme=dark; balcao_session=f00d; x=1"), "f00d");
  EXPECT_EQ(Sessions::TokenIn("balcao_sessionx=1; balcao_session="), "");
  EXPECT_EQ(Sessions::TokenIn(""), "");
}

}  // namespace
}  // namespace balcao::terminal::service
