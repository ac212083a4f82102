// The service's pure pieces, without a process: the config file (each bad key refused by
// name), the sale book's day index (a torn or foreign line skipped, days in Brasília time),
// the QR SVG, drawn back into pixels and decoded with zbarimg, the metric families, and
// whether the listener is TLS (and under which names).
// Labelled `sanitize`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "checkout/journal_codec.h"
#include "checkout/types.h"
#include "offline/journal.h"
#include "offline/settlement_records.h"
#include "offline/store.h"
#include "terminal/service/config.h"
#include "terminal/service/json_body.h"
#include "terminal/service/lane_identity.h"
#include "terminal/service/listener_tls.h"
#include "terminal/service/sale_book.h"
#include "terminal/service/service.h"
#include "terminal/service/service_metrics.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::terminal::service {
namespace {

std::filesystem::path Temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("balcao-serve-unit-" + name + "-" + std::to_string(::getpid()));
}

StatusOr<ServeConfig> ConfigFrom(const std::string& text) {
  const auto path = Temp("config.json");
  std::ofstream(path) << text;
  auto config = LoadServeConfig(path.string());
  std::filesystem::remove(path);
  return config;
}

TEST(ServeConfig, DefaultsWithoutAFile) {
  auto config = LoadServeConfig("");
  ASSERT_OK(config);
  EXPECT_EQ(config->settings.installments.max_count, 12);
  EXPECT_EQ(config->printer_profile, "80mm");
  EXPECT_EQ(config->catch_up_interval_s, 60);
  EXPECT_EQ(config->webhook_retention_days, 7);
}

TEST(ServeConfig, ReadsEveryPart) {
  auto config = ConfigFrom(R"({"merchant": {"name": "PADARIA", "cnpj": "11222333000181"},
      "checkout": {"max_installments": 6, "pix_expiration_s": 300, "challenge_enabled": false},
      "printer": {"target": "tcp://10.0.0.5:9100", "profile": "58mm"},
      "connectivity": {"online_interval_ms": 5000}, "catch_up_interval_s": 30,
      "security": {"webhook_retention_days": 14}})");
  ASSERT_OK(config);
  EXPECT_EQ(config->store.merchant.name, "PADARIA");
  EXPECT_EQ(config->settings.installments.max_count, 6);
  EXPECT_EQ(config->settings.pix_expiration_s, 300);
  EXPECT_FALSE(config->settings.challenge_enabled);
  EXPECT_EQ(config->printer, "tcp://10.0.0.5:9100");
  EXPECT_EQ(config->connectivity.online_interval.count(), 5000);
  EXPECT_EQ(config->catch_up_interval_s, 30);
  EXPECT_EQ(config->webhook_retention_days, 14);
}

