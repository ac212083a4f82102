// `balcao serve` driven by a cash register over nexo, end to end: the real executable with its
// embedded sandbox, a register added with `balcao pos add`, and the test client of
// nexo_client.h speaking protected nexo over HTTPS on loopback, trusting only the box's own
// certificate (DATA/tls/cert.pem).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>
#include <future>
#include <regex>
#include <thread>

#include "tests/integration/nexo_client.h"
#include "tests/terminal/serve_fixture.h"

namespace balcao::integration::testing {
namespace {

using terminal::testing::FreshDir;
using terminal::testing::Reply;
using terminal::testing::ServeProcess;
using terminal::testing::WithCardCustomer;

constexpr const char* kApproved = "5277696455399733";  // a sandbox test card: approved without a challenge

// Runs `balcao pos ARGS --data-dir DIR` and returns its stdout.
std::string Pos(const std::string& args, const std::filesystem::path& dir) {
  const std::string command = std::string(BALCAO_CLI) + " pos " + args + " --data-dir '" + dir.string() + "' 2>&1";
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[512];
  while (pipe && std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
  if (pipe) ::pclose(pipe);
  return out;
}

// Runs one SQL statement on the stopped box's store (a crash's leftovers, set up by hand).
void ExecSql(const std::filesystem::path& db, const std::string& sql) {
  sqlite3* handle = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &handle), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(handle);
}

std::string Extra(const Json& body) { return body["Response"].value("AdditionalResponse", ""); }

// The sum of the bank calls of `method` the service made so far (GET /metrics).
long long BankCalls(const ServeProcess& serve, const std::string& method) {
  const Reply metrics = serve.Get("/metrics");
  const std::regex line("balcao_bank_call_duration_seconds_count\\{method=\"" + method + "\"[^}]*\\} ([0-9]+)");
  long long total = 0;
  for (std::sregex_iterator it(metrics.body.begin(), metrics.body.end(), line), end; it != end; ++it)
    total += std::stoll((*it)[1].str());
  return total;
}

class NexoServe : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        FreshDir("balcao-nexo-serve-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    ServeProcess::AddOperators(dir_ / "balcao.db");
    const std::string added = Pos("add POS-1", dir_);
    key_ = Json::parse(added, nullptr, false);
    ASSERT_TRUE(key_.is_object()) << added;
    ASSERT_EQ(key_["keyVersion"], 1);
    ASSERT_GE(key_["passphrase"].get<std::string>().size(), 22u);  // >= 128 bits of base64
  }

  void StartServe(int autopay_s, const std::string& config = "") {
    std::vector<std::string> args = {"--nexo-port", "0", "--sandbox-autopay", std::to_string(autopay_s)};
    if (!config.empty()) {
      const auto path = dir_ / "balcao.conf";
      std::FILE* f = std::fopen(path.c_str(), "w");
      std::fputs(config.c_str(), f);
      std::fclose(f);
      args.push_back("--config");
      args.push_back(path.string());
    }
    serve_.Start(dir_, args);
    std::smatch m;
    const std::string out = serve_.output();
    ASSERT_TRUE(std::regex_search(out, m, std::regex("nexo listening on (https://127\\.0\\.0\\.1:[0-9]+/nexo/)")))
        << out;
    client_url_ = m[1].str();
    client_ = std::make_unique<NexoClient>(client_url_, (dir_ / "tls" / "cert.pem").string(), key_);
  }

  // The sales the touchscreen lists today.
  Json Sales() { return serve_.Get("/api/sales").json["sales"]; }
  std::size_t SaleCount() { return Sales().size(); }

