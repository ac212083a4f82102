// Bank event intake: turns a bank event (a webhook delivery checked by api::EventVerifier, or
// an element of GET /v2/event) into the checkout event of the sale it is about and feeds it
// to the driver: a merchant-purchase log becomes PurchaseSeen, an invoice log InvoiceSeen, a
// deposit log DepositSeen. The sale is named by the entity's tags (checkout/types.h, "Tags");
// a deposit carries only `dynamic-brcode/<uuid>`, so that brcode is read from the bank once
// and its sale tags remembered. A sale not open in the driver is resumed from its journal
// (late money for a closed sale is still flagged). Events of another lane's entities, or of a
// sale (old layout) this box never journaled, are left alone: neither fed nor acknowledged,
// so the box that owns them still finds them undelivered (docs/adr/0006-lane-event-intake.md).
// Duplicated, stale and reordered events need nothing here: the machine has a row for each
// (no change; late money flagged to the operator). With SetAppliedEvents, an event taken once
// (by its id, whichever way it came) is not fed again: it is answered kReplayed and changes
// nothing, not even the journal.
// Ownership: borrows the driver. Thread-safety: the driver's thread only.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "api/bank.h"
#include "api/events.h"
#include "checkout/driver/driver.h"
#include "common/status.h"
#include "common/time.h"
#include "offline/applied_events.h"

namespace balcao::checkout {

enum class IntakeOutcome {
  kApplied,   // fed to the sale, which took it (changed, flagged, or nothing new)
  kIgnored,   // not about a sale of this box, or nothing the checkout follows
  kNotYet,    // the sale cannot take it yet (say, a deposit for a brcode whose create answer
              // is still being looked up): do not acknowledge it, so the bank delivers it again
  kReplayed,  // taken before (applied or ignored): not fed again; acknowledge it
  kForeign,   // about another lane's sale: not fed, and never acknowledged by this box
};
inline constexpr std::array kIntakeOutcomeNames{"applied", "ignored", "not-yet", "replayed", "other-lane"};
constexpr const auto& NamesOf(IntakeOutcome) { return kIntakeOutcomeNames; }

struct IntakeResult {
  IntakeOutcome outcome = IntakeOutcome::kIgnored;
  std::string sale_id;  // empty when no sale was found
  std::string reason;   // why ignored / not yet ("" when applied)
};

// The sale an entity's tags name (either layout of checkout/types.h); "" when none does.
std::string SaleIdFromTags(const std::vector<std::string>& tags);

// How far back a catch-up reads when it has no cursor yet (at start): a box off for days
// finds its events of the whole window, whoever else was on meanwhile.
inline constexpr std::int64_t kCatchUpFirstWindowDays = 7;
// How far behind the newest event read the next catch-up starts again (events created at
// about the same time may be listed in either order).
inline constexpr std::int64_t kCatchUpOverlapMicros = 15 * 60 * kMicrosPerSecond;

class Intake {
 public:
  Intake(Driver& driver, api::Bank bank, const Clock& clock);

  // Remembers every event taken (applied or ignored) in `applied`, after it is taken, so that
  // the same event id again is kReplayed. Not owned; nullptr (the default) feeds every event.
  // A crash between feeding an event and recording it feeds it once more on its next delivery:
  // the sale's machine takes it as a duplicate (no change of state or money; one more
  // journal row).
  void SetAppliedEvents(offline::AppliedEvents* applied) { applied_ = applied; }
  // This box's lane (checkout::LaneRoot); "" (the default) for a box without one, which
  // takes only sales of the old layout. Entities of any other lane are kForeign.
  void SetLane(std::string lane) { lane_ = std::move(lane); }
  // How far back the first catch-up reads (days; kCatchUpFirstWindowDays by default).
  void SetFirstWindowDays(std::int64_t days) { first_window_days_ = days; }

  // Acknowledge the delivery (HTTP 200) on kApplied, kIgnored and kReplayed; answer an error on
  // kNotYet or an error status (the bank could not be asked, the journal or the record of
  // applied events failed) so it comes again; on kForeign answer anything but 200, since a
  // 200 marks the event delivered for every box (the owner's catch-up would miss it).
  StatusOr<IntakeResult> Take(const api::Event& event);
  // The same for an element of GET /v2/event (api::Bank::event()).
  StatusOr<IntakeResult> Take(const api::BankEvent& event);
  // The catch-up for when webhooks do not arrive (run at start and now and then): reads every
  // page of the bank's events not yet marked delivered created since the cursor's day
  // (GET /v2/event?isDelivered=false&after=<day>, `page_limit` a page), takes them oldest
  // first, and marks delivered (PATCH) the ones this box took (applied, ignored, replayed),
  // never another lane's. The cursor starts kCatchUpFirstWindowDays back and then follows the
  // time of the last run, less kCatchUpOverlapMicros, but never past an event not taken yet.
  // The bank's `after` is a date: a run reads the undelivered events of the cursor's day on.
  // Returns how many were applied.
  StatusOr<int> CatchUp(int page_limit = 100);
  // Events of other lanes the last catch-up left undelivered (for the operator's status).
  int foreign_left() const { return foreign_left_; }

 private:
  StatusOr<IntakeResult> TakeNew(const api::Event& event);  // Take without the record
  StatusOr<TaggedSale> SaleOfBrcode(const std::string& uuid);
  // Feeds the sale the tags name when it is this lane's; kForeign otherwise.
  StatusOr<IntakeResult> FeedOwn(const TaggedSale& tagged, const std::string& what,
                                 const std::function<Event(const Sale&)>& make);
  // Opens the sale (or resumes it from its journal) and feeds it make(sale).
  StatusOr<IntakeResult> Feed(const std::string& sale_id, const std::function<Event(const Sale&)>& make);

  Driver& driver_;
  api::Bank bank_;
  const Clock& clock_;
  offline::AppliedEvents* applied_ = nullptr;
  std::string lane_;
  std::int64_t first_window_days_ = kCatchUpFirstWindowDays;
  UnixMicros cursor_ = 0;  // 0: no catch-up yet
  int foreign_left_ = 0;
  std::map<std::string, TaggedSale> brcode_sales_;  // brcode uuid -> its sale, as the bank tagged it
};

}  // namespace balcao::checkout