TEST(ServeConfig, RefusesBadKeysByName) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"checkout": {"max_installments": 0}})", "checkout.max_installments: must be a whole number from 1 to 24"},
      {R"({"checkout": {"max_installments": "12"}})", "checkout.max_installments: must be a whole number"},
      {R"({"checkout": {"pix_expiry": 600}})", "checkout.pix_expiry: unknown key"},
      {R"({"merchant": {"name": 7}})", "merchant.name: must be a string"},
      {R"({"merchant": "PADARIA"})", "merchant: must be an object"},
      {R"({"checkout": {"challenge_enabled": 1}})", "checkout.challenge_enabled: must be true or false"},
      {R"({"connectivity": {"online_interval_ms": 1}})", "connectivity.online_interval_ms: must be a whole number"},
      {R"({"printers": {}})", "printers: unknown key"},
      {R"({"security": {"webhook_retention_days": 0}})",
       "security.webhook_retention_days: must be a whole number from 1 to 365"},
      {R"({"tef_dial": {"method": "cash"}})", "tef_dial.method: pix, card or ask"},
      {R"({"tef_dial": {"unresolved": "keep"}})", "tef_dial.unresolved: undo or confirm"},
      {R"({"tef_dial": {"unresolved_after_s": 0}})", "tef_dial.unresolved_after_s: must be a whole number from 1"},
      {R"({"tef_dial": {"folder": "/srv/tef"}})", "tef_dial.folder: unknown key"},
      {R"([1, 2])", "must be an object"},
      // nlohmann would keep the last of two: a setting written twice is refused, named.
      {R"({"catch_up_interval_s": 30, /* later */ "catch_up_interval_s": 60})", "catch_up_interval_s: given twice in"},
      {R"({"merchant": {"name": "A", "cnpj": "1", "name": "B"}})", "merchant.name: given twice in"},
      {R"({"clock_offset_warn_s": 0})", "clock_offset_warn_s: must be a whole number from 1 to 86400"},
      {R"({"disk_free_floor_mb": -1})", "disk_free_floor_mb: must be a whole number from 0 to 1048576"},
      {R"({"checkout": )", "not valid JSON"},
  };
  for (const auto& [text, expected] : cases) {
    auto config = ConfigFrom(text);
    ASSERT_THAT(config, Not(IsOk())) << text;
    EXPECT_THAT(config, StatusIs(StatusCode::kInvalidArgument)) << text;
    EXPECT_NE(config.status().message().find(expected), std::string::npos)
        << text << " -> " << config.status().message();
  }
  EXPECT_THAT(LoadServeConfig("/nonexistent/balcao.json"), StatusIs(StatusCode::kNotFound));
}

// Receipts, the touchscreen's language, offline cards and the payout: read, and refused by name.
TEST(ServeConfig, ReadsTheMoneySections) {
  auto config = ConfigFrom(R"({
    "receipt": {"language": "en-US", "card_copies": "customer"},
    "touchscreen": {"language": "en-US"},
    "offline_cards": {"enabled": true, "per_sale_cap_cents": 15000, "total_cap_cents": 90000, "max_age_s": 3600,
                      "kek_file": "keys/kek"},
    "payout": {"enabled": true, "store": "loja-centro", "keep_balance_cents": 10000,
               "account": {"name": "Loja Ltda", "tax_id": "11.222.333/0001-81", "bank_code": "341",
                           "branch_code": "1234", "account_number": "56789-0", "account_type": "savings"}}})");
  ASSERT_OK(config);
  EXPECT_EQ(config->store.options.language, printer::Language::kEnUs);
  EXPECT_FALSE(config->store.merchant_copy);
  EXPECT_EQ(config->touchscreen_language, "en-US");
  EXPECT_TRUE(config->offline_cards.enabled);
  EXPECT_EQ(config->offline_cards.per_sale_cap_cents, 15000);
  EXPECT_EQ(config->offline_cards.total_cap_cents, 90000);
  EXPECT_EQ(config->offline_cards.max_age_ms, 3'600'000);
  EXPECT_TRUE(std::filesystem::path(config->offline_cards.kek_path).is_absolute()) << config->offline_cards.kek_path;
  EXPECT_TRUE(config->payout.enabled);
  EXPECT_EQ(config->payout.store, "loja-centro");
  EXPECT_EQ(config->payout.keep_balance_cents, 10000);
  EXPECT_EQ(config->payout.account.account_type, "savings");
  EXPECT_EQ(config->payout.account.bank_code, "341");
  EXPECT_FALSE(LoadServeConfig("")->payout.enabled);
  EXPECT_TRUE(LoadServeConfig("")->store.merchant_copy);

  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"receipt": {"language": "es-AR"}})", "receipt.language: must be pt-BR or en-US"},
      {R"({"receipt": {"card_copies": "two"}})", "receipt.card_copies: must be both or customer"},
      {R"({"touchscreen": {"idioma": "en-US"}})", "touchscreen.idioma: unknown key"},
      {R"({"offline_cards": {"per_sale_cap_cents": 0}})", "offline_cards.per_sale_cap_cents: must be a whole number"},
      {R"({"payout": {"enabled": true, "store": "Loja Centro"}})", "payout.store: 1 to 40 lowercase"},
      {R"({"payout": {"enabled": true, "store": "loja"}})", "payout.account.name: required"},
      {R"({"payout": {"enabled": true, "store": "loja", "account": {"name": "L", "tax_id": "123"}}})",
       "payout.account.tax_id: a CPF or CNPJ"},
  };
  for (const auto& [text, expected] : cases) {
    auto bad = ConfigFrom(text);
    ASSERT_THAT(bad, Not(IsOk())) << text;
    EXPECT_NE(bad.status().message().find(expected), std::string::npos) << text << " -> " << bad.status().message();
  }
}

