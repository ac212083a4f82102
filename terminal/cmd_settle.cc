// `balcao settle`: the nightly settlement of one business day (docs/settlement.md).
//   balcao settle [--day YYYY-MM-DD] [--db FILE] [--json] [--print URI] [--dry-run]
//   balcao settle --store [ID] | --account [--day YYYY-MM-DD] [--json] [--connections N]
// The store and the bank are those of the box (terminal/service/config.h, FindBox): --db,
// $BALCAO_DB, or the config file's data_dir (--config, $BALCAO_CONFIG, /etc/balcao/balcao.conf);
// the bank as for `balcao api` (BALCAO_CREDENTIALS / BALCAO_BANK_URL...) or the config's. Exit: 0 everything
// reconciles, 1 items for the operator (discrepancies, late money, overdue invoices, requests at risk...), 2 errors
// (bad arguments included, so that 1 always means "look at the report").
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/bank.h"
#include "checkout/types.h"
#include "common/log.h"
#include "common/money.h"
#include "common/progress.h"
#include "offline/store.h"
#include "settlement/settle.h"
#include "settlement/store_run.h"
#include "terminal/command.h"
#include "terminal/service/config.h"
#include "terminal/service/lane_identity.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao settle [--day YYYY-MM-DD] [--db FILE] [--config FILE] [--json] [--print URI] [--dry-run]\n"
    "                     [--connections N]\n"
    "       balcao settle --list [--db FILE] [--json]   the days settled, the most recent first\n"
    "       balcao settle --store [ID] | --account [--day D] [--json] [--connections N]\n"
    "                 a store's lanes (ID: this box's store by default), or every store of the account\n"
    "  --day      the business day, America/Sao_Paulo (default: yesterday)\n"
    "  --db       the box's store (default: $BALCAO_DB, else the config's data_dir/balcao.db)\n"
    "  --config   the box's config (default: $BALCAO_CONFIG, else /etc/balcao/balcao.conf if present)\n"
    "  --json     one JSON document on stdout instead of the text report\n"
    "  --print    print the end-of-day summary: file:PATH, tcp://host:9100, cups:QUEUE\n"
    "  --dry-run  compute and show the report; write nothing (store, journal, printer)\n"
    "  --connections N  the day's bank lists read at once, 1 to 5 (default 4)\n"
    "A day is settled once; settling it again shows the stored record. With payout.enabled in the\n"
    "config, a day that reconciles sends its net to the merchant's account (once: the transfer's\n"
    "externalId is the store and the day); --dry-run shows it.\n"
    "--store and --account only read the bank (docs/stores.md): 0 every figure matches the ledger, 1 not.\n"
    "Exit: 0 reconciled, 1 items for the operator, 2 errors.\n";

int Fail(const std::string& message) {
  std::fprintf(stderr, "balcao settle: %s\n", message.c_str());
  return 2;
}

struct Args {
  std::string day, db, print, config, connections;
  bool json = false, dry_run = false, list = false;
  bool store = false, account = false;
  std::string store_id;  // --store ID
};

bool Parse(const std::vector<std::string>& raw, Args& a, std::string& error) {
  const std::map<std::string, std::string*> values = {{"--day", &a.day},
                                                      {"--db", &a.db},
                                                      {"--print", &a.print},
                                                      {"--config", &a.config},
                                                      {"--connections", &a.connections}};
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == "--json") {
      a.json = true;
    } else if (raw[i] == "--dry-run") {
      a.dry_run = true;
    } else if (raw[i] == "--list") {
      a.list = true;
    } else if (raw[i] == "--account") {
      a.account = true;
    } else if (raw[i] == "--store") {
      a.store = true;
      if (i + 1 < raw.size() && !raw[i + 1].starts_with("--")) a.store_id = raw[++i];
    } else if (auto it = values.find(raw[i]); it != values.end()) {
      if (i + 1 >= raw.size() || raw[i + 1].empty()) {
        error = raw[i] + ": needs a value";
        return false;
      }
      *it->second = raw[++i];
    } else {
      error = "unknown argument '" + raw[i] + "'";
      return false;
    }
  }
  if (!a.connections.empty() && (a.connections.size() != 1 || a.connections[0] < '1' || a.connections[0] > '5')) {
    error = "--connections must be a whole number from 1 to 5, got '" + a.connections + "'";
    return false;
  }
  return true;
}

printer::Merchant MerchantFromEnvironment() {
  printer::Merchant merchant;
  const char* name = std::getenv("BALCAO_MERCHANT_NAME");
  const char* terminal = std::getenv("BALCAO_TERMINAL_ID");
  merchant.name = name ? name : "BALCAO";
  merchant.terminal_id = terminal ? terminal : "";
  return merchant;
}

int List(offline::Store& store, bool as_json) {
  auto days = settlement::ListSettlements(store);
  if (!days.ok()) return Fail(days.status().ToString());
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const settlement::Settlement& d : *days) {
    if (as_json) {
      list.push_back({{"day", d.day},
                      {"settled_at", FormatTimestamp(d.settled_at_ms * 1000)},
                      {"status", d.reconciled ? "reconciled" : "attention"},
                      {"attention", d.attention},
                      {"sales", d.sales},
                      {"gross", d.gross},
                      {"refunds", d.refunds},
                      {"net", d.gross - d.refunds}});
    } else {
      std::printf("%s  %-10s  %3d item(s)  %4d sale(s)  %14s  refunds %12s  net %14s\n", d.day.c_str(),
                  d.reconciled ? "reconciled" : "attention", d.attention, d.sales, FormatBrl(d.gross).c_str(),
                  FormatBrl(d.refunds).c_str(), FormatBrl(d.gross - d.refunds).c_str());
    }
  }
  if (as_json) std::printf("%s\n", list.dump().c_str());
  if (!as_json && days->empty()) std::printf("no day settled yet\n");
  return 0;
}

