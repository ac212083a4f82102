// GET /healthz, /readyz and /metrics (docs/terminal.md, "Health and metrics"). Answered on
// the io thread, never queued behind the driver: /readyz writes one probe file and one store
// row, /metrics reads the store with a few indexed queries; neither calls the bank (the
// connectivity monitor's last verdict is used).
#include "terminal/service/health.h"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "common/log.h"
#include "common/metrics.h"
#include "common/money.h"
#include "offline/night_runs.h"
#include "offline/settlement_records.h"

namespace balcao::terminal::service {
namespace {

using http::HttpResponse;
using nlohmann::json;

// A job waiting this long for the spooler means the spooler or the printer is stuck (the
// spooler looks every 500 ms; one job takes seconds at most).
constexpr std::int64_t kPrintStuckMs = 60'000;
// Free space, a failing store and the clock's offset are looked at this often.
constexpr UnixMicros kHealthCheckInterval = 2 * kMicrosPerSecond;

struct Check {
  bool ok = true;
  std::string text;  // the detail when ok, the reason when not
};

// Creates, writes, fsyncs and removes a file in `dir`: what the store (its WAL and journal
// files), the day index and the sandbox need the data dir to allow. Root passes permission
// bits, so only a read-only or full filesystem stops it there.
Status ProbeDirectory(const std::string& dir) {
  static std::atomic<unsigned> counter{0};
  const std::string path =
      (std::filesystem::path(dir) / (".readyz-" + std::to_string(::getpid()) + "-" + std::to_string(counter++)))
          .string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return FailedPreconditionError("cannot create a file in " + dir + ": " + std::strerror(errno));
  const bool synced = ::write(fd, "ok\n", 3) == 3 && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  const bool removed = ::unlink(path.c_str()) == 0;
  if (!synced) return FailedPreconditionError("cannot write and sync a file in " + dir + ": " + std::strerror(saved));
  if (!removed) return FailedPreconditionError("cannot remove a file from " + dir + ": " + std::strerror(errno));
  return OkStatus();
}

json ToJson(const Check& check) {
  return check.ok ? json{{"ok", true}, {"detail", check.text}} : json{{"ok", false}, {"reason", check.text}};
}

HttpResponse Plain(int status, std::string content_type, std::string body) {
  return HttpResponse{status, std::move(content_type), std::move(body), {{"Cache-Control", "no-store"}}};
}

// Bytes an unprivileged writer may still use in the filesystem of `dir`; -1 when unknown.
long long FreeBytes(const std::string& dir) {
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0) return -1;
  return static_cast<long long>(fs.f_bavail) * static_cast<long long>(fs.f_frsize);
}

std::string Megabytes(long long bytes) { return std::to_string(bytes / (1024 * 1024)) + " MB"; }

Check PrinterCheck(offline::PrintJobs& print_jobs) {
  auto jobs = print_jobs.Stats();
  if (!jobs.ok()) return {false, "cannot read the print jobs: " + jobs.status().message()};
  if (jobs->last_failed)
    return {false, "the last print job failed (" + jobs->last_error + "); " + std::to_string(jobs->failed) +
                       " failed job(s) wait for a reprint"};
  const std::int64_t waited = jobs->oldest_waiting_created_at_ms == 0
                                  ? 0
                                  : SystemClock::Instance().Now() / 1000 - jobs->oldest_waiting_created_at_ms;
  if (waited > kPrintStuckMs)
    return {false, std::to_string(jobs->queued + jobs->printing) + " job(s) waiting, the oldest for " +
                       std::to_string(waited / 1000) + " s: the spooler or the printer is stuck"};
  return {true, std::to_string(jobs->printed) + " printed, " + std::to_string(jobs->queued) + " queued, " +
                    std::to_string(jobs->failed) + " failed"};
}

// The box's clock against the bank's: worth the operator's attention past `warn_s` (requests
// are signed with the bank's time anyway, so sales go through).
Check ClockCheck(const api::BankClock& clock, int warn_s) {
  if (!clock.measured()) return {true, "not measured yet (no answer from the bank)"};
  const long long offset_s = clock.offset_micros() / kMicrosPerSecond;
  const long long off = offset_s < 0 ? -offset_s : offset_s;
  const std::string where = offset_s > 0 ? " behind" : " ahead of";
  if (off < warn_s)
    return {true, "within " + std::to_string(warn_s) + " s of the bank's (" + std::to_string(offset_s) + " s)"};
  return {false, "relógio do caixa: the box's clock is " + std::to_string(off) + " s" + where +
                     " the bank's; sales are signed with the bank's time, but set the clock (NTP)"};
}

// The bank's webhook: a refused registration is shown (payments are still seen, by polling).
Check WebhookCheck(const WebhookRegistration* webhook) {
  if (webhook == nullptr || webhook->url().empty())
    return {true, "none configured (webhook_url): payments seen by polling and the catch-up"};
  if (std::string failure = webhook->failure(); !failure.empty()) return {false, std::move(failure)};
  if (!webhook->live()) return {true, "being registered at the bank"};
  return {true, "deposit and invoice events to " + webhook->url()};
}

// By then the night of the day before has run: balcao-settle.timer starts it at 02:30 São
// Paulo and balcao-settle.service gives it 30 minutes (deploy/systemd/).
constexpr UnixMicros kNightDueAfterMidnight = 6LL * 3600 * kMicrosPerSecond;

// The nightly settlement (docs/settlement.md, "The night on the box's health"): a run that
// could not settle its day (offline/night_runs.h) until the day is settled; else, once the
// morning came, no settlement of yesterday on a box that has settled a day before (the timer
// did not run, or ran elsewhere). Shown, never failing readiness: sales go on.
Check NightCheck(offline::Store& store, const StatusOr<std::vector<offline::SettlementRow>>& rows, UnixMicros now) {
  if (!rows.ok()) return {false, "cannot read the settlements: " + rows.status().message()};
  std::map<std::string, const offline::SettlementRow*> settled;
  for (const offline::SettlementRow& row : *rows) settled.emplace(row.business_day, &row);
  auto failed = offline::ReadFailedNights(std::filesystem::path(store.path()).parent_path().string());
  if (!failed.ok()) return {false, "cannot read the failed nights: " + failed.status().message()};
  for (auto night = failed->rbegin(); night != failed->rend(); ++night) {
    if (settled.count(night->day)) continue;
    return {false, "the settlement of " + night->day + " failed at " + FormatTimestamp(night->at_ms * 1000) +
                       " (nothing recorded): " + night->reason + "; run `balcao settle --day " + night->day + "`"};
  }
  const std::string yesterday = PreviousBusinessDay(now);
  if (auto row = settled.find(yesterday); row != settled.end()) {
    const offline::SettlementRow& r = *row->second;
    return {true, yesterday + " settled: " +
                      (r.status == "reconciled" ? std::string("reconciled")
                                                : std::to_string(r.attention) + " item(s) to look at")};
  }
  if (settled.empty()) return {true, "no day settled yet"};
  const std::string last = rows->front().business_day;
  if (now - BusinessDayStartOf(now) < kNightDueAfterMidnight)
    return {true, "last settled " + last + "; the night of " + yesterday + " runs at 02:30"};
  return {false, "no settlement of " + yesterday + " (last settled " + last +
                     "): the nightly run did not run for its day; see `systemctl status balcao-settle` and run "
                     "`balcao settle --day " +
                     yesterday + "`"};
}

// The night, then the money the bank took back outside Balcão since the last night ran
// (docs/terminal.md, "estornado no banco"): on the health line until a night has run since
// the box saw it (that night reads the bank and flags it). `bank_reversed`: its cents.
Check SettlementCheck(offline::Store& store, const SaleBook& book, UnixMicros now, checkout::Cents& bank_reversed) {
  const auto rows = offline::ListSettlements(store, 62);
  const Check night = NightCheck(store, rows, now);
  bank_reversed = 0;
  if (!night.ok) return night;
  std::int64_t last_night_ms = 0;
  for (const offline::SettlementRow& row : *rows) last_night_ms = std::max(last_night_ms, row.settled_at_ms);
  std::string sales;
  int count = 0;
  for (const SaleBook::LoweredAtBank& lowered : book.LoweredAtBankSales()) {
    if (lowered.seen_at / 1000 <= last_night_ms) continue;
    bank_reversed += lowered.amount;
    sales += (count++ == 0 ? "" : ", ") + lowered.sale_id;
  }
  if (count == 0) return night;
  return {false, "reversed at the bank outside Balcão: " + FormatBrl(bank_reversed) + " of " + std::to_string(count) +
                     " sale(s) (" + sales + "); the next night's settlement flags it"};
}

}  // namespace