TEST(JsonBody, AKeyGivenTwiceIsRefusedNamingIt) {
  auto twice = ParseJsonObject(R"({"amount": 100, "amount": 200})");
  ASSERT_THAT(twice, Not(IsOk()));
  EXPECT_EQ(twice.status().message(), "a JSON object without a key given twice ('amount' is)");
  auto nested = ParseJsonObject(R"({"customer": {"name": "A", "name": "B"}})");
  ASSERT_THAT(nested, Not(IsOk()));
  EXPECT_EQ(nested.status().message(), "a JSON object without a key given twice ('customer.name' is)");
  EXPECT_OK(ParseJsonObject(R"({"a": {"name": 1}, "b": {"name": 2}})")) << "same name, other objects";
  EXPECT_EQ(DuplicateKey(R"({"x": [{"k": 1, "k": 2}]})"), "x.[].k");
}

TEST(ServeConfig, ReadsTheBoxSectionsWithCommentsAndPathsRelativeToTheFile) {
  auto config = ConfigFrom(R"(// the installed box
    {
      "data_dir": "state",            /* relative: to the file's folder */
      "listen": {"address": "0.0.0.0", "port": 8443},
      "bank": {"credentials": "/etc/balcao/credentials.json"},
      "log": {"file": "logs/balcao.log", "level": "warn"},
      "tef_dial": {"dir": "tef", "group": "pdv", "method": "pix", "unresolved": "confirm", "unresolved_after_s": 120}
    })");
  ASSERT_OK(config);
  const auto folder = std::filesystem::temp_directory_path();
  EXPECT_EQ(config->data_dir, (folder / "state").string());
  EXPECT_EQ(config->address, "0.0.0.0");
  EXPECT_EQ(config->port, 8443);
  EXPECT_EQ(config->bank_credentials, "/etc/balcao/credentials.json");
  EXPECT_EQ(config->log_file, (folder / "logs" / "balcao.log").string());
  EXPECT_EQ(config->log_level, "warn");
  EXPECT_EQ(config->tef_dial.dir, (folder / "tef").string());
  EXPECT_EQ(config->tef_dial.group, "pdv");
  EXPECT_EQ(config->tef_dial.method, "pix");
  EXPECT_EQ(config->tef_dial.unresolved, "confirm");
  EXPECT_EQ(config->tef_dial.unresolved_after_s, 120);
  EXPECT_EQ(ConfigFrom(R"({"listen": {"port": 70000}})").status().message(),
            "listen.port: must be a whole number from 0 to 65535");
  EXPECT_EQ(ConfigFrom(R"({"log": {"level": "loud"}})").status().message(),
            "log.level: must be one of debug, info, warn, error");
  EXPECT_EQ(ConfigFrom(R"({"bank": {"key": "x"}})").status().message(), "bank.key: unknown key");
}

