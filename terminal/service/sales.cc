// The box's sales (sales.h); a new sale's id is checkout/sale_id.h's.
#include "terminal/service/sales.h"

#include <algorithm>

#include "checkout/journal_codec.h"
#include "common/log.h"
#include "offline/store.h"
#include "terminal/internal/sale_events.h"

namespace balcao::terminal::service {

namespace {
// Each sale's timers are looked at this often (timers are seconds apart: polls every
// poll_interval_s, countdowns, lookup retries), so many open sales cost little.
constexpr UnixMicros kSaleTickInterval = 500'000;
}  // namespace

SaleDesk::SaleDesk(const api::Bank& bank, offline::Journal& journal, const Clock& clock, std::unique_ptr<SaleBook> book,
                   std::chrono::milliseconds tick_interval, std::function<void()> tick)
    : clock_(clock), journal_(journal), book_(std::move(book)) {
  watch_ = std::make_unique<SaleWatch>(*book_);
  book_->OnChange([this](const std::string& sale_id) { watch_->Changed(sale_id); });
  driver_ = std::make_unique<checkout::Driver>(bank, journal, clock,
                                               [this](const std::string& sale_id, const checkout::Effect& effect) {
                                                 touched_.insert(sale_id);
                                                 if (hooks_.on_effect) hooks_.on_effect(sale_id, effect);
                                               });
  loop_ = std::make_unique<DriverLoop>(tick_interval, std::move(tick));
}

void SaleDesk::SetHooks(Hooks hooks) { hooks_ = std::move(hooks); }

std::optional<SaleDesk::OpenRefusal> SaleDesk::OpenNewSale(const std::string& sale_id, checkout::Cents cents,
                                                           const checkout::Settings& settings, UnixMicros now) {
  if (Status added = book_->Add(sale_id, cents, now); !added.ok()) return OpenRefusal{true, added};
  auto sale = driver_->Open(sale_id, cents, settings);
  if (!sale.ok()) return OpenRefusal{false, sale.status()};
  touched_.insert(sale_id);
  return std::nullopt;
}

Status SaleDesk::EnsureOpen(const std::string& sale_id) {
  if (open_.count(sale_id) || driver_->Get(sale_id).ok()) return OkStatus();
  if (!book_->Knows(sale_id)) return NotFoundError("no sale " + sale_id + " on this box");
  return driver_->Resume(sale_id).status();
}

void SaleDesk::EnsureCopy(const std::string& sale_id) {
  if (book_->HasCopy(sale_id)) return;
  if (auto open = driver_->Get(sale_id); open.ok()) return book_->Put(*open);
  auto events = ReadSaleEvents(journal_, sale_id);
  if (events.ok()) book_->Put(checkout::Replay(*events));
}

Status SaleDesk::Acceptable(const std::string& sale_id, const checkout::Event& event) const {
  BALCAO_ASSIGN_OR_RETURN(const checkout::Sale sale, driver_->Get(sale_id));
  const checkout::Step step = checkout::Next(sale, event);
  return step.accepted() ? OkStatus() : step.rejection;
}

StatusOr<checkout::Sale> SaleDesk::FeedIfAccepted(const std::string& sale_id, const checkout::Event& event) {
  BALCAO_RETURN_IF_ERROR(Acceptable(sale_id, event));
  return driver_->Feed(sale_id, event);
}

void SaleDesk::PutTouched() {
  for (const std::string& id : touched_) {
    auto sale = driver_->Get(id);
    if (!sale.ok()) continue;
    book_->Put(*sale);
    // A sale that ended leaves the driver (its journal keeps it; EnsureOpen resumes it for a
    // refund): a busy day's memory stays flat. A cash register's stays while it may ask.
    const bool stays = hooks_.stays_open && hooks_.stays_open(id);
    if (checkout::IsTerminal(sale->state) && !stays && driver_->Close(id)) {
      open_.erase(id);
      next_tick_at_.erase(id);
      polled_soon_at_.erase(id);
    } else {
      open_.insert(id);
    }
  }
  touched_.clear();
}

void SaleDesk::Publish() {
  // The book first: a cash register told "paid" may ask the touchscreen's API at once, and
  // must find the sale paid there. Settling may touch sales again (a cancel): those follow.
  PutTouched();
  if (hooks_.after_publish) {
    hooks_.after_publish();
    PutTouched();
  }
}

void SaleDesk::TickSales(UnixMicros now, const std::function<void(const Status&)>& on_disk_failure) {
  for (const std::string& id : book_->Unsettled()) {
    if (!open_.count(id)) continue;
    UnixMicros& next = next_tick_at_[id];
    if (now < next) continue;
    // Fires the sale's due timers (polls, countdowns, lookup retries) and returns: the
    // deadline is 1 ms away, so a sale with nothing due costs at most that sleep.
    auto sale = driver_->RunUntilSettled(id, clock_.Now() + 1000);
    // Back at its next timer (a phone's payment is seen at its poll, not up to a tick later),
    // and at least every kSaleTickInterval: an event fed since may have armed an earlier one.
    next = std::min(now + kSaleTickInterval, driver_->NextTimer(id).value_or(now + kSaleTickInterval));
    // A timer whose event the disk refused fires again shortly (checkout::Driver): the poll
    // goes on, and sees the payment once the disk takes writes again.
    if (!sale.ok() && offline::IsDiskFailure(sale.status())) on_disk_failure(sale.status());
    touched_.insert(id);
  }
}

bool SaleDesk::PollSoon(const std::string& sale_id, UnixMicros now) {
  auto last = polled_soon_at_.find(sale_id);
  if (last != polled_soon_at_.end() && now - last->second < kMicrosPerSecond) return false;
  if (!driver_->PollNow(sale_id, now)) return false;
  polled_soon_at_[sale_id] = now;
  next_tick_at_[sale_id] = now;  // looked at by the next tick (Service's, every 100 ms)
  return true;
}

void SaleDesk::TouchUnsettled() {
  for (const std::string& id : book_->Unsettled()) touched_.insert(id);
}

void SaleDesk::ResumeFromJournal() {
  auto open = journal_.OpenSales();
  if (!open.ok()) {
    logging::Error("serve", "cannot list open sales", {{"reason", open.status().message()}});
    return;
  }
  for (const std::string& id : *open) {
    auto sale = driver_->Resume(id);
    if (!sale.ok()) {
      logging::Error("serve", "sale not resumed", {{"sale", id}, {"reason", sale.status().message()}});
      continue;
    }
    logging::Info("serve", "sale resumed", {{"sale", id}});
    touched_.insert(id);
  }
}

void SaleDesk::CopyRecentDays(UnixMicros now) {
  for (UnixMicros day : {now, now - 86400 * kMicrosPerSecond})
    for (const std::string& id : book_->IdsOfDay(StoreDay(day))) EnsureCopy(id);
}

}  // namespace balcao::terminal::service
