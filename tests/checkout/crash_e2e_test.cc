// SIGKILL crash tests of whole sales against the in-process sandbox: the driver runs in a
// child process (this binary re-executed, kill_child.h) that kills itself (SIGKILL) right after its k-th journal write
// or bank call, for k = 1, 2, ... until the child finishes undisturbed; a restarted driver then resumes the sale from
// the journal and plays it to the end. Each flow runs twice: as is, and with the sandbox committing the create and the
// reversal PATCH but dropping their answers (commit-then-drop-response). Every run must end as the undisturbed one: the
// same state, the sale's collected amount equal to what the bank kept (entity amount and ledger, to the cent), exactly
// one brcode / invoice / purchase for the sale, the reversal applied once.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/checkout/driver_fixture.h"
#include "tests/checkout/kill_child.h"
#include "tests/testing/status_matchers.h"

namespace balcao::checkout {
namespace {

using e2e::ChildContext;
using e2e::DriverE2E;
using e2e::Json;
using e2e::Play;
using e2e::RegisterChildFlow;
using e2e::Script;
using e2e::StateOf;

struct Flow {
  Script script;
  const char* resource;                  // what the sale creates at the bank (exactly one)
  std::vector<std::string> drop_routes;  // where commit-then-drop-response is injected
};

nlohmann::json ScriptToJson(const Script& s) {
  return {{"method", static_cast<int>(s.method)},
          {"amount", s.amount},
          {"reverse", s.reverse},
          {"cancel", s.cancel},
          {"customer", {s.customer.name, s.customer.tax_id}},
          {"card", s.card},
          {"await_confirmation", s.await_confirmation},
          {"pix_expires_then_invoice", s.pix_expires_then_invoice}};
}

Script ScriptFromJson(const nlohmann::json& j) {
  Script s;
  s.method = static_cast<Method>(j.at("method").get<int>());
  s.amount = j.at("amount").get<Cents>();
  s.reverse = j.at("reverse").get<Cents>();
  s.cancel = j.at("cancel").get<bool>();
  s.customer = {j.at("customer")[0].get<std::string>(), j.at("customer")[1].get<std::string>()};
  s.card = j.at("card").get<std::string>();
  s.await_confirmation = j.at("await_confirmation").get<bool>();
  s.pix_expires_then_invoice = j.at("pix_expires_then_invoice").get<bool>();
  return s;
}

// The killed child's flow (tests/checkout/kill_child.h): the script played from the sale's start.
const bool kScriptFlow = RegisterChildFlow("script", [](Driver& d, const ChildContext& c) {
  const Script script = ScriptFromJson(c.params);
  Intake intake(d, c.bank, c.clock);
  if (d.Open(c.sale_id, script.amount, c.settings).ok()) Play(d, c.sale_id, script, c.payer, c.clock, &intake);
});

class CrashE2E : public DriverE2E {
 protected:
  // Kills the flow at every point, with and without the faults; `points_` gets the number
  // of hook points of each pass.
  void KillEverywhere(const Flow& flow) {
    clock_.SetSpeed(5);  // 1 s polls and retries take 0.2 s
    for (bool drop : {false, true}) {
      int k = 1;
      for (;; ++k) {
        SCOPED_TRACE(std::string(drop ? "commit-then-drop, " : "") + "SIGKILL at hook point " + std::to_string(k));
        if (drop) {
          for (const std::string& route : flow.drop_routes) Fault(route);
        }
        const std::string id = NewSaleId();
        const bool killed = RunChildKilledAt(k, "script", id, ScriptToJson(flow.script));
        auto resumed = driver_->Resume(id);
        ASSERT_OK(resumed);
        Intake intake(*driver_, Bank(), clock_);
        e2e::Play(*driver_, id, flow.script, api(), clock_, &intake);
        CheckLikeUndisturbed(flow, *driver_->Get(id));
        api().Raw("DELETE", "/sandbox/faults");
        if (!killed || k >= 40 || HasFatalFailure()) break;
      }
      points_.push_back(k - 1);
      RecordProperty(drop ? "hook_points_with_drops" : "hook_points", k - 1);
    }
  }