TEST(ServeConfig, ListenTlsKeys) {
  auto config =
      ConfigFrom(R"({"listen": {"tls": true, "tls_cert": "tls/cert.pem", "tls_key": "/etc/balcao/key.pem"}})");
  ASSERT_OK(config);
  EXPECT_EQ(config->tls, true);
  EXPECT_EQ(config->tls_cert, (std::filesystem::temp_directory_path() / "tls" / "cert.pem").string());
  EXPECT_EQ(config->tls_key, "/etc/balcao/key.pem");
  EXPECT_FALSE(ConfigFrom("{}")->tls.has_value());
  EXPECT_EQ(ConfigFrom(R"({"listen": {"tls_cert": "c.pem"}})").status().message(),
            "listen.tls_key: required with listen.tls_cert");
  EXPECT_EQ(ConfigFrom(R"({"listen": {"tls_key": "k.pem"}})").status().message(),
            "listen.tls_cert: required with listen.tls_key");
  EXPECT_EQ(ConfigFrom(R"({"listen": {"tls": false, "tls_cert": "c.pem", "tls_key": "k.pem"}})").status().message(),
            "listen.tls: false contradicts listen.tls_cert");
  EXPECT_EQ(ConfigFrom(R"({"listen": {"tls": "yes"}})").status().message(), "listen.tls: must be true or false");
}

TEST(ServeConfig, LaneIdsAreCheckedByName) {
  auto config = ConfigFrom(R"({"store_id": "loja-centro", "terminal_id": "caixa-03"})");
  ASSERT_OK(config);
  EXPECT_EQ(config->store_id, "loja-centro");
  EXPECT_EQ(config->terminal_id, "caixa-03");
  EXPECT_EQ(ConfigFrom(R"({"terminal_id": "Caixa 3"})").status().message(),
            "terminal_id: 1 to 24 of a-z, 0-9 and '-', not starting with '-'");
  EXPECT_EQ(ConfigFrom(R"({"store_id": "loja/1"})").status().message(),
            "store_id: 1 to 24 of a-z, 0-9 and '-', not starting with '-'");
  EXPECT_EQ(ConfigFrom(R"({"store_id": 7})").status().message(), "store_id: must be a string");
}

