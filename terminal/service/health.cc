// GET /healthz, /readyz and /metrics (docs/terminal.md, "Health and metrics"). Answered on
// the io thread, never queued behind the driver: /readyz writes one probe file and one store
// row, /metrics reads the store with a few indexed queries; neither calls the bank (the
// connectivity monitor's last verdict is used).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "common/metrics.h"
#include "offline/settlement_records.h"
#include "terminal/service/service_impl.h"
#include "terminal/service/service_metrics.h"

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

// A job waiting this long for the spooler means the spooler or the printer is stuck (the
// spooler looks every 500 ms; one job takes seconds at most).
constexpr std::int64_t kPrintStuckMs = 60'000;

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

}  // namespace

HttpResponse Service::Impl::Healthz() const {
  return Plain(200, "application/json; charset=utf-8", R"({"status":"ok"})");
}

HttpResponse Service::Impl::Readyz() {
  Check store_check;
  if (Status dir = ProbeDirectory(options.data_dir); !dir.ok()) {
    store_check = {false, dir.message()};
  } else if (Status row = store->ProbeWrite(); !row.ok()) {
    store_check = {false, "the store refused a write: " + row.message()};
  } else {
    store_check = {true, "wrote a file in " + options.data_dir + " and a row in " + store->path()};
  }

  Check bank_check;
  if (monitor->online()) {
    bank_check = {true, "online"};
  } else if (!store_check.ok) {
    bank_check = {false, "bank unreachable and the outbox cannot take requests (" + store_check.text + ")"};
  } else if (auto queue = outbox->Metrics(); !queue.ok()) {
    bank_check = {false, "bank unreachable and the outbox cannot be read: " + queue.status().message()};
  } else {
    bank_check = {true, "offline: the bank is unreachable; the outbox takes requests (depth " +
                            std::to_string(queue->depth) + ")"};
  }

  Check printer_check;
  if (auto jobs = print_jobs->Stats(); !jobs.ok()) {
    printer_check = {false, "cannot read the print jobs: " + jobs.status().message()};
  } else if (jobs->last_failed) {
    printer_check = {false, "the last print job failed (" + jobs->last_error + "); " + std::to_string(jobs->failed) +
                                " failed job(s) wait for a reprint"};
  } else if (const std::int64_t waited =
                 jobs->oldest_waiting_created_at_ms == 0
                     ? 0
                     : SystemClock::Instance().Now() / 1000 - jobs->oldest_waiting_created_at_ms;
             waited > kPrintStuckMs) {
    printer_check = {false, std::to_string(jobs->queued + jobs->printing) + " job(s) waiting, the oldest for " +
                                std::to_string(waited / 1000) + " s: the spooler or the printer is stuck"};
  } else {
    printer_check = {true, std::to_string(jobs->printed) + " printed, " + std::to_string(jobs->queued) + " queued, " +
                               std::to_string(jobs->failed) + " failed"};
  }

  json failing = json::array();
  const std::pair<const char*, const Check*> checks[] = {
      {"store", &store_check}, {"bank", &bank_check}, {"printer", &printer_check}};
  json body = {{"checks", json::object()}};
  for (const auto& [name, check] : checks) {
    body["checks"][name] = ToJson(*check);
    if (!check->ok) failing.push_back(name);
  }
  body["status"] = failing.empty() ? "ready" : "not-ready";
  body["failing"] = failing;
  return Plain(failing.empty() ? 200 : 503, "application/json; charset=utf-8",
               body.dump(-1, ' ', false, json::error_handler_t::replace));
}

HttpResponse Service::Impl::MetricsPage() {
  auto created = ScrapeGauges::Create();
  if (!created.ok()) return Plain(500, "text/plain; charset=utf-8", created.status().message() + "\n");
  ScrapeGauges& g = **created;
  int store_errors = 0;

  std::map<std::string, checkout::Cents> by_method;
  for (const SaleBook::Tally& tally : book->TallyOfDay(StoreDay(SystemClock::Instance().Now()))) {
    const std::string method = tally.method.empty() ? "none" : tally.method;
    g.sales->With({method, tally.status}).Set(static_cast<double>(tally.sales));
    by_method[method] += tally.collected;
  }
  for (const auto& [method, cents] : by_method) g.collected->With({method}).Set(static_cast<double>(cents));

  if (auto queue = outbox->Metrics(); queue.ok()) {
    g.outbox_depth->With({}).Set(static_cast<double>(queue->depth));
    g.outbox_unknown->With({}).Set(static_cast<double>(queue->unknown));
    g.outbox_failed->With({}).Set(static_cast<double>(queue->failed));
    g.outbox_oldest_age->With({}).Set(static_cast<double>(queue->oldest_age_ms) / 1000);
    g.outbox_at_risk->With({}).Set(static_cast<double>(queue->amount_at_risk));
  } else {
    ++store_errors;
  }

  if (auto jobs = print_jobs->Stats(); jobs.ok()) {
    g.print_jobs->With({"queued"}).Set(static_cast<double>(jobs->queued));
    g.print_jobs->With({"printing"}).Set(static_cast<double>(jobs->printing));
    g.print_jobs->With({"printed"}).Set(static_cast<double>(jobs->printed));
    g.print_jobs->With({"failed"}).Set(static_cast<double>(jobs->failed));
  } else {
    ++store_errors;
  }

  // The latest run by the time it ran (a night settled late is still the last run).
  if (auto rows = offline::ListSettlements(*store, 7); rows.ok()) {
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

  g.bank_online->With({}).Set(monitor->online() ? 1 : 0);
  g.store_errors->With({}).Set(store_errors);
  return Plain(200, metrics::kContentType, metrics->Render() + g.registry.Render());
}

}  // namespace balcao::terminal::service