// `--store` / `--account`: the bank's day grouped by lane; reads only.
int Stores(const Args& a, const service::BoxTarget& box) {
  if (!a.print.empty() || a.dry_run || a.list)
    return Fail("--store and --account take only --day, --json, --connections and --config");
  if (a.store && a.account) return Fail("--store and --account: one or the other");
  std::string store_id;
  if (a.store) store_id = a.store_id.empty() ? service::KnownStoreId(box.config_path) : a.store_id;
  if (std::string rule = checkout::LaneIdRule(store_id); a.store && !rule.empty())
    return Fail("--store " + store_id + ": " + rule);
  auto client = api::Client::FromEnvironment(box.credentials_path);
  if (!client.ok()) return Fail("bank: " + client.status().ToString());
  const api::Bank bank(*client);
  logging::PreferQuietStderr();
  ProgressLine progress("balcao settle " + a.day);
  settlement::StoreRunOptions options{a.day};
  if (!a.connections.empty()) options.connections = a.connections[0] - '0';
  options.progress = [&progress](const std::string& stage, int done, int) {
    progress.Update(stage + " " + std::to_string(done));
  };
  auto account = settlement::ReadAccountDay(bank, options);
  progress.Finish();
  if (!account.ok()) return Fail("the bank's day " + a.day + ": " + account.status().ToString());
  std::fputs((a.json ? settlement::StoresJson(*account, store_id) : settlement::StoresText(*account, store_id)).c_str(),
             stdout);
  bool matches = true;
  for (const settlement::StoreDay& store : account->stores)
    if (store_id.empty() || store.sum.store == store_id) matches = matches && store.matches_ledger;
  return matches ? 0 : 1;
}

int RunSettle(const std::vector<std::string>& args) {
  Args a;
  std::string error;
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (!Parse(args, a, error)) return Fail(error + "\n" + kUsage);
  auto box = service::FindBox(a.db, a.config);
  if (!box.ok() && (a.store || a.account)) {
    box = service::BoxTarget{"", "", service::FindConfigFile(a.config)};  // the bank (environment) will do
  }
  if (!box.ok()) return Fail(box.status().message());
  a.db = box->store_path;
  if (a.list) {
    if (!a.day.empty() || !a.print.empty() || a.dry_run) return Fail("--list takes only --db and --json");
    auto store = offline::Store::Open(a.db);
    if (!store.ok()) return Fail(store.status().ToString());
    return List(**store, a.json);
  }
  const UnixMicros now = SystemClock::Instance().Now();
  if (a.day.empty()) a.day = settlement::PreviousBusinessDay(now);
  if (auto start = settlement::BusinessDayStart(a.day); !start.ok()) return Fail("--" + start.status().message());
  if (a.store || a.account) return Stores(a, *box);

  auto store = offline::Store::Open(a.db);
  if (!store.ok()) return Fail(store.status().ToString());
  auto client = api::Client::FromEnvironment(box->credentials_path);
  if (!client.ok()) return Fail("bank: " + client.status().ToString());
  const api::Bank bank(*client);

  logging::PreferQuietStderr();
  ProgressLine progress("balcao settle " + a.day);
  settlement::SettleOptions settle_options{a.day, a.dry_run};
  settle_options.lane = service::KnownLaneRoot(box->config_path, a.db);
  if (!a.connections.empty()) settle_options.connections = a.connections[0] - '0';
  if (!box->config_path.empty()) {
    auto config = service::LoadServeConfig(box->config_path);
    if (!config.ok()) return Fail("--config " + config.status().message());
    settle_options.payout = config->payout;
  }
  settle_options.progress = [&progress](const std::string& stage, int done, int total) {
    progress.Update(stage + " " + std::to_string(done) + (total > 0 ? "/" + std::to_string(total) : ""));
  };
  auto settled = settlement::Settle(**store, bank, SystemClock::Instance(), settle_options);
  progress.Finish();
  if (!settled.ok()) return Fail("settlement of " + a.day + ": " + settled.status().ToString());

  if (a.json) {
    // The two keys added at the end of the report's object, as text: parsing a day of 10,000
    // sales back into a document would cost more memory than the whole run.
    std::string& doc = settled->json;
    if (doc.size() < 2 || doc.back() != '}')
      return Fail("settlement of " + a.day + ": the report is not a JSON object");
    doc.pop_back();
    doc += std::string(doc.size() > 1 ? "," : "") +
           "\"already_settled\":" + (settled->already_settled ? "true" : "false") +
           ",\"dry_run\":" + (settled->dry_run ? "true" : "false") + "}";
    std::fwrite(doc.data(), 1, doc.size(), stdout);
    std::fputc('\n', stdout);
  } else {
    if (settled->already_settled) {
      std::printf("Already settled at %s: the stored record follows (nothing was changed).\n",
                  FormatTimestamp(settled->settled_at_ms * 1000).c_str());
    }
    if (settled->dry_run && !settled->already_settled) std::printf("DRY RUN: nothing was written.\n");
    std::fputs(settled->text.c_str(), stdout);
  }
  if (!a.print.empty() && a.dry_run) std::fprintf(stderr, "balcao settle: dry run: the summary was not printed\n");
  if (!a.print.empty() && !a.dry_run) {
    Status printed = settlement::PrintDaySummary(settled->json, a.print, MerchantFromEnvironment(), now);
    if (!printed.ok()) return Fail("the record is kept, but the summary did not print: " + printed.ToString());
  }
  return settled->reconciled ? 0 : 1;
}

}  // namespace

BALCAO_COMMAND("settle", "the nightly settlement of a business day against the bank", RunSettle);

}  // namespace balcao::terminal