TEST(LaneIdentity, ATerminalIdIsDerivedOnceAndKeptInTheDataDir) {
  const auto dir = std::filesystem::temp_directory_path() / ("balcao-lane-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto first = ResolveLaneIdentity("", "", dir.string());
  ASSERT_OK(first);
  EXPECT_EQ(first->store_id, "main");
  EXPECT_TRUE(first->terminal_id_derived);
  EXPECT_EQ(checkout::LaneIdRule(first->terminal_id), "") << first->terminal_id;
  auto again = ResolveLaneIdentity("loja-1", "", dir.string());
  ASSERT_OK(again);
  EXPECT_EQ(again->terminal_id, first->terminal_id) << "kept, not derived again";
  EXPECT_EQ(again->root(), "store/loja-1/lane/" + first->terminal_id);
  EXPECT_EQ(KnownLaneRoot("", (dir / "balcao.db").string()), "store/main/lane/" + first->terminal_id);
  auto configured = ResolveLaneIdentity("loja-1", "caixa-9", dir.string());
  ASSERT_OK(configured);
  EXPECT_EQ(configured->terminal_id, "caixa-9");
  EXPECT_FALSE(configured->terminal_id_derived);
  EXPECT_EQ(ResolveLaneIdentity("Loja", "", dir.string()).status().message(),
            "store_id: 1 to 24 of a-z, 0-9 and '-', not starting with '-'");
  const std::string derived = DeriveTerminalId("PDV_Caixa.03.loja-centro.example");
  EXPECT_TRUE(std::regex_match(derived, std::regex("pdv-caixa-03-loj-[0-9a-f]{4}"))) << derived;
  EXPECT_TRUE(std::regex_match(DeriveTerminalId(""), std::regex("lane-[0-9a-f]{4}")));
  std::filesystem::remove_all(dir);
}

TEST(LaneIdentity, TheLatestLaneIsReadFromTheJournal) {
  const test_util::TempDir dir("lanes");
  auto store = offline::Store::Open(dir.File("balcao.db"));
  ASSERT_OK(store);
  offline::Journal journal(**store);
  EXPECT_EQ(*offline::LatestLane(**store), "") << "no sale yet";
  checkout::Start old{"old-1", 100, {}, 1};
  ASSERT_OK(journal.Append("old-1", 1, "Start", checkout::EventToJson(old)));
  EXPECT_EQ(*offline::LatestLane(**store), "") << "a sale from before lanes";
  checkout::Start lane{"new-1", 100, {}, 2};
  lane.settings.lane = checkout::LaneRoot("loja-1", "caixa-2");
  ASSERT_OK(journal.Append("new-1", 1, "Start", checkout::EventToJson(lane)));
  EXPECT_EQ(*offline::LatestLane(**store), "store/loja-1/lane/caixa-2");
  store->reset();
}

TEST(ListenerPlan, LoopbackPlainBeyondItTlsPlainThereOnlyWithInsecureLan) {
  for (const char* loopback : {"127.0.0.1", "127.0.0.2", "127.255.0.9", "::1", "::ffff:127.0.0.1"})
    EXPECT_TRUE(IsLoopback(loopback)) << loopback;
  for (const char* other : {"0.0.0.0", "::", "192.168.0.10", "10.0.0.1", "fe80::1", "localhost", "", "128.0.0.1"})
    EXPECT_FALSE(IsLoopback(other)) << other;

  ServeConfig automatic;
  auto plan = PlanListener("127.0.0.1", automatic, false);
  ASSERT_OK(plan);
  EXPECT_FALSE(plan->tls);
  plan = PlanListener("0.0.0.0", automatic, false);
  ASSERT_OK(plan);
  EXPECT_TRUE(plan->tls && plan->self_signed);
  plan = PlanListener("192.168.0.10", automatic, true);
  ASSERT_OK(plan);
  EXPECT_TRUE(!plan->tls && plan->insecure_lan);

  ServeConfig forced;
  forced.tls = true;
  plan = PlanListener("127.0.0.1", forced, false);
  EXPECT_TRUE(plan->tls && plan->self_signed);
  EXPECT_THAT(PlanListener("0.0.0.0", forced, true), StatusIs(StatusCode::kInvalidArgument));
  ServeConfig files;
  files.tls_cert = "/c.pem";
  files.tls_key = "/k.pem";
  plan = PlanListener("127.0.0.1", files, false);
  EXPECT_TRUE(plan->tls && !plan->self_signed);

  ServeConfig plain;
  plain.tls = false;
  EXPECT_FALSE(PlanListener("::1", plain, false)->tls);
  const auto refused = PlanListener("0.0.0.0", plain, false);
  EXPECT_THAT(refused, StatusIs(StatusCode::kInvalidArgument));
  EXPECT_NE(refused.status().message().find("--insecure-lan"), std::string::npos) << refused.status().message();
  EXPECT_TRUE(PlanListener("0.0.0.0", plain, true)->insecure_lan);
}

TEST(ListenerPlan, TheCertificateNamesTheHostNamesAndTheAddress) {
  const auto names =
      CertificateNames("192.168.0.10", {"caixa1.loja.lan", "caixa1.loja.lan:8443", "10.1.2.3", "[fe80::1]:443"});
  EXPECT_EQ(names.dns_names, (std::vector<std::string>{"caixa1.loja.lan", "localhost"}));
  EXPECT_EQ(names.ip_addresses, (std::vector<std::string>{"10.1.2.3", "fe80::1", "192.168.0.10", "127.0.0.1"}));
  EXPECT_EQ(names.valid_days, 825);
  const auto wildcard = CertificateNames("0.0.0.0", {});
  EXPECT_EQ(wildcard.ip_addresses, (std::vector<std::string>{"127.0.0.1"}));
}

TEST(ServeOptions, TheCommandLineWinsThenTheConfigThenTheDefaults) {
  ServeConfig config;
  auto defaults = ResolveServeOptions({}, config);
  ASSERT_OK(defaults);
  EXPECT_EQ(defaults->address, "127.0.0.1");
  EXPECT_EQ(*defaults->port, 8080);
  EXPECT_EQ(defaults->data_dir, (std::filesystem::current_path() / "balcao-data").string());
  config.address = "0.0.0.0";
  config.port = 9000;
  config.data_dir = "/var/lib/balcao";
  auto from_config = ResolveServeOptions({}, config);
  EXPECT_EQ(from_config->address, "0.0.0.0");
  EXPECT_EQ(*from_config->port, 9000);
  EXPECT_EQ(from_config->data_dir, "/var/lib/balcao");
  ServeOptions given;
  given.port = 0;
  given.data_dir = "./rel-data/";
  auto from_flags = ResolveServeOptions(given, config);
  EXPECT_EQ(*from_flags->port, 0);
  EXPECT_EQ(from_flags->data_dir, (std::filesystem::current_path() / "rel-data").string());
}

TEST(FindBox, StoreFromTheFlagThenTheEnvironmentThenTheConfig) {
  const auto dir = Temp("findbox");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "balcao.conf") << R"({"data_dir": "/var/lib/balcao", "bank": {"credentials": "creds.json"}})";
  ::unsetenv("BALCAO_DB");
  ::unsetenv("BALCAO_CREDENTIALS");
  ::setenv("BALCAO_CONFIG", (dir / "balcao.conf").c_str(), 1);
  auto box = FindBox("", "");
  ASSERT_OK(box);
  EXPECT_EQ(box->store_path, "/var/lib/balcao/balcao.db");
  EXPECT_EQ(box->credentials_path, (dir / "creds.json").string());
  ::setenv("BALCAO_DB", "/tmp/env.db", 1);
  EXPECT_EQ(FindBox("", "")->store_path, "/tmp/env.db");
  EXPECT_EQ(FindBox("/tmp/flag.db", "")->store_path, "/tmp/flag.db");
  ::unsetenv("BALCAO_DB");
  ::unsetenv("BALCAO_CONFIG");
  if (!std::filesystem::exists(kInstalledConfigPath)) {
    auto none = FindBox("", "");
    EXPECT_THAT(none, StatusIs(StatusCode::kInvalidArgument));
    EXPECT_NE(none.status().message().find("--db: which store?"), std::string::npos);
  }
  EXPECT_THAT(FindBox("", (dir / "missing.conf").string()), StatusIs(StatusCode::kNotFound));
  std::filesystem::remove_all(dir);
}

