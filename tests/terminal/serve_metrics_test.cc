// `balcao serve`'s probes and metrics over real HTTP: /metrics after a Pix sale paid, a card
// sale approved and an invoice queued while the bank is unreachable, read back by the
// reference Prometheus text parser (Debian's python3-prometheus-client, run by
// /usr/bin/python3 on tests/terminal/prometheus_parse.py); /healthz and /readyz, which names
// the store when the data dir is read-only and the printer when the last receipt failed; the
// counters of a lost bank answer resolved and of a webhook rejected.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <optional>
#include <regex>
#include <thread>

#include "sandbox/sandbox.h"
#include "tests/terminal/serve_fixture.h"
#include "tests/testing/config_file.h"
#include "tests/testing/eventually.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/test_bank.h"

namespace balcao::terminal::testing {
namespace {

using test_util::Eventually;
using test_util::WriteConfig;

constexpr const char* kApproved = "5277696455399733";  // an SDK test card: approved

// The exposition as prometheus_client understood it (the JSON of prometheus_parse.py).
class Parsed {
 public:
  static Parsed Of(const std::string& exposition, const std::filesystem::path& scratch) {
    const std::string file = (scratch / "metrics.txt").string();
    std::ofstream(file) << exposition;
    const std::string command =
        "/usr/bin/python3 " BALCAO_SOURCE_DIR "/tests/terminal/prometheus_parse.py '" + file + "' 2>&1";
    std::string out;
    FILE* pipe = ::popen(command.c_str(), "r");
    char buffer[4096];
    for (std::size_t n; pipe && (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    const int status = pipe ? ::pclose(pipe) : -1;
    Parsed parsed;
    parsed.families_ = Json::parse(out, nullptr, false);
    EXPECT_EQ(status, 0) << "prometheus_client refused the exposition:\n" << out << "\n---\n" << exposition;
    EXPECT_TRUE(parsed.families_.is_array()) << out;
    return parsed;
  }
  // The family's type ("counter", "gauge", "histogram"); "" when absent. Counter families
  // are named without their "_total".
  std::string TypeOf(const std::string& family) const {
    for (const Json& f : families_)
      if (f["name"] == family) return f["type"].get<std::string>();
    return "";
  }
  // The value of the sample `name` whose labels include `labels`; nullopt when none.
  std::optional<double> Value(const std::string& name, const std::map<std::string, std::string>& labels = {}) const {
    for (const Json& sample : Samples(name)) {
      bool match = true;
      for (const auto& [k, v] : labels) match = match && sample["labels"].value(k, "") == v;
      if (match) return sample["value"].get<double>();
    }
    return std::nullopt;
  }
  std::vector<Json> Samples(const std::string& name) const {
    std::vector<Json> out;
    if (!families_.is_array()) return out;
    for (const Json& f : families_)
      for (const Json& sample : f["samples"])
        if (sample["name"] == name) out.push_back(sample);
    return out;
  }

 private:
  Json families_;
};

TEST(ServeMetrics, SalesQueueAndBankCallsReadByTheReferenceParser) {
  const auto dir = FreshDir("metrics");
  // The bank lives in the test, so the test can take it away mid-run.
  auto bank = test_util::StartTestBank(dir / "bank");
  ASSERT_OK(bank);
  const std::string payer = "http://127.0.0.1:" + std::to_string((*bank)->port());
  const std::string config =
      WriteConfig(dir, {{"checkout", {{"poll_interval_s", 1}}}, {"connectivity", test_util::FastConnectivity()}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config}, {{"BALCAO_CREDENTIALS", (*bank)->credentials().credentials_path}});

  // A Pix sale the customer pays, and a card sale approved in 3 installments.
  const std::string pix_id = serve.NewSale(2590)["id"].get<std::string>();
  const Json pix = serve.Post("/api/sales/" + pix_id + "/method", {{"method", "pix"}}).json;
  ASSERT_EQ(pix["status"], "pix") << pix.dump();
  ASSERT_EQ(Http("POST", payer + "/sandbox/dynamic-brcode/pay",
                 Json{{"uuid", BankId(pix, "brcode")}, {"name", "Cliente"}}.dump())
                .status,
            200);
  EXPECT_EQ(serve.WaitFor(pix_id, "paid")["collected"], 2590);
  const std::string card_id = serve.NewSale(12000)["id"].get<std::string>();
  ASSERT_EQ(serve.Post("/api/sales/" + card_id + "/method", {{"method", "card"}}).json["status"], "enter-card");
  const Reply card = serve.Post("/api/sales/" + card_id + "/card", WithCardCustomer({{"number", kApproved},
                                                                                     {"expiry", "12/34"},
                                                                                     {"security_code", "737"},
                                                                                     {"holder_name", "MARIA SOUZA"},
                                                                                     {"installments", 3}}));
  ASSERT_EQ(card.json["status"], "paid") << card.body;

  // The bank goes away (destroyed: its port refuses, its keep-alive connections are closed):
  // an invoice is queued in the outbox.
  bank->reset();
  const std::string invoice_id = serve.NewSale(15000)["id"].get<std::string>();
  const Reply queued =
      serve.Post("/api/sales/" + invoice_id + "/method",
                 {{"method", "invoice"}, {"customer", {{"name", "Maria da Silva"}, {"tax_id", "337.451.076-08"}}}});
  ASSERT_EQ(queued.json["status"], "queued") << queued.body;
  Json status;
  ASSERT_TRUE(Eventually([&] {
    status = serve.Get("/api/status").json;
    return !status["online"].get<bool>();
  })) << status.dump();

  // Offline with the outbox taking requests is still ready.
  const Reply ready = serve.Get("/readyz");
  EXPECT_EQ(ready.status, 200) << ready.body;
  EXPECT_EQ(ready.json["checks"]["bank"]["detail"].get<std::string>().rfind("offline", 0), 0u) << ready.body;

  const Reply scraped = serve.Get("/metrics");
  ASSERT_EQ(scraped.status, 200);
  EXPECT_EQ(scraped.content_type, "text/plain; version=0.0.4; charset=utf-8");
  const Parsed m = Parsed::Of(scraped.body, dir);

  // Today's sales by method and status, and what they collected.
  EXPECT_EQ(m.TypeOf("balcao_sales_today"), "gauge");
  EXPECT_EQ(m.Value("balcao_sales_today", {{"method", "pix"}, {"status", "paid"}}), 1);
  EXPECT_EQ(m.Value("balcao_sales_today", {{"method", "card"}, {"status", "paid"}}), 1);
  EXPECT_EQ(m.Value("balcao_sales_today", {{"method", "invoice"}, {"status", "queued"}}), 1);
  EXPECT_EQ(m.Value("balcao_sales_today_collected_cents", {{"method", "pix"}}), 2590);
  EXPECT_EQ(m.Value("balcao_sales_today_collected_cents", {{"method", "card"}}), 12000);
  EXPECT_EQ(m.Value("balcao_sales_today_collected_cents", {{"method", "invoice"}}), 0);

  // The queue.
  ASSERT_TRUE(m.Value("balcao_outbox_depth").has_value()) << scraped.body;
  EXPECT_GE(*m.Value("balcao_outbox_depth"), 1);
  ASSERT_TRUE(m.Value("balcao_outbox_oldest_age_seconds").has_value());
  EXPECT_GE(*m.Value("balcao_outbox_oldest_age_seconds"), 0);
  EXPECT_EQ(m.Value("balcao_outbox_amount_at_risk_cents"), 15000);
  EXPECT_EQ(m.Value("balcao_bank_online"), 0);
  EXPECT_EQ(m.Value("balcao_metrics_store_errors"), 0);

  // Bank calls by endpoint template and outcome: the purchase went through, the invoice
  // create was not sent; a route never carries an id.
  EXPECT_EQ(m.TypeOf("balcao_bank_call_duration_seconds"), "histogram");
  EXPECT_GE(m.Value("balcao_bank_call_duration_seconds_count",
                    {{"method", "POST"}, {"route", "/v2/merchant-session/{uuid}/purchase"}, {"outcome", "ok"}})
                .value_or(0),
            1);
  EXPECT_GE(m.Value("balcao_bank_call_duration_seconds_count",
                    {{"method", "POST"}, {"route", "/v2/dynamic-brcode"}, {"outcome", "ok"}})
                .value_or(0),
            1);
  EXPECT_GE(m.Value("balcao_bank_call_duration_seconds_count",
                    {{"method", "POST"}, {"route", "/v2/invoice"}, {"outcome", "not_sent"}})
                .value_or(0),
            1);
  const std::vector<Json> counts = m.Samples("balcao_bank_call_duration_seconds_count");
  ASSERT_FALSE(counts.empty());
  for (const Json& count : counts) {
    const std::string route = count["labels"]["route"].get<std::string>();
    EXPECT_FALSE(std::regex_search(route, std::regex(R"(/[0-9a-f]{8,})"))) << "an id in a route label: " << route;
    Json inf = count["labels"];
    inf["le"] = "+Inf";
    std::map<std::string, std::string> labels;
    for (const auto& [k, v] : inf.items()) labels[k] = v.get<std::string>();
    EXPECT_EQ(m.Value("balcao_bank_call_duration_seconds_bucket", labels), count["value"].get<double>()) << route;
  }

  // The counters exist from the start; the receipts printed to the file printer.
  EXPECT_EQ(m.TypeOf("balcao_unknown_outcomes_resolved"), "counter");
  EXPECT_EQ(m.TypeOf("balcao_webhook_deliveries"), "counter");
  EXPECT_EQ(m.Value("balcao_webhook_deliveries_total", {{"result", "rejected"}}), 0);
  EXPECT_GE(m.Value("balcao_print_jobs", {{"state", "printed"}}).value_or(0), 2);
  EXPECT_EQ(m.Value("balcao_print_jobs", {{"state", "failed"}}), 0);
  EXPECT_EQ(m.Value("balcao_settlement_last_run_timestamp_seconds"), 0);  // never settled
  serve.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

TEST(ServeReadiness, NamesTheStoreWhileTheDataDirIsReadOnly) {
  const auto dir = FreshDir("readyz-store");
  const auto data = dir / "data";
  // Root ignores permission bits (CAP_DAC_OVERRIDE): as root, serve runs with that
  // capability and CAP_DAC_READ_SEARCH dropped from its bounding set, so the bits bind it
  // as they bind the service user a box runs it as.
  std::vector<std::string> launcher;
  if (::geteuid() == 0) launcher = {"/usr/bin/setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"};
  ServeProcess serve;
  serve.Start(data, {}, {}, launcher);
  const Reply health = serve.Get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.json, Json({{"status", "ok"}}));
  Reply ready = serve.Get("/readyz");
  ASSERT_EQ(ready.status, 200) << ready.body;
  EXPECT_EQ(ready.json["status"], "ready");
  EXPECT_EQ(ready.json["failing"], Json::array());
  for (const char* check : {"store", "bank", "printer"}) EXPECT_TRUE(ready.json["checks"][check]["ok"].get<bool>());

  ASSERT_EQ(::chmod(data.c_str(), 0500), 0);
  ready = serve.Get("/readyz");
  EXPECT_EQ(ready.status, 503) << ready.body;
  EXPECT_EQ(ready.json["status"], "not-ready");
  EXPECT_EQ(ready.json["failing"], Json::array({"store"})) << ready.body;
  const std::string reason = ready.json["checks"]["store"]["reason"].get<std::string>();
  EXPECT_NE(reason.find("cannot create a file in " + data.string()), std::string::npos) << reason;
  EXPECT_NE(reason.find("Permission denied"), std::string::npos) << reason;
  EXPECT_EQ(serve.Get("/healthz").status, 200);  // alive, just not ready

  ASSERT_EQ(::chmod(data.c_str(), 0700), 0);
  EXPECT_EQ(serve.Get("/readyz").status, 200);
  serve.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

// A printer that refuses, a bank answer lost (the sandbox commits the brcode and drops the
// connection: the driver's lookup finds it) and a webhook without a signature.
TEST(ServeReadiness, NamesThePrinterWhenTheLastReceiptFailed) {
  const auto dir = FreshDir("readyz-printer");
  const test_util::RefusingLoopbackPort unreachable_printer;
  ServeProcess serve;
  serve.Start(dir / "data", {"--printer", "tcp://127.0.0.1:" + std::to_string(unreachable_printer.port())});
  ASSERT_EQ(Http("POST", serve.sandbox() + "/sandbox/faults",
                 Json{{"POST /v2/dynamic-brcode", {"commit-then-drop-response"}}}.dump())
                .status,
            200);
  const std::string id = serve.NewSale(990)["id"].get<std::string>();
  const Json pix = serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}}).json;
  ASSERT_EQ(pix["status"], "pix") << pix.dump();
  ASSERT_EQ(serve.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix, "brcode")}}).status, 200);
  serve.WaitFor(id, "paid");
  EXPECT_EQ(Http("POST", serve.url() + "/bank/webhook", R"({"event":{}})").status, 401);  // no signature

  Reply ready;
  ASSERT_TRUE(Eventually([&] {
    ready = serve.Get("/readyz");
    return ready.status == 503;
  })) << ready.body;
  EXPECT_EQ(ready.json["failing"], Json::array({"printer"})) << ready.body;
  EXPECT_NE(ready.json["checks"]["printer"]["reason"].get<std::string>().find("the last print job failed"),
            std::string::npos)
      << ready.body;

  // The sandbox's own delivery may land after the driver's lookup already saw the sale paid
  // (then it is acknowledged as "ignored" or "replayed", not "applied"), and it may land after
  // the screen turned: wait until it was heard at all.
  const auto acknowledged = [](const Parsed& m) {
    double heard = 0;
    for (const char* result : {"applied", "ignored", "replayed"})
      heard += m.Value("balcao_webhook_deliveries_total", {{"result", result}}).value_or(0);
    return heard;
  };
  Parsed m = Parsed::Of(serve.Get("/metrics").body, dir);
  EXPECT_TRUE(Eventually([&] {
    m = Parsed::Of(serve.Get("/metrics").body, dir);
    return acknowledged(m) >= 1;
  })) << "the sandbox's webhook was never acknowledged";
  EXPECT_GE(m.Value("balcao_print_jobs", {{"state", "failed"}}).value_or(0), 1);
  EXPECT_EQ(m.Value("balcao_webhook_deliveries_total", {{"result", "rejected"}}), 1);
  EXPECT_EQ(m.Value("balcao_unknown_outcomes_resolved_total", {{"where", "checkout"}, {"result", "found"}}), 1);
  EXPECT_EQ(m.Value("balcao_unknown_outcomes_resolved_total", {{"where", "checkout"}, {"result", "absent"}}), 0);
  EXPECT_GE(m.Value("balcao_bank_call_duration_seconds_count",
                    {{"method", "POST"}, {"route", "/v2/dynamic-brcode"}, {"outcome", "unknown"}})
                .value_or(0),
            1);
  serve.Stop();
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace balcao::terminal::testing
