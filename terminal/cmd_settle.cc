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
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/bank.h"
#include "checkout/types.h"
#include "common/log.h"
#include "common/money.h"
#include "common/progress.h"
#include "offline/night_runs.h"
#include "offline/settlement_records.h"
#include "offline/store.h"
#include "settlement/settle.h"
#include "settlement/store_payout.h"
#include "settlement/store_run.h"
#include "settlement/words.h"
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
    "       balcao settle --store [ID] --payout [--dry-run] [--day D] [--json]\n"
    "                 also send the store's payout of the day (once per store and day, whichever runs it)\n"
    "  --day      the business day, America/Sao_Paulo (default: yesterday)\n"
    "  --db       the box's store (default: $BALCAO_DB, else the config's data_dir/balcao.db)\n"
    "  --config   the box's config (default: $BALCAO_CONFIG, else /etc/balcao/balcao.conf if present)\n"
    "  --json     one JSON document on stdout instead of the text report\n"
    "  --print    print the end-of-day summary: file:PATH, tcp://host:9100, cups:QUEUE\n"
    "  --dry-run  compute and show the report; write nothing (store, journal, printer)\n"
    "  --connections N  the day's bank lists read at once, 1 to 5 (default 4)\n"
    "  --lang     pt-BR or en-US: the report's words (default: the config's receipt.language, else pt-BR)\n"
    "A day is settled once; settling it again re-verifies the journal chain, reads the bank's day\n"
    "again, says what changed since the record and shows the stored record. With payout.enabled in the\n"
    "config, the store's net of the day (every lane's, at the bank) goes to the merchant's account\n"
    "once every lane reconciles (once: the transfer's externalId is the store and the day; with\n"
    "payout.per_lane each lane pays its own under its own); --dry-run shows it.\n"
    "--store and --account read the bank and this box's own record of the day (docs/stores.md).\n"
    "Exit: 0 reconciled, 1 items for the operator, 2 errors.\n";

int Fail(const std::string& message) {
  std::fprintf(stderr, "balcao settle: %s\n", message.c_str());
  return 2;
}
// Fail, the message also kept in `failure` (the night's outcome: LaneNight).
int Fail(std::string& failure, const std::string& message) {
  failure = message;
  return Fail(message);
}

struct Args {
  std::string day, db, print, config, connections, lang;
  bool json = false, dry_run = false, list = false;
  bool store = false, account = false, payout = false;
  std::string store_id;  // --store ID
};

bool Parse(const std::vector<std::string>& raw, Args& a, std::string& error) {
  const std::map<std::string, std::string*> values = {{"--day", &a.day},
                                                      {"--db", &a.db},
                                                      {"--print", &a.print},
                                                      {"--config", &a.config},
                                                      {"--connections", &a.connections},
                                                      {"--lang", &a.lang}};
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == "--json") {
      a.json = true;
    } else if (raw[i] == "--dry-run") {
      a.dry_run = true;
    } else if (raw[i] == "--list") {
      a.list = true;
    } else if (raw[i] == "--payout") {
      a.payout = true;
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
  if (!a.lang.empty() && !settlement::ParseLang(a.lang).ok()) {
    error = "--lang must be pt-BR or en-US, got '" + a.lang + "'";
    return false;
  }
  return true;
}

