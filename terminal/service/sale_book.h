// The service's book of sales, for the touchscreen: the day index (data dir `sales.idx`,
// one line per sale opened on this box: the journal has no listing by day), the latest copy
// of each sale the driver's thread published, what the counter was told (the last screen
// message, operator flags, the text of each receipt printed), and the JSON views and QR
// images the web app reads. The driver's thread writes; HTTP threads read.
// Memory stays flat over a busy day: a sale that ended (paid, refunded, voided) keeps its full
// copy and receipts only while it is among the last kFullCopiesKept to end; after that only its
// row of the day's list is kept (the journal has the rest: EnsureCopy brings it back).
// Thread-safety: every method may be called from any thread.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "checkout/checkout.h"
#include "common/status.h"
#include "common/time.h"
#include "terminal/service/sale_view.h"

namespace balcao::terminal::service {

// The store's day of `at`: its São Paulo business day (BusinessDayOf, common/time.h).
std::string StoreDay(UnixMicros at);
// `text` as an SVG QR code (black modules on white, 4-module quiet zone); "" if it does not fit.
std::string QrSvg(const std::string& text);

class SaleBook {
 public:
  explicit SaleBook(std::string index_path);

  // Reads the day index (a missing file is an empty book).
  Status Load();
  // Appends the sale to the index (fsync'ed) before the driver opens it.
  Status Add(const std::string& sale_id, checkout::Cents amount, UnixMicros opened_at);
  bool Knows(const std::string& sale_id) const;  // in the index
  // The sale itself is here (an ended sale past the last kFullCopiesKept is not: its journal has it).
  bool HasCopy(const std::string& sale_id) const;
  // Its row of the day's list is here (a copy, or what an ended sale left).
  bool HasView(const std::string& sale_id) const;
  std::optional<checkout::Sale> Copy(const std::string& sale_id) const;
  static constexpr std::size_t kFullCopiesKept = 32;

  void Put(const checkout::Sale& sale);  // the sale as it is now
  // Each sale's version moves on when its view changes (Put of an unchanged sale does not move
  // it); `changed` is then called with its id, on the changing thread, outside the book's lock.
  // Set before the first change.
  void OnChange(std::function<void(const std::string&)> changed);
  std::uint64_t Version(const std::string& sale_id) const;  // 0: no change yet
  void SetMessage(const std::string& sale_id, const std::string& message);
  void AddFlag(const std::string& sale_id, const std::string& flag);
  void AddReceipt(const std::string& sale_id, const std::string& text);
  void SetInstallments(const std::string& sale_id, int installments);
  int Installments(const std::string& sale_id) const;
  // A cash register's sale (docs/integration.md): the register's name, shown on the screen.
  void SetRegister(const std::string& sale_id, const std::string& register_name);
  std::vector<std::string> Receipts(const std::string& sale_id) const;  // the text of each printed
  // A register's reversal waiting for a supervisor on the screen (0: none), in the view.
  void SetReversalRequested(const std::string& sale_id, checkout::Cents amount);

  // The sale as the web app reads it (docs/terminal.md, "JSON API"), its "version" first;
  // nullopt when no view. An
  // ended sale past the last kFullCopiesKept answers its list row (no receipts).
  std::optional<std::string> ViewJson(const std::string& sale_id) const;
  // The text of the sale's current QR (Pix code, 3-D Secure URL, invoice code); "" for none.
  std::string QrText(const std::string& sale_id) const;
  // The sale whose card session `uuid` the customer's phone may pay now (AwaitingCard), if any.
  std::optional<checkout::Sale> AwaitingPhone(const std::string& uuid) const;
  // The card session `sale_id` waits on (AwaitingCard), if any.
  std::optional<checkout::CardSession> OpenCardSession(const std::string& sale_id) const;
  // Sales opened on `day` (StoreDay), oldest first, and those of them without a copy yet.
  std::vector<std::string> IdsOfDay(const std::string& day) const;
  // {"day":..., "sales":[views...], "totals":{...}} of the sales of `day` that have a copy.
  std::string DayJson(const std::string& day) const;
  // The sales of `day` that have a copy, counted by method ("" before one was chosen) and
  // status (the view's: paid, refunded, voided, pay-later, queued, pix...), with the cents
  // they collected; ordered by method then status (GET /metrics).
  struct Tally {
    std::string method, status;
    int sales = 0;
    checkout::Cents collected = 0;
  };
  std::vector<Tally> TallyOfDay(const std::string& day) const;
  // Sales not yet over (for the status line): ids.
  std::vector<std::string> Unsettled() const;
  // Sales whose money the bank took back outside Balcão (checkout::Money::bank_lowered), as
  // their copies last showed it: the health line's "estornado no banco". A sale not ticked
  // since a restart is missing until it is.
  struct LoweredAtBank {
    std::string sale_id;
    checkout::Cents amount = 0;
    UnixMicros seen_at = 0;  // when the box saw it (the latest line's)
  };
  std::vector<LoweredAtBank> LoweredAtBankSales() const;

 private:
  struct Entry {
    checkout::Cents amount = 0;
    UnixMicros opened_at = 0;
    // The latest copy; null before the first, and once let go (behind a pointer: an ended
    // sale's entry does not keep a Sale's room).
    std::unique_ptr<checkout::Sale> sale;
    std::optional<SaleRow> ended;  // instead of `sale`, once let go
    bool among_ended = false;      // in ended_order_
    std::string message;
    std::vector<std::string> flags;
    std::vector<std::string> receipts;
    int installments = 1;
    std::string register_name;  // "" for the touchscreen's own sales
    checkout::Cents reversal_requested = 0;
    std::uint64_t version = 0;
  };
  // Applies `edit` under the lock; when it says it changed the entry, moves the version on
  // and tells on_change_.
  void Change(const std::string& sale_id, const std::function<bool(Entry&)>& edit);
  std::string ViewLocked(const std::string& id, const Entry& entry, bool with_receipts = true) const;
  // Counts a sale that just ended; lets go of the copy of the one that ended kFullCopiesKept ago.
  void NoteEndedLocked(const std::string& id, Entry& entry);

  const std::string index_path_;
  mutable std::mutex mu_;
  std::map<std::string, Entry> entries_;          // guarded by mu_
  std::deque<std::string> ended_order_;           // guarded by mu_: sales that ended, with their copy, oldest first
  std::uint64_t last_version_ = 0;                // guarded by mu_
  std::map<std::string, LoweredAtBank> lowered_;  // guarded by mu_: LoweredAtBankSales
  std::function<void(const std::string&)> on_change_;
};

}  // namespace balcao::terminal::service
