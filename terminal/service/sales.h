// The box's sales on the driver's thread (docs/terminal.md, "Inside"): the checkout driver that
// runs them, the thread it runs on (DriverLoop: every piece of driver work is posted there), and
// the sale book (sale_book.h) that keeps their copies for the API, with the touchscreen's long
// polls on it (sale_watch.h). The touchscreen's routes, the cash-register counter, the bank's
// events and the offline cards open, feed and look up sales here.
// Owns: the driver, its loop, the book and its watch, which sales are open in the driver, which
// changed since the last Publish, and when each open sale's timers are looked at next.
// Calls: the bank (through the driver), the journal, and the hooks the service sets (a sale's
// effects; which sales stay open; what runs after each Publish).
// Thread-safety: the driver's thread, but for loop(), book() and watch() (their own locks).
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "api/bank.h"
#include "checkout/checkout.h"
#include "checkout/driver/driver.h"
#include "common/status.h"
#include "common/time.h"
#include "offline/journal.h"
#include "terminal/service/driver_loop.h"
#include "terminal/service/sale_book.h"
#include "terminal/service/sale_watch.h"

namespace balcao::terminal::service {

class SaleDesk {
 public:
  // What the service wires in: a sale's effects (Show, Print, FlagOperator), whether a sale that
  // ended stays open in the driver (a cash register's may still ask), and what runs after each
  // Publish has put the touched sales in the book (the counter answers the registers there).
  struct Hooks {
    checkout::Driver::Observer on_effect;
    std::function<bool(const std::string& sale_id)> stays_open;
    std::function<void()> after_publish;
  };
  // `book` loaded; `tick` runs on the driver's thread every `tick_interval` between tasks.
  SaleDesk(const api::Bank& bank, offline::Journal& journal, const Clock& clock, std::unique_ptr<SaleBook> book,
           std::chrono::milliseconds tick_interval, std::function<void()> tick);
  SaleDesk(const SaleDesk&) = delete;
  SaleDesk& operator=(const SaleDesk&) = delete;
  void SetHooks(Hooks hooks);

  checkout::Driver& driver() { return *driver_; }
  const checkout::Driver& driver() const { return *driver_; }
  DriverLoop& loop() { return *loop_; }
  SaleBook& book() { return *book_; }
  const SaleBook& book() const { return *book_; }
  SaleWatch& watch() { return *watch_; }

  void Touch(const std::string& sale_id) { touched_.insert(sale_id); }
  bool IsOpen(const std::string& sale_id) const { return open_.count(sale_id) > 0; }

  struct OpenRefusal {
    bool in_book;  // the book refused the new sale (the store's fault), else the driver did
    Status status;
  };
  // Opens a new sale: its row in the book, then the driver; it is then touched.
  std::optional<OpenRefusal> OpenNewSale(const std::string& sale_id, checkout::Cents cents,
                                         const checkout::Settings& settings, UnixMicros now);
  // Opens in the driver a sale this box knows that is not open there (kNotFound: none such).
  Status EnsureOpen(const std::string& sale_id);
  // The sale's copy in the book, from the driver or, when not open there, the journal.
  void EnsureCopy(const std::string& sale_id);
  // The driver journals every event it is fed before its machine decides, refused ones too
  // (a replay refuses them again). A cashier's request the machine would refuse is answered
  // without feeding it, so no request the API refuses writes to the store (sale_routes.cc).
  Status Acceptable(const std::string& sale_id, const checkout::Event& event) const;
  StatusOr<checkout::Sale> FeedIfAccepted(const std::string& sale_id, const checkout::Event& event);
  // Copies every touched sale into the book, then runs the after-publish hook (which may touch
  // sales again: those follow). A sale that ended leaves the driver unless it stays open.
  void Publish();
  // Fires the due timers of the open unsettled sales, each at its next timer and at least every
  // kSaleTickInterval; `on_disk_failure` hears of a timer's event the disk refused.
  void TickSales(UnixMicros now, const std::function<void(const Status&)>& on_disk_failure);
  // The customer's phone says the bank answered its purchase: the sale's armed poll runs at the
  // next tick instead of at its interval. At most once a second per sale, so that a phone (or
  // whoever holds its link) cannot make the box ask the bank more often than that. False when
  // nothing was moved.
  bool PollSoon(const std::string& sale_id, UnixMicros now);
  void TouchUnsettled();  // after the event catch-up: its sales are tracked from here
  // At start: the open sales of the journal resumed in the driver (and touched).
  void ResumeFromJournal();
  // The sales of `now`'s store day and the day before copied into the book.
  void CopyRecentDays(UnixMicros now);

 private:
  void PutTouched();

  const Clock& clock_;
  offline::Journal& journal_;
  std::unique_ptr<SaleBook> book_;
  std::unique_ptr<SaleWatch> watch_;
  std::unique_ptr<checkout::Driver> driver_;
  std::unique_ptr<DriverLoop> loop_;
  Hooks hooks_;
  std::set<std::string> open_;                        // open in the driver
  std::set<std::string> touched_;                     // changed since the last Publish
  std::map<std::string, UnixMicros> next_tick_at_;    // sale -> when its timers are looked at
  std::map<std::string, UnixMicros> polled_soon_at_;  // sale -> its last PollSoon that moved a poll
};

}  // namespace balcao::terminal::service