// --lang, else the box's language (the config's receipt.language), else pt-BR.
settlement::Lang LangOf(const Args& a, const std::string& config_path) {
  if (!a.lang.empty()) return *settlement::ParseLang(a.lang);
  if (!config_path.empty()) {
    if (auto config = service::LoadServeConfig(config_path); config.ok())
      return config->store.options.language == printer::Language::kEnUs ? settlement::Lang::kEnUs
                                                                        : settlement::Lang::kPtBr;
  }
  return settlement::Lang::kPtBr;
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

// This box's own night of the day, when it settled it: the store's and the account's nights
// compare the bank with what the lane recorded, not the bank alone.
Status AddThisLanesRecord(const service::BoxTarget& box, const std::string& day, settlement::AccountDay& account) {
  std::error_code ec;
  if (box.store_path.empty() || !std::filesystem::exists(box.store_path, ec)) return OkStatus();
  const std::string lane = service::KnownLaneRoot(box.config_path, box.store_path);
  if (lane.empty()) return OkStatus();
  BALCAO_ASSIGN_OR_RETURN(auto store, offline::Store::Open(box.store_path));
  Status error;
  const auto row = offline::FindSettlement(*store, day, error);
  BALCAO_RETURN_IF_ERROR(error);
  if (!row) return OkStatus();
  BALCAO_ASSIGN_OR_RETURN(settlement::LaneRecord record, settlement::LaneRecordOf(lane, row->report_json));
  account.records.push_back(std::move(record));
  return OkStatus();
}

// `--store ID --payout`: the store's payout from the day just read (no lane's own night here).
StatusOr<settlement::Payout> StorePayout(const api::Bank& bank, const settlement::PayoutSettings& settings,
                                         const settlement::AccountDay& account, const std::string& store_id,
                                         const Args& a) {
  settlement::StorePayoutRun run{a.day, store_id};
  run.dry_run = a.dry_run;
  for (const settlement::LaneRecord& record : account.records) {  // this box's own night, if kept
    const auto [record_store, terminal] = settlement::SplitLaneRoot(record.lane);
    if (record_store != store_id) continue;
    run.terminal = terminal;
    run.lane_reconciled = record.reconciled;
    run.lane_attention = record.attention;
  }
  const settlement::StoreDay* store = settlement::FindStore(account, store_id);
  settlement::StoreDay empty;
  empty.sum.store = store_id;
  return settlement::PayStore(bank, settings, store != nullptr ? *store : empty, run);
}

// `--store` / `--account`: the bank's day grouped by lane; reads only (but --payout).
int Stores(const Args& a, const service::BoxTarget& box) {
  if (!a.print.empty() || (a.dry_run && !a.payout) || a.list)
    return Fail("--store and --account take only --day, --json, --connections, --config and --payout");
  if (a.store && a.account) return Fail("--store and --account: one or the other");
  if (a.payout && !a.store) return Fail("--payout: with --store (a payout is one store's)");
  settlement::PayoutSettings payout_settings;
  if (a.payout) {
    if (box.config_path.empty()) return Fail("--payout: needs the box's config (payout.enabled, payout.account)");
    auto config = service::LoadServeConfig(box.config_path);
    if (!config.ok()) return Fail("--config " + config.status().message());
    payout_settings = config->payout;
    if (!payout_settings.enabled) return Fail("--payout: payout.enabled is off in " + box.config_path);
    if (payout_settings.per_lane) return Fail("--payout: payout.per_lane is on: each lane's night pays its own");
  }
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
  account->lang = LangOf(a, box.config_path);
  if (Status kept = AddThisLanesRecord(box, a.day, *account); !kept.ok())
    return Fail("this box's record of " + a.day + ": " + kept.ToString());
  std::string out = a.json ? settlement::StoresJson(*account, store_id) : settlement::StoresText(*account, store_id);
  bool matches = settlement::ItemsToLookAt(*account, store_id) == 0;
  if (a.payout) {
    auto payout = StorePayout(bank, payout_settings, *account, store_id, a);
    if (!payout.ok()) return Fail("the store's payout of " + a.day + ": " + payout.status().ToString());
    if (a.json) {
      nlohmann::ordered_json doc = nlohmann::ordered_json::parse(out);
      doc["payout"] = nlohmann::ordered_json::parse(settlement::PayoutJson(*payout, account->lang));
      out = doc.dump(2) + "\n";
    } else {
      out += "\n" + settlement::PayoutText(*payout, account->lang);
    }
    matches = matches && payout->status != "withheld";
  }
  std::fputs(out.c_str(), stdout);
  return matches ? 0 : 1;
}

// The report on stdout: JSON (with already_settled and dry_run) or the text in `lang`. False
// when the report is not a JSON object.
bool Show(const Args& a, settlement::Settlement& settled, settlement::Lang lang) {
  if (a.json) {
    // The two keys added at the end of the report's object, as text: parsing a day of 10,000
    // sales back into a document would cost more memory than the whole run.
    std::string& doc = settled.json;
    if (doc.size() < 2 || doc.back() != '}') return false;
    doc.pop_back();
    doc += std::string(doc.size() > 1 ? "," : "") +
           "\"already_settled\":" + (settled.already_settled ? "true" : "false") +
           ",\"dry_run\":" + (settled.dry_run ? "true" : "false") +
           (settled.recheck_json.empty() ? "" : ",\"recheck\":" + settled.recheck_json) + "}";
    std::fwrite(doc.data(), 1, doc.size(), stdout);
    std::fputc('\n', stdout);
  } else {
    if (settled.already_settled) {
      const bool pt = lang == settlement::Lang::kPtBr;
      std::printf(pt ? "Dia já fechado em %s: segue o registro guardado (nada foi alterado).\n"
                     : "Already settled at %s: the stored record follows (nothing was changed).\n",
                  FormatTimestamp(settled.settled_at_ms * 1000).c_str());
    }
    if (settled.dry_run && !settled.already_settled)
      std::fputs(lang == settlement::Lang::kPtBr ? "SIMULAÇÃO: nada foi gravado.\n" : "DRY RUN: nothing was written.\n",
                 stdout);
    std::fputs(settled.recheck_text.c_str(), stdout);
    std::fputs(settled.text.c_str(), stdout);
  }
  return true;
}

// The lane's night of a.day; on exit 2 `failure` says why.
int SettleLane(const Args& a, const service::BoxTarget& box, UnixMicros now, std::string& failure) {
  auto store = offline::Store::Open(a.db);
  if (!store.ok()) return Fail(failure, store.status().ToString());
  auto client = api::Client::FromEnvironment(box.credentials_path);
  if (!client.ok()) return Fail(failure, "bank: " + client.status().ToString());
  const api::Bank bank(*client);

  logging::PreferQuietStderr();
  ProgressLine progress("balcao settle " + a.day);
  settlement::SettleOptions settle_options{a.day, a.dry_run};
  settle_options.lane = service::KnownLaneRoot(box.config_path, a.db);
  settle_options.lang = LangOf(a, box.config_path);
  if (!a.connections.empty()) settle_options.connections = a.connections[0] - '0';
  if (!box.config_path.empty()) {
    auto config = service::LoadServeConfig(box.config_path);
    if (!config.ok()) return Fail(failure, "--config " + config.status().message());
    settle_options.payout = config->payout;
  }
  settle_options.progress = [&progress](const std::string& stage, int done, int total) {
    progress.Update(stage + " " + std::to_string(done) + (total > 0 ? "/" + std::to_string(total) : ""));
  };
  auto settled = settlement::Settle(**store, bank, SystemClock::Instance(), settle_options);
  progress.Finish();
  if (!settled.ok()) return Fail(failure, "settlement of " + a.day + ": " + settled.status().ToString());

  if (!Show(a, *settled, settle_options.lang))
    return Fail(failure, "settlement of " + a.day + ": the report is not a JSON object");
  if (!a.print.empty() && a.dry_run) std::fprintf(stderr, "balcao settle: dry run: the summary was not printed\n");
  if (!a.print.empty() && !a.dry_run) {
    Status printed = settlement::PrintDaySummary(settled->json, a.print, MerchantFromEnvironment(), now);
    if (!printed.ok()) return Fail(failure, "the record is kept, but the summary did not print: " + printed.ToString());
  }
  return settled->reconciled ? 0 : 1;
}

// The lane's night, and its outcome where the service reads it the next morning (/readyz,
// the touchscreen's health line: offline/night_runs.h): a run that could not settle its day
// (exit 2) is kept with its reason; a run that settled it (0 or 1) forgets the day's failure.
int LaneNight(const Args& a, const service::BoxTarget& box, UnixMicros now) {
  std::string failure;
  const int code = SettleLane(a, box, now, failure);
  if (a.dry_run) return code;
  std::string dir = std::filesystem::path(a.db).parent_path().string();
  if (dir.empty()) dir = ".";
  const Status kept =
      code == 2 ? offline::RecordFailedNight(dir, {a.day, now / 1000, failure}) : offline::ClearFailedNight(dir, a.day);
  if (!kept.ok())
    std::fprintf(stderr, "balcao settle: the night's outcome was not kept: %s\n", kept.ToString().c_str());
  return code;
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
    // No store here (an office machine): the bank of the environment, else the config's.
    box = service::BoxTarget{"", "", service::FindConfigFile(a.config)};
    const char* env = std::getenv("BALCAO_CREDENTIALS");
    if (!box->config_path.empty() && (env == nullptr || *env == '\0')) {
      auto config = service::LoadServeConfig(box->config_path);
      if (!config.ok()) return Fail("--config " + config.status().message());
      box->credentials_path = config->bank_credentials;
    }
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
  if (a.day.empty()) a.day = PreviousBusinessDay(now);
  if (auto start = BusinessDayStart(a.day); !start.ok()) return Fail("--" + start.status().message());
  if (a.store || a.account) return Stores(a, *box);
  return LaneNight(a, *box, now);
}

}  // namespace

BALCAO_COMMAND("settle", "the nightly settlement of a business day against the bank", RunSettle);

}  // namespace balcao::terminal