Health::Health(const ServeConfig& config, std::string data_dir, offline::Store& store, offline::Outbox& outbox,
               offline::PrintJobs& print_jobs, const SaleBook& book, const offline::ConnectivityMonitor& monitor,
               const api::BankClock& clock, const WebhookRegistration& webhook, ServiceMetrics& metrics)
    : config_(config),
      data_dir_(std::move(data_dir)),
      store_(store),
      outbox_(outbox),
      print_jobs_(print_jobs),
      book_(book),
      monitor_(monitor),
      clock_(clock),
      webhook_(webhook),
      metrics_(metrics) {}

void Health::CheckIfDue(UnixMicros now) {
  if (now < next_check_) return;
  next_check_ = now + kHealthCheckInterval;
  CheckHealth();
}

void Health::NoteStoreFailure(std::string_view where, const Status& status) {
  metrics_.CountStoreFailure(where);
  if (!store_failing_.exchange(true)) {
    logging::Error("serve", "store write failed", {{"where", where}, {"reason", status.message()}});
  } else {
    logging::Debug("serve", "store write failed again", {{"where", where}, {"reason", status.message()}});
  }
}

void Health::CheckHealth() {
  const long long free = FreeBytes(data_dir_);
  const long long floor = static_cast<long long>(config_.disk_free_floor_mb) << 20;
  const long long was = free_bytes_.exchange(free);
  if (free >= 0 && free < floor && (was < 0 || was >= floor))
    logging::Error("serve", "disk nearly full: new sales refused", {{"free", Megabytes(free)}, {"dir", data_dir_}});
  else if (free >= floor && was >= 0 && was < floor)
    logging::Info("serve", "disk space back: new sales accepted", {{"free", Megabytes(free)}});
  // After failures, one real write says whether the store works again.
  if (store_failing_.load() && free >= floor) {
    if (Status probe = store_.ProbeWrite(); probe.ok()) {
      store_failing_ = false;
      logging::Info("serve", "store writes work again");
    }
  }
  const Check clock = ClockCheck(clock_, config_.clock_offset_warn_s);
  if (!clock.ok && !std::exchange(clock_warned_, true))
    logging::Warn("serve", "clock offset", {{"reason", clock.text}});
  if (clock.ok && clock_.measured() && std::exchange(clock_warned_, false))
    logging::Info("serve", "clock offset back within the threshold", {{"detail", clock.text}});
}

