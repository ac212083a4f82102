// `balcao serve` across its life: the bank's webhook endpoint (a bad signature refused, a good
// one applied), a restart (SIGKILL) with a sale open, and the offline path (the bank
// unreachable: an invoice queued with its provisional receipt, the queue depth shown, card
// and Pix refused with the reason; then the bank back and the invoice issued by the outbox).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
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

TEST(ServeWebhook, RefusesABadSignatureAndAppliesAGoodOne) {
  const auto dir = FreshDir("webhook");
  // No polls: only the bank's events can tell the sale it was paid.
  const std::string config = WriteConfig(dir, {{"checkout", {{"poll_interval_s", 3600}}}});
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config});
  const std::string id = serve.NewSale(1990)["id"].get<std::string>();
  const Json pix = serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}}).json;
  ASSERT_EQ(pix["status"], "pix") << pix.dump();
  ASSERT_EQ(serve.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix, "brcode")}}).status, 200);
  EXPECT_EQ(serve.WaitFor(id, "paid")["collected"], 1990);

  // The delivery the sandbox made to serve's endpoint: its exact body and signature. The
  // event catch-up (a read of the bank's events) may have told the sale first, and the
  // sandbox's workers deliver on their own thread: wait for a delivery serve took.
  Reply deliveries;
  Json delivery;
  ASSERT_TRUE(Eventually([&] {
    deliveries = Http("GET", serve.sandbox() + "/sandbox/webhook-deliveries");
    for (const Json& d : deliveries.json["deliveries"])
      if (d["url"] == serve.url() + "/bank/webhook" && d["lastStatus"] == 200) delivery = d;
    return !delivery.is_null();
  })) << deliveries.body;
  const std::string body = delivery["body"].get<std::string>();
  const std::string signature = delivery["signature"].get<std::string>();
  const std::string url = serve.url() + "/bank/webhook";

  Reply forged =
      Http("POST", url, body,
           {{"Digital-Signature",
             "MEUCIQD0I0bQ1MlJgibrq5VJaKbtdx40dPWfaVrMdxfDsaM8XQIgW7NMJxzp5Nnslz9rC7L5pzXHcRnm2IoFm1x6T3FPEgM="}});
  EXPECT_EQ(forged.status, 401) << forged.body;
  EXPECT_EQ(forged.json["error"]["field"], "Digital-Signature");
  EXPECT_EQ(Http("POST", url, body).status, 401);  // no signature at all
  std::string tampered = body;
  tampered.replace(tampered.find("1990"), 4, "9990");
  EXPECT_EQ(Http("POST", url, tampered, {{"Digital-Signature", signature}}).status, 401);

  // The sandbox's delivery was applied when it came; the same one again is a replay
  // (serve_webhook_test.cc): acknowledged, and nothing done.
  Reply good = Http("POST", url, body, {{"Digital-Signature", signature}});
  EXPECT_EQ(good.status, 200) << good.body;
  EXPECT_EQ(good.json["outcome"], "replayed");
  EXPECT_EQ(good.json["sale"], id);
  EXPECT_EQ(serve.Get("/api/sales/" + id).json["collected"], 1990);
  const Json status = serve.Get("/api/status").json;
  EXPECT_GE(status["webhooks"]["refused"].get<int>(), 3);
  serve.Stop();
}

TEST(ServeRestart, AnOpenSaleIsResumedFromTheJournal) {
  const auto dir = FreshDir("restart");
  ServeProcess serve;
  serve.Start(dir / "data");
  const std::string id = serve.NewSale(4200)["id"].get<std::string>();
  const Json pix = serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}}).json;
  ASSERT_EQ(pix["status"], "pix") << pix.dump();
  serve.Kill();  // a power cut: no clean stop

  serve.Start(dir / "data");
  const Reply resumed = serve.Get("/api/sales/" + id);
  ASSERT_EQ(resumed.status, 200) << resumed.body;
  EXPECT_EQ(resumed.json["status"], "pix") << resumed.body;
  EXPECT_EQ(resumed.json["bank_ids"], pix["bank_ids"]);
  EXPECT_EQ(serve.Get("/api/sales").json["sales"][0]["id"], id);
  // The customer pays the QR they were shown before the restart.
  ASSERT_EQ(serve.Simulate("dynamic-brcode/pay", {{"uuid", BankId(pix, "brcode")}}).status, 200);
  EXPECT_EQ(serve.WaitFor(id, "paid")["collected"], 4200);
  serve.Stop();
}