  std::filesystem::path dir_;
  Json key_;
  ServeProcess serve_;
  std::unique_ptr<NexoClient> client_;
  std::string client_url_;
};

TEST_F(NexoServe, PixPaymentPaidByTheSandboxPayerThenRepeatedWithoutASecondBankCall) {
  StartServe(1);
  const std::string request = client_->Payment("1001", "cupom-1", "12.34", "method=pix");
  const NexoAnswer paid = client_->Send(request);
  ASSERT_TRUE(paid.was_protected) << paid.body << paid.error;
  const Json body = Body(paid, "PaymentResponse");
  ASSERT_EQ(body["Response"]["Result"], "Success") << paid.message.dump();
  EXPECT_EQ(body["PaymentResult"]["AmountsResp"]["AuthorizedAmount"].dump(), "12.34");
  EXPECT_EQ(body["SaleData"]["SaleTransactionID"]["TransactionID"], "cupom-1");
  EXPECT_NE(Extra(body).find("tPag=17"), std::string::npos) << Extra(body);
  EXPECT_NE(Extra(body).find("cAut="), std::string::npos) << Extra(body);
  const std::string sale = body["POIData"]["POITransactionID"]["TransactionID"].get<std::string>();
  EXPECT_EQ(serve_.Get("/api/sales/" + sale).json["status"], "paid");
  EXPECT_EQ(serve_.Get("/api/sales/" + sale).json["register"], "POS-1");

  // The same ServiceID again (a register that lost the answer): the first outcome, no new sale,
  // no bank call that creates anything.
  const long long posts = BankCalls(serve_, "POST");
  const std::size_t sales = SaleCount();
  const NexoAnswer again = client_->Send(request);
  const Json repeat = Body(again, "PaymentResponse");
  EXPECT_EQ(repeat["Response"]["Result"], "Success");
  EXPECT_EQ(repeat["POIData"]["POITransactionID"]["TransactionID"], sale);
  EXPECT_EQ(BankCalls(serve_, "POST"), posts);
  EXPECT_EQ(SaleCount(), sales);

  // TransactionStatus names it: the original answer in RepeatedMessageResponse.
  const Json status = Body(client_->Send(client_->TransactionStatus("1002", "1001")), "TransactionStatusResponse");
  EXPECT_EQ(status["Response"]["Result"], "Success") << status.dump();
  EXPECT_EQ(status["RepeatedMessageResponse"]["RepeatedResponseMessageBody"]["PaymentResponse"]["POIData"]
                  ["POITransactionID"]["TransactionID"],
            sale);
  const Json unknown = Body(client_->Send(client_->TransactionStatus("1003", "9999")), "TransactionStatusResponse");
  EXPECT_EQ(unknown["Response"]["ErrorCondition"], "NotFound");

  // Abort after approval changes nothing.
  const NexoAnswer abort = client_->Send(client_->Abort("1004", "1001"));
  EXPECT_EQ(abort.http_status, 200);
  EXPECT_EQ(abort.body, "");
  EXPECT_EQ(serve_.Get("/api/sales/" + sale).json["status"], "paid");

  // Reversal: the money goes back once.
  const Json reversal = Body(client_->Send(client_->Reversal("1005", sale)), "ReversalResponse");
  EXPECT_EQ(reversal["Response"]["Result"], "Success") << reversal.dump();
  EXPECT_EQ(reversal["ReversedAmount"].dump(), "12.34");
  serve_.WaitFor(sale, "refunded");
  const Json twice = Body(client_->Send(client_->Reversal("1005", sale)), "ReversalResponse");
  EXPECT_EQ(twice["Response"]["Result"], "Success");
  const Json other = Body(client_->Send(client_->Reversal("1006", sale)), "ReversalResponse");
  EXPECT_EQ(other["Response"]["Result"], "Failure");
  EXPECT_EQ(other["Response"]["ErrorCondition"], "NotAllowed");
}

TEST_F(NexoServe, CardPaymentInThreeInstallmentsThroughTheBoxCardForm) {
  StartServe(0);
  auto pending = std::async(std::launch::async, [this] {
    return client_->Send(client_->Payment("2001", "cupom-2", "300.00", "method=card", 3));
  });
  // The card form on the box's screen, as the touchscreen posts it.
  std::string sale;
  for (int i = 0; i < 100 && sale.empty(); ++i) {
    for (const Json& view : Sales())
      if (view.value("register", "") == "POS-1" && view.value("status", "") == "enter-card")
        sale = view["id"].get<std::string>();
    if (sale.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_FALSE(sale.empty()) << serve_.Get("/api/sales").body;
  EXPECT_EQ(serve_.Get("/api/sales/" + sale).json["installments"], 3);
  const Reply card = serve_.Post("/api/sales/" + sale + "/card", WithCardCustomer({{"number", kApproved},
                                                                                   {"expiry", "12/34"},
                                                                                   {"security_code", "737"},
                                                                                   {"holder_name", "MARIA SOUZA"},
                                                                                   {"installments", 3}}));
  ASSERT_EQ(card.status, 200) << card.body;
  const NexoAnswer paid = pending.get();
  const Json body = Body(paid, "PaymentResponse");
  ASSERT_EQ(body["Response"]["Result"], "Success") << paid.message.dump();
  EXPECT_EQ(body["PaymentResult"]["InstalmentType"]["TotalNbOfPayments"], 3);
  EXPECT_EQ(body["PaymentResult"]["PaymentInstrumentData"]["CardData"]["MaskedPan"], "527769******9733");
  EXPECT_EQ(body["PaymentResult"]["PaymentInstrumentData"]["CardData"]["PaymentBrand"], "mastercard");
  EXPECT_NE(Extra(body).find("tPag=03"), std::string::npos) << Extra(body);
  EXPECT_NE(Extra(body).find("tBand=02"), std::string::npos) << Extra(body);
  EXPECT_NE(Extra(body).find("cAut="), std::string::npos) << Extra(body);
  EXPECT_FALSE(body["PaymentReceipt"].empty());
}

TEST_F(NexoServe, BusyWhileAPaymentRunsAndAbortBeforeApproval) {
  StartServe(0);
  auto first = std::async(std::launch::async,
                          [this] { return client_->Send(client_->Payment("3001", "cupom-3", "5.00", "method=pix")); });
  std::string sale;
  for (int i = 0; i < 100 && sale.empty(); ++i) {
    for (const Json& view : Sales())
      if (view.value("status", "") == "pix") sale = view["id"].get<std::string>();
    if (sale.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_FALSE(sale.empty());
  const Json busy = Body(client_->Send(client_->Payment("3002", "cupom-4", "7.00", "method=pix")), "PaymentResponse");
  EXPECT_EQ(busy["Response"]["ErrorCondition"], "Busy") << busy.dump();
  const Json running = Body(client_->Send(client_->TransactionStatus("3003", "3001")), "TransactionStatusResponse");
  EXPECT_EQ(running["Response"]["ErrorCondition"], "InProgress") << running.dump();

  EXPECT_EQ(client_->Send(client_->Abort("3004", "3001")).http_status, 200);
  const Json aborted = Body(first.get(), "PaymentResponse");
  EXPECT_EQ(aborted["Response"]["Result"], "Failure") << aborted.dump();
  EXPECT_EQ(aborted["Response"]["ErrorCondition"], "Aborted");
  EXPECT_EQ(serve_.Get("/api/sales/" + sale).json["status"], "voided");
  const Json status = Body(client_->Send(client_->TransactionStatus("3005", "3001")), "TransactionStatusResponse");
  EXPECT_EQ(
      status["RepeatedMessageResponse"]["RepeatedResponseMessageBody"]["PaymentResponse"]["Response"]["ErrorCondition"],
      "Aborted");
}

TEST_F(NexoServe, ALostAnswerIsFoundByTransactionStatusAfterTheServiceWasKilled) {
  StartServe(0);
  // The register gives up waiting (its answer is lost) while the customer pays.
  auto lost = std::async(std::launch::async, [this] {
    return client_->Send(client_->Payment("4001", "cupom-5", "9.99", "method=pix"), /*timeout_s=*/3);
  });
  std::string uuid, sale;
  for (int i = 0; i < 100 && sale.empty(); ++i) {
    for (const Json& view : Sales())
      if (view.value("status", "") == "pix") sale = view["id"].get<std::string>();
    if (sale.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_FALSE(sale.empty());
  EXPECT_EQ(lost.get().http_status, 0);  // timed out: nothing reached the register
  const std::string brcode = terminal::testing::BankId(serve_.Get("/api/sales/" + sale).json, "brcode");
  ASSERT_EQ(serve_.Simulate("dynamic-brcode/pay", {{"uuid", brcode}, {"name", "Cliente"}}).status, 200);
  serve_.Kill();  // right after the bank's approval

  StartServe(0);
  Json status;
  for (int i = 0; i < 100; ++i) {
    status = Body(client_->Send(client_->TransactionStatus("4002-" + std::to_string(i), "4001")),
                  "TransactionStatusResponse");
    if (status["Response"]["Result"] == "Success") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_EQ(status["Response"]["Result"], "Success") << status.dump();
  const Json original = status["RepeatedMessageResponse"]["RepeatedResponseMessageBody"]["PaymentResponse"];
  EXPECT_EQ(original["Response"]["Result"], "Success");
  EXPECT_EQ(original["POIData"]["POITransactionID"]["TransactionID"], sale);
  EXPECT_EQ(original["PaymentResult"]["AmountsResp"]["AuthorizedAmount"].dump(), "9.99");

  // Killed once more, as if between the journal's approval and the outcome's record: the
  // request row without its outcome. The restart reads the sale's end from its journal.
  serve_.Kill();
  ExecSql(dir_ / "balcao.db", "UPDATE register_requests SET outcome = '', finished_at = 0 WHERE service_id = '4001'");
  StartServe(0);
  Json again;
  for (int i = 0; i < 100; ++i) {
    again = Body(client_->Send(client_->TransactionStatus("4100-" + std::to_string(i), "4001")),
                 "TransactionStatusResponse");
    if (again["Response"]["Result"] == "Success") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_EQ(again["Response"]["Result"], "Success") << again.dump();
  EXPECT_EQ(again["RepeatedMessageResponse"]["RepeatedResponseMessageBody"]["PaymentResponse"]["POIData"]
                 ["POITransactionID"]["TransactionID"],
            sale);
  EXPECT_EQ(SaleCount(), 1u);
}

TEST_F(NexoServe, UnprotectedFromLoopbackWhenAllowedChunkedAndInProgressAfterTheResponseTimeout) {
  StartServe(0, R"({"nexo": {"allow_plain_loopback": true, "response_timeout_s": 5}})");
  // Plain (no SecurityTrailer), chunked, from loopback: taken; the Pix QR is not paid in time.
  const auto started = std::chrono::steady_clock::now();
  const std::string payment = client_->Payment("7001", "cupom-7", "3.50", "method=pix");
  const Reply slow = terminal::testing::Http("POST", client_url_, payment, {{"Transfer-Encoding", "chunked"}},
                                             (dir_ / "tls" / "cert.pem").string());
  const Json answer = Json::parse(slow.body, nullptr, false);
  const Json body = answer["SaleToPOIResponse"]["PaymentResponse"];
  EXPECT_EQ(body["Response"]["ErrorCondition"], "InProgress") << slow.body;
  // The service times the 5 s on the bank's clock (ADR 0005), whose offset it corrects from
  // every bank answer meanwhile: measured here on the steady clock, with a second's margin.
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::seconds(4));
  const std::string sale = body["POIData"]["POITransactionID"]["TransactionID"].get<std::string>();
  EXPECT_EQ(serve_.Get("/api/sales/" + sale).json["status"], "pix");
  // The sale goes on: paid later, and the status lookup finds the outcome.
  const std::string brcode = terminal::testing::BankId(serve_.Get("/api/sales/" + sale).json, "brcode");
  ASSERT_EQ(serve_.Simulate("dynamic-brcode/pay", {{"uuid", brcode}, {"name", "Cliente"}}).status, 200);
  serve_.WaitFor(sale, "paid");
  const NexoAnswer status = client_->Post(client_->TransactionStatus("7002", "7001"));
  EXPECT_FALSE(status.was_protected);
  EXPECT_EQ(Body(status, "TransactionStatusResponse")["Response"]["Result"], "Success") << status.body;
}

TEST_F(NexoServe, WrongHmacUnknownKeyReplayedNonceAndABadAmountAreRefusedWithNothingChanged) {
  StartServe(0);
  const std::size_t sales = SaleCount();
  auto rejected = [](const NexoAnswer& answer) {
    return answer.message.is_object() && answer.message.contains("SaleToPOIRequest") &&
           answer.message["SaleToPOIRequest"]["EventNotification"]["EventToNotify"] == "Reject";
  };
  // A wrong HMAC: the message re-sealed under another passphrase, announced with this key.
  NexoClient forger = *client_;
  forger.keys = nexo::DeriveKeys("not the passphrase");
  EXPECT_TRUE(rejected(forger.Send(client_->Payment("5001", "c", "1.00", "method=pix"))));
  // An unknown KeyIdentifier.
  NexoClient stranger = *client_;
  stranger.key_identifier = "pos-NOBODY";
  EXPECT_TRUE(rejected(stranger.Send(client_->Payment("5002", "c", "1.00", "method=pix"))));
  // A replayed message: the same protected bytes twice (the first is a status lookup).
  const std::string sealed = client_->Protect(client_->TransactionStatus("5003", "none"));
  EXPECT_FALSE(rejected(client_->Post(sealed)));
  EXPECT_TRUE(rejected(client_->Post(sealed)));
  // 12.345 reais.
  const NexoAnswer bad = client_->Send(client_->Payment("5004", "c", "12.345", "method=pix"));
  ASSERT_TRUE(rejected(bad)) << bad.body;
  EXPECT_NE(
      bad.message["SaleToPOIRequest"]["EventNotification"]["EventDetails"].get<std::string>().find("RequestedAmount"),
      std::string::npos);
  // A disabled register.
  EXPECT_NE(Pos("disable POS-1", dir_).find("disabled"), std::string::npos);
  EXPECT_TRUE(rejected(client_->Send(client_->Payment("5005", "c", "1.00", "method=pix"))));
  EXPECT_EQ(SaleCount(), sales);
  // Unprotected from loopback without nexo.allow_plain_loopback.
  EXPECT_TRUE(rejected(client_->Post(client_->Payment("5006", "c", "1.00", "method=pix"))));
  EXPECT_EQ(SaleCount(), sales);
}

TEST_F(NexoServe, RotatedKeysWorkAndTheOldOneStaysForItsGrace) {
  const std::string rotated = Pos("rotate POS-1", dir_);
  const Json next = Json::parse(rotated, nullptr, false);
  ASSERT_TRUE(next.is_object()) << rotated;
  EXPECT_EQ(next["keyVersion"], 2);
  EXPECT_NE(next["passphrase"], key_["passphrase"]);
  StartServe(0);
  const std::string url =
      std::regex_replace(serve_.output(), std::regex("[\\s\\S]*nexo listening on (\\S+)[\\s\\S]*"), "$1");
  NexoClient v2(url, (dir_ / "tls" / "cert.pem").string(), next);
  const Json with_new = Body(v2.Send(v2.TransactionStatus("6001", "none")), "TransactionStatusResponse");
  EXPECT_EQ(with_new["Response"]["ErrorCondition"], "NotFound");
  const Json with_old = Body(client_->Send(client_->TransactionStatus("6002", "none")), "TransactionStatusResponse");
  EXPECT_EQ(with_old["Response"]["ErrorCondition"], "NotFound");
  const std::string list = Pos("list", dir_);
  EXPECT_NE(list.find("retired"), std::string::npos) << list;
  EXPECT_NE(list.find("current"), std::string::npos) << list;
}

TEST_F(NexoServe, AReversalWaitsForASupervisorOnTheScreenWhenTheConfigAsks) {
  StartServe(1, R"({"nexo": {"reversal_needs_supervisor": true}})");
  const Json paid = Body(client_->Send(client_->Payment("8001", "cupom-8", "20.00", "method=pix")), "PaymentResponse");
  ASSERT_EQ(paid["Response"]["Result"], "Success") << paid.dump();
  const std::string sale = paid["POIData"]["POITransactionID"]["TransactionID"].get<std::string>();
  auto reversal =
      std::async(std::launch::async, [this, sale] { return client_->Send(client_->Reversal("8002", sale)); });
  Json view = Json::object();
  for (int i = 0; i < 100 && view.value("reversal_requested", 0) == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    view = serve_.Get("/api/sales/" + sale).json;
  }
  ASSERT_EQ(view["reversal_requested"], 2000) << view.dump();
  EXPECT_EQ(view["status"], "paid");  // nothing went back yet
  // A wrong PIN changes nothing; the supervisor's sends the money back.
  Json wrong = {{"reason", "cliente desistiu"},
                {"approval", {{"supervisor", terminal::testing::kSupervisor}, {"pin", "000000"}}}};
  EXPECT_EQ(serve_.Post("/api/sales/" + sale + "/approve-reversal", wrong).status, 403);
  EXPECT_EQ(serve_.Get("/api/sales/" + sale).json["status"], "paid");
  const Reply approved =
      serve_.Post("/api/sales/" + sale + "/approve-reversal", ServeProcess::Approved({{"reason", "cliente desistiu"}}));
  ASSERT_EQ(approved.status, 200) << approved.body;
  const Json answer = Body(reversal.get(), "ReversalResponse");
  EXPECT_EQ(answer["Response"]["Result"], "Success") << answer.dump();
  serve_.WaitFor(sale, "refunded");
  EXPECT_EQ(serve_.Get("/api/sales/" + sale).json["reversal_requested"], 0);
}

TEST_F(NexoServe, TheBoxCertificateCarriesTheConfiguredCommonName) {
  // Adyen's client libraries, given a terminal certificate, also want its CN to be a terminal's.
  const std::string cn = "legacy-terminal-certificate.test.terminal.adyen.com";
  StartServe(0, R"({"nexo": {"certificate_common_name": ")" + cn + R"("}})");
  const std::string subject = [&] {
    std::string out;
    FILE* pipe =
        ::popen(("openssl x509 -noout -subject -in '" + (dir_ / "tls" / "cert.pem").string() + "'").c_str(), "r");
    char buffer[512];
    while (pipe && std::fgets(buffer, sizeof buffer, pipe)) out += buffer;
    if (pipe) ::pclose(pipe);
    return out;
  }();
  EXPECT_NE(subject.find("CN = " + cn), std::string::npos) << subject;
  // Still verified by address (its SAN): the register's requests go through.
  const Json status = Body(client_->Send(client_->TransactionStatus("9001", "none")), "TransactionStatusResponse");
  EXPECT_EQ(status["Response"]["ErrorCondition"], "NotFound") << status.dump();
}

}  // namespace
}  // namespace balcao::integration::testing