  void CheckLikeUndisturbed(const Flow& flow, const Sale& sale) {
    const Script& s = flow.script;
    if (s.cancel) {
      const auto* voided = std::get_if<Voided>(&sale.state);
      ASSERT_TRUE(voided) << StateOf(sale);
      EXPECT_EQ(voided->operator_id, "op-7") << "the operator who canceled is recorded";
      EXPECT_EQ(voided->reason, "customer changed their mind");
      EXPECT_EQ(sale.collected(), 0);
      ASSERT_EQ(AtBank(flow.resource, sale.id), 1u) << "one " << flow.resource << " per sale";
      EXPECT_EQ(Listed(flow.resource, SaleTag(sale.id))[0]["status"], "canceled");
      EXPECT_EQ(LedgerOf(SaleTag(sale.id)).credits, 0);
      return;
    }
    EXPECT_EQ(StateOf(sale), s.reverse == s.amount ? "Refunded" : "Paid");
    EXPECT_EQ(sale.collected(), s.amount - s.reverse);
    EXPECT_EQ(sale.late_outstanding(), 0);
    ASSERT_EQ(AtBank(flow.resource, sale.id), 1u) << "one " << flow.resource << " per sale; " << StateOf(sale);
    if (s.pix_expires_then_invoice) {
      EXPECT_EQ(AtBank("dynamic-brcode", sale.id), 1u) << "one brcode before the fallback";
      EXPECT_EQ(sale.attempts, 2);
    }
    const Money* line = sale.payment_line();
    ASSERT_NE(line, nullptr);
    // What the bank holds for the kept entity, and its ledger.
    std::string ledger_tag = SaleTag(sale.id);
    Json kept = Listed(flow.resource, SaleTag(sale.id))[0];
    if (line->ref.kind == EntityKind::kDeposit) {
      ledger_tag = BrcodeDepositTag(kept["uuid"].get<std::string>());
      Json deposits = Listed("deposit", ledger_tag);
      ASSERT_EQ(deposits.size(), 1u) << "one deposit for the brcode";
      kept = deposits[0];
    }
    EXPECT_EQ(kept["id"].get<std::string>(), line->ref.id);
    EXPECT_EQ(kept["amount"].get<Cents>(), sale.collected()) << "the bank's amount after reversals";
    // An approved card purchase is credited only at confirmation (30 s of sandbox time
    // later); canceled before that, it never touches the ledger.
    const bool credited = s.method != Method::kCard || s.await_confirmation;
    const Ledger ledger = LedgerOf(ledger_tag);
    EXPECT_EQ(ledger.net, credited ? sale.collected() : 0) << "ledger: paid minus reversals";
    EXPECT_EQ(ledger.credits, credited ? 1 : 0);
    EXPECT_EQ(ledger.debits, credited && s.reverse > 0 ? 1 : 0) << "the reversal applied once";
  }

  api::Bank Bank() {
    auto client = api::Client::FromEnvironment(sandbox().credentials().credentials_path);
    EXPECT_OK(client);
    return api::Bank(*client);
  }

  std::vector<int> points_;
};

TEST_F(CrashE2E, PixSaleAndDepositReversalSurviveSigkillAtEveryPoint) {
  KillEverywhere({{Method::kPix, 1000, 400}, "dynamic-brcode", {"POST /v2/dynamic-brcode", "PATCH /v2/deposit/{id}"}});
  ASSERT_EQ(points_.size(), 2u);
  EXPECT_GE(points_[0], 10);
}

TEST_F(CrashE2E, InvoiceSaleAndAmountLoweringSurviveSigkillAtEveryPoint) {
  KillEverywhere({{Method::kInvoice, 5000, 1500}, "invoice", {"POST /v2/invoice", "PATCH /v2/invoice/{id}"}});
  ASSERT_EQ(points_.size(), 2u);
  EXPECT_GE(points_[0], 10);
}

TEST_F(CrashE2E, PixExpiredThenInvoiceFallbackSurvivesSigkillAtEveryPoint) {
  settings_.pix_expiration_s = 1;
  Script fallback{Method::kPix, 2700};
  fallback.pix_expires_then_invoice = true;
  KillEverywhere({fallback, "invoice", {"POST /v2/dynamic-brcode", "POST /v2/invoice"}});
  ASSERT_EQ(points_.size(), 2u);
  EXPECT_GE(points_[0], 12);
}

TEST_F(CrashE2E, InvoiceCancelSurvivesSigkillAtEveryPoint) {
  Script cancel{Method::kInvoice, 2200};
  cancel.cancel = true;
  KillEverywhere({cancel, "invoice", {"POST /v2/invoice", "PATCH /v2/invoice/{id}"}});
  ASSERT_EQ(points_.size(), 2u);
  EXPECT_GE(points_[0], 6);
}

TEST_F(CrashE2E, ConfirmedCardReversalSurvivesSigkillAtEveryPoint) {
  // The confirmation comes as a bank event, which exists only for a subscribed webhook (the
  // test sandbox plays a bank that sends card events: SandboxOptions::undocumented_subscriptions).
  auto hook = api().Post("/v2/webhook",
                         {{"url", "http://127.0.0.1:9/balcao-webhook"}, {"subscriptions", {"merchant-purchase"}}});
  ASSERT_EQ(hook.status, 200) << hook.body;
  Script reversal{Method::kCard, 6000, 2500};
  reversal.await_confirmation = true;
  KillEverywhere({reversal,
                  "merchant-purchase",
                  {"POST /v2/merchant-session/{uuid}/purchase", "PATCH /v2/merchant-purchase/{id}"}});
  api().Delete("/v2/webhook/" + hook.json["webhook"]["id"].get<std::string>());
  ASSERT_EQ(points_.size(), 2u);
  EXPECT_GE(points_[0], 11);
}

TEST_F(CrashE2E, CardWithThreeDSecureChallengeSurvivesSigkillAtEveryPoint) {
  Script challenged{Method::kCard, 3100};
  challenged.card = "5500000000000004";  // the sandbox asks for a challenge, passed on the phone
  KillEverywhere({challenged, "merchant-purchase", {"POST /v2/merchant-session/{uuid}/purchase"}});
  ASSERT_EQ(points_.size(), 2u);
  EXPECT_GE(points_[0], 8);
}

TEST_F(CrashE2E, CardSaleAndCancelSurviveSigkillAtEveryPoint) {
  KillEverywhere({{Method::kCard, 4321, 4321},
                  "merchant-purchase",
                  {"POST /v2/merchant-session/{uuid}/purchase", "PATCH /v2/merchant-purchase/{id}"}});
  ASSERT_EQ(points_.size(), 2u);
  EXPECT_GE(points_[0], 9);
}

}  // namespace
}  // namespace balcao::checkout