TEST(ServeOffline, AnInvoiceIsQueuedWhileTheBankIsUnreachableAndIssuedWhenItIsBack) {
  const auto dir = FreshDir("offline");
  auto bank = test_util::StartTestBank(dir / "bank");
  ASSERT_OK(bank);
  const std::string credentials = (*bank)->credentials().credentials_path;
  const std::string config = WriteConfig(dir, {{"connectivity", test_util::FastConnectivity()}});

  const test_util::RefusingLoopbackPort unreachable_bank;
  ServeProcess serve;
  serve.Start(dir / "data", {"--config", config},
              {{"BALCAO_CREDENTIALS", credentials}, {"BALCAO_BANK_URL", unreachable_bank.Url("/v2")}});
  const std::string id = serve.NewSale(15000)["id"].get<std::string>();
  const Reply queued =
      serve.Post("/api/sales/" + id + "/method",
                 {{"method", "invoice"}, {"customer", {{"name", "Maria da Silva"}, {"tax_id", "337.451.076-08"}}}});
  ASSERT_EQ(queued.status, 200) << queued.body;
  EXPECT_EQ(queued.json["status"], "queued") << queued.body;
  ASSERT_FALSE(queued.json["receipts"].empty()) << "the provisional receipt";
  EXPECT_NE(queued.json["receipts"].back().get<std::string>().find(id), std::string::npos)
      << queued.json["receipts"].back();
  Json status;
  ASSERT_TRUE(Eventually([&] {
    status = serve.Get("/api/status").json;
    return !status["online"].get<bool>();
  })) << status.dump();
  EXPECT_EQ(status["queue"]["depth"], 1) << status.dump();
  EXPECT_EQ(status["queue"]["amount_at_risk"], 15000) << status.dump();
  // Card and Pix need the bank now: refused with the reason.
  const std::string other = serve.NewSale(1000)["id"].get<std::string>();
  const Reply card = serve.Post("/api/sales/" + other + "/method", {{"method", "card"}});
  EXPECT_EQ(card.status, 409) << card.body;
  EXPECT_NE(card.body.find("needs the bank now"), std::string::npos) << card.body;
  EXPECT_EQ((*bank)->CountForTest("invoice"), 0);
  serve.Stop();

  // The bank is back: the outbox issues the invoice and the sale leaves the queue.
  serve.Start(dir / "data", {"--config", config}, {{"BALCAO_CREDENTIALS", credentials}});
  const Json issued = serve.WaitFor(id, "pay-later");
  EXPECT_FALSE(issued["link"].get<std::string>().empty()) << issued.dump();
  EXPECT_EQ((*bank)->CountForTest("invoice"), 1);
  ASSERT_TRUE(Eventually([&] {
    status = serve.Get("/api/status").json;
    return status["online"].get<bool>() && status["queue"]["depth"] == 0;
  })) << status.dump();
  serve.Stop();
  (*bank)->Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing

namespace balcao::terminal::testing {
namespace {

// The box boots while a tool (the nightly settlement it catches up on) owns the store: the
// service waits for it instead of failing its start.
TEST(ServeStart, WaitsForAToolThatHoldsTheStore) {
  const auto dir = FreshDir("owner-wait");
  std::filesystem::create_directories(dir / "data");
  const int fd = ::open((dir / "data" / "balcao.db-owner").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  std::thread tool([fd] {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    ::close(fd);  // the tool is done
  });
  const auto started = std::chrono::steady_clock::now();
  ServeProcess serve;
  serve.Start(dir / "data");
  tool.join();
  ASSERT_FALSE(serve.url().empty()) << serve.output();
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));
  EXPECT_EQ(serve.Get("/healthz").status, 200);
  serve.Stop();
}

// serve never dumps core (card numbers pass through its memory): a crash says its signal and
// its stack on stderr, and the process still ends by that signal (terminal/internal/crash_report.h).
TEST(ServeStart, ACrashSaysItsSignalAndStackAndEndsByThatSignal) {
  const auto dir = FreshDir("crash-report");
  int out_fd = -1;
  const pid_t pid = Spawn({BALCAO_CLI, "serve", "--port", "0", "--data-dir", (dir / "data").string()}, dir, {}, out_fd);
  ASSERT_GT(pid, 0);
  std::string output;
  auto read_some = [&](int wait_ms) {
    pollfd p{out_fd, POLLIN, 0};
    if (::poll(&p, 1, wait_ms) <= 0) return true;
    char buffer[4096];
    const ssize_t n = ::read(out_fd, buffer, sizeof buffer);
    if (n > 0) output.append(buffer, static_cast<std::size_t>(n));
    return n > 0;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (output.find("listening on") == std::string::npos && std::chrono::steady_clock::now() < deadline &&
         read_some(100)) {
  }
  EXPECT_NE(output.find("listening on"), std::string::npos) << output;
  ::kill(pid, SIGSEGV);
  while (read_some(60'000)) {  // to the end of its output: it has ended
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ::close(out_fd);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) << "status " << status;
  EXPECT_NE(output.find("balcao serve: fatal signal 11 (SIGSEGV); stack:\n"), std::string::npos) << output;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace balcao::terminal::testing