TEST(SaleBook, TheDayIndexSurvivesAReloadAndSkipsTornLines) {
  const auto path = Temp("sales.idx");
  std::filesystem::remove(path);
  // 2026-11-21 02:30 UTC is still the 20th in Brasília; 03:30 UTC is the 21st.
  const UnixMicros late_20th = *ParseTimestamp("2026-11-21T02:30:00+00:00");
  const UnixMicros early_21st = *ParseTimestamp("2026-11-21T03:30:00+00:00");
  {
    SaleBook book(path.string());
    ASSERT_OK(book.Load());
    ASSERT_OK(book.Add("v-a", 1000, late_20th));
    ASSERT_OK(book.Add("v-b", 2000, early_21st));
  }
  std::ofstream(path, std::ios::app) << "garbage line\n17000000";  // a torn last write
  SaleBook book(path.string());
  ASSERT_OK(book.Load());
  EXPECT_EQ(book.IdsOfDay("2026-11-20"), std::vector<std::string>{"v-a"});
  EXPECT_EQ(book.IdsOfDay("2026-11-21"), std::vector<std::string>{"v-b"});
  EXPECT_TRUE(book.Knows("v-a"));
  EXPECT_FALSE(book.HasCopy("v-a"));  // no copy until the driver (or the journal) gives one
  EXPECT_FALSE(book.ViewJson("v-a").has_value());
  std::filesystem::remove(path);
}