json Health::HealthJson() {
  const auto item = [](const Check& check) { return json{{"ok", check.ok}, {"message", check.text}}; };
  Check bank{true, "online"};
  if (!monitor_.online()) bank = {false, "offline: the bank is unreachable; invoices are queued, card and Pix wait"};
  const long long free = free_bytes_.load();
  const long long floor = static_cast<long long>(config_.disk_free_floor_mb) << 20;
  Check disk{true, free < 0 ? "free space not measured yet" : Megabytes(free) + " free"};
  if (store_failing_.load())
    disk = {false, "disk full or failing: the store refused a write; sales in progress wait for it"};
  else if (free >= 0 && free < floor)
    disk = {false, "disk full: " + Megabytes(free) + " free, under " + Megabytes(floor) + ": new sales refused"};
  json health = {{"bank", item(bank)},
                 {"clock", item(ClockCheck(clock_, config_.clock_offset_warn_s))},
                 {"disk", item(disk)},
                 {"printer", item(PrinterCheck(print_jobs_))}};
  health["clock"]["offset_s"] = clock_.offset_micros() / kMicrosPerSecond;
  health["webhook"] = item(WebhookCheck(&webhook_));
  checkout::Cents bank_reversed = 0;
  health["settlement"] = item(SettlementCheck(store_, book_, clock_.Now(), bank_reversed));
  health["settlement"]["bank_reversed"] = bank_reversed;
  return health;
}

HttpResponse Health::Healthz() const { return Plain(200, "application/json; charset=utf-8", R"({"status":"ok"})"); }