// Draws the SVG's unit squares into a PGM (8 px per module) and decodes it with zbarimg.
std::string DecodeSvgQr(const std::string& svg) {
  const std::regex size_re(R"(viewBox="0 0 (\d+) \d+")");
  std::smatch m;
  if (!std::regex_search(svg, m, size_re)) return "";
  const int modules = std::stoi(m[1].str()), scale = 8, side = modules * scale;
  std::vector<unsigned char> pixels(static_cast<std::size_t>(side) * side, 255);
  const std::regex square(R"(M(\d+),(\d+)h1v1h-1z)");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), square); it != std::sregex_iterator(); ++it) {
    const int x = std::stoi((*it)[1].str()), y = std::stoi((*it)[2].str());
    for (int dy = 0; dy < scale; ++dy)
      for (int dx = 0; dx < scale; ++dx) pixels[static_cast<std::size_t>(y * scale + dy) * side + x * scale + dx] = 0;
  }
  const auto path = Temp("qr.pgm");
  {
    std::ofstream out(path, std::ios::binary);
    out << "P5\n" << side << " " << side << "\n255\n";
    out.write(reinterpret_cast<const char*>(pixels.data()), static_cast<std::streamsize>(pixels.size()));
  }
  std::string text;
  if (FILE* pipe = ::popen(("zbarimg -q --raw " + path.string() + " 2>/dev/null").c_str(), "r")) {
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) text.append(buffer, n);
    ::pclose(pipe);
  }
  std::filesystem::remove(path);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

TEST(QrSvg, DecodesBackToThePixCode) {
  const std::string brcode =
      "00020101021226920014br.gov.bcb.pix2570127.0.0.1:44873/brcode/dynamic-brcode/07c9bf8191aaee0a0bb2c9922d30914852"
      "0400005303986540525.905802BR5914Balcao Sandbox6009Sao Paulo62070503***63045018";
  const std::string svg = QrSvg(brcode);
  ASSERT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(DecodeSvgQr(svg), brcode);
  EXPECT_EQ(DecodeSvgQr(QrSvg("http://127.0.0.1:9/sandbox/challenge/123")), "http://127.0.0.1:9/sandbox/challenge/123");
  EXPECT_EQ(QrSvg(""), "");
  EXPECT_EQ(QrSvg(std::string(5000, 'x')), "");  // too long for any QR version
}

TEST(StoreDay, IsBrasiliaTime) {
  EXPECT_EQ(StoreDay(*ParseTimestamp("2026-01-01T02:59:59+00:00")), "2025-12-31");
  EXPECT_EQ(StoreDay(*ParseTimestamp("2026-01-01T03:00:00+00:00")), "2026-01-01");
}

TEST(ServiceMetrics, FamiliesAreDeclaredRightAndRecordWhatTheyAreTold) {
  ASSERT_OK(ScrapeGauges::Create());
  auto metrics = ServiceMetrics::Create();
  ASSERT_OK(metrics);
  api::CallRecord call;
  call.method = "GET";
  call.route = "/v2/invoice/{id}";
  call.outcome = "ok";
  call.elapsed = std::chrono::milliseconds(30);
  (*metrics)->ObserveBankCall(call);
  (*metrics)->CountWebhook("rejected");
  (*metrics)->CountUnknownResolved("outbox", true);
  const std::string text = (*metrics)->Render();
  for (const char* line :
       {"balcao_bank_call_duration_seconds_bucket{method=\"GET\",route=\"/v2/invoice/"
        "{id}\",outcome=\"ok\",le=\"0.025\"} 0\n",
        "balcao_bank_call_duration_seconds_bucket{method=\"GET\",route=\"/v2/invoice/"
        "{id}\",outcome=\"ok\",le=\"0.05\"} 1\n",
        "balcao_bank_call_duration_seconds_count{method=\"GET\",route=\"/v2/invoice/{id}\",outcome=\"ok\"} 1\n",
        "balcao_webhook_deliveries_total{result=\"rejected\"} 1\n",
        "balcao_webhook_deliveries_total{result=\"applied\"} 0\n",
        "balcao_webhook_deliveries_total{result=\"replayed\"} 0\n",
        "balcao_webhook_deliveries_total{result=\"too-old\"} 0\n",
        "balcao_unknown_outcomes_resolved_total{where=\"outbox\",result=\"found\"} 1\n",
        "balcao_unknown_outcomes_resolved_total{where=\"checkout\",result=\"absent\"} 0\n"})
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
}

}  // namespace
}  // namespace balcao::terminal::service