HttpResponse Health::Readyz() {
  Check store_check;
  const long long free = free_bytes_.load();
  const long long floor = static_cast<long long>(config_.disk_free_floor_mb) << 20;
  if (Status dir = ProbeDirectory(data_dir_); !dir.ok()) {
    store_check = {
        false, (dir.message().find(std::strerror(ENOSPC)) != std::string::npos ? "disk full: " : "") + dir.message()};
  } else if (Status row = store_.ProbeWrite(); !row.ok()) {
    store_check = {false, std::string(row.code() == StatusCode::kResourceExhausted ? "disk full: " : "") +
                              "the store refused a write: " + row.message()};
  } else if (free >= 0 && free < floor) {
    store_check = {false, "disk full: " + Megabytes(free) + " free in " + data_dir_ + ", under the floor of " +
                              Megabytes(floor) + " (new sales refused)"};
  } else {
    store_check = {true, "wrote a file in " + data_dir_ + " and a row in " + store_.path()};
  }

  Check bank_check;
  if (monitor_.online()) {
    bank_check = {true, "online"};
  } else if (!store_check.ok) {
    bank_check = {false, "bank unreachable and the outbox cannot take requests (" + store_check.text + ")"};
  } else if (auto queue = outbox_.Metrics(); !queue.ok()) {
    bank_check = {false, "bank unreachable and the outbox cannot be read: " + queue.status().message()};
  } else {
    bank_check = {true, "offline: the bank is unreachable; the outbox takes requests (depth " +
                            std::to_string(queue->depth) + ")"};
  }

  const Check printer_check = PrinterCheck(print_jobs_);
  // Shown, never failing: the requests are signed with the bank's time whatever the box's is.
  const Check clock = ClockCheck(clock_, config_.clock_offset_warn_s);

  json failing = json::array();
  const std::pair<const char*, const Check*> checks[] = {
      {"store", &store_check}, {"bank", &bank_check}, {"printer", &printer_check}};
  json body = {{"checks", json::object()}};
  for (const auto& [name, check] : checks) {
    body["checks"][name] = ToJson(*check);
    if (!check->ok) failing.push_back(name);
  }
  body["checks"]["clock"] = {{"ok", true}, {"detail", clock.text}};
  if (!clock.ok) body["checks"]["clock"]["warning"] = clock.text;
  // Shown, never failing either: without the webhook, payments are seen by polling (later).
  const Check webhook_check = WebhookCheck(&webhook_);
  body["checks"]["webhook"] = {{"ok", true}, {"detail", webhook_check.text}};
  if (!webhook_check.ok) body["checks"]["webhook"]["warning"] = webhook_check.text;
  // Shown, never failing either: a night that did not settle its day wants the operator, the
  // counter still sells.
  checkout::Cents bank_reversed = 0;
  const Check night = SettlementCheck(store_, book_, clock_.Now(), bank_reversed);
  body["checks"]["settlement"] = {{"ok", true}, {"detail", night.text}};
  if (!night.ok) body["checks"]["settlement"]["warning"] = night.text;
  body["status"] = failing.empty() ? "ready" : "not-ready";
  body["failing"] = failing;
  return Plain(failing.empty() ? 200 : 503, "application/json; charset=utf-8",
               body.dump(-1, ' ', false, json::error_handler_t::replace));
}

HttpResponse Health::MetricsPage() {
  auto created = ScrapeGauges::Create();
  if (!created.ok()) return Plain(500, "text/plain; charset=utf-8", created.status().message() + "\n");
  ScrapeGauges& g = **created;
  int store_errors = 0;

  std::map<std::string, checkout::Cents> by_method;
  for (const SaleBook::Tally& tally : book_.TallyOfDay(StoreDay(clock_.Now()))) {
    const std::string method = tally.method.empty() ? "none" : tally.method;
    g.sales->With({method, tally.status}).Set(static_cast<double>(tally.sales));
    by_method[method] += tally.collected;
  }
  for (const auto& [method, cents] : by_method) g.collected->With({method}).Set(static_cast<double>(cents));

  if (auto queue = outbox_.Metrics(); queue.ok()) {
    g.outbox_depth->With({}).Set(static_cast<double>(queue->depth));
    g.outbox_unknown->With({}).Set(static_cast<double>(queue->unknown));
    g.outbox_failed->With({}).Set(static_cast<double>(queue->failed));
    g.outbox_oldest_age->With({}).Set(static_cast<double>(queue->oldest_age_ms) / 1000);
    g.outbox_at_risk->With({}).Set(static_cast<double>(queue->amount_at_risk));
  } else {
    ++store_errors;
  }

  if (auto jobs = print_jobs_.Stats(); jobs.ok()) {
    g.print_jobs->With({"queued"}).Set(static_cast<double>(jobs->queued));
    g.print_jobs->With({"printing"}).Set(static_cast<double>(jobs->printing));
    g.print_jobs->With({"printed"}).Set(static_cast<double>(jobs->printed));
    g.print_jobs->With({"failed"}).Set(static_cast<double>(jobs->failed));
  } else {
    ++store_errors;
  }

  // The latest run by the time it ran (a night settled late is still the last run).
  if (auto rows = offline::ListSettlements(store_, 7); rows.ok()) {
    auto latest = std::max_element(rows->begin(), rows->end(),
                                   [](const auto& a, const auto& b) { return a.settled_at_ms < b.settled_at_ms; });
    if (latest != rows->end()) {
      g.settlement_at->With({}).Set(static_cast<double>(latest->settled_at_ms) / 1000);
      for (const char* status : {"reconciled", "attention"})
        g.settlement_status->With({status}).Set(latest->status == status ? 1 : 0);
      g.settlement_attention->With({}).Set(latest->attention);
    }
  } else {
    ++store_errors;
  }

  g.bank_online->With({}).Set(monitor_.online() ? 1 : 0);
  g.failed_accepts->With({}).Inc(static_cast<double>(http::FailedAccepts()));
  g.clock_offset->With({}).Set(static_cast<double>(clock_.offset_micros()) / kMicrosPerSecond);
  if (const long long free = free_bytes_.load(); free >= 0) g.disk_free->With({}).Set(static_cast<double>(free));
  g.store_errors->With({}).Set(store_errors);
  return Plain(200, metrics::kContentType, metrics_.Render() + g.registry.Render());
}

}  // namespace balcao::terminal::service
