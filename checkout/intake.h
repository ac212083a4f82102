// Bank event intake: turns a bank event (a webhook delivery checked by api::EventVerifier, or
// an element of GET /v2/event) into the checkout event of the sale it is about and feeds it
// to the driver: a merchant-purchase log becomes PurchaseSeen, an invoice log InvoiceSeen, a
// deposit log DepositSeen. The sale is named by the entity's tag `sale/<id>`; a deposit
// carries only `dynamic-brcode/<uuid>`, so that brcode is read from the bank once and its
// sale tag remembered. A sale not open in the driver is resumed from its journal (late money
// for a closed sale is still flagged); events of entities of no sale on this box are ignored.
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
#include "checkout/driver.h"
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
};
inline constexpr std::array kIntakeOutcomeNames{"applied", "ignored", "not-yet", "replayed"};
constexpr const auto& NamesOf(IntakeOutcome) { return kIntakeOutcomeNames; }

struct IntakeResult {
  IntakeOutcome outcome = IntakeOutcome::kIgnored;
  std::string sale_id;  // empty when no sale was found
  std::string reason;   // why ignored / not yet ("" when applied)
};

// The sale an entity's tags name ("sale/<id>" or "sale/<id>/a<n>"); "" when none does.
std::string SaleIdFromTags(const std::vector<std::string>& tags);

class Intake {
 public:
  Intake(Driver& driver, api::Bank bank, const Clock& clock);

  // Remembers every event taken (applied or ignored) in `applied`, after it is taken, so that
  // the same event id again is kReplayed. Not owned; nullptr (the default) feeds every event.
  // A crash between feeding an event and recording it feeds it once more on its next delivery:
  // the sale's machine takes it as a duplicate (no change of state or money; one more
  // journal row).
  void SetAppliedEvents(offline::AppliedEvents* applied) { applied_ = applied; }

  // Acknowledge the delivery (HTTP 200) on kApplied, kIgnored and kReplayed; answer an error on
  // kNotYet or an error status (the bank could not be asked, the journal or the record of
  // applied events failed) so it comes again.
  StatusOr<IntakeResult> Take(const api::Event& event);
  // The same for an element of GET /v2/event (api::Bank::event()).
  StatusOr<IntakeResult> Take(const api::BankEvent& event);
  // The catch-up for when webhooks do not arrive (run at start and now and then): reads the
  // bank's events not yet marked delivered (GET /v2/event?isDelivered=false, up to `limit`),
  // takes them oldest first, and marks the applied and ignored ones delivered (PATCH) so they
  // are not read again. Returns how many were applied.
  StatusOr<int> CatchUp(int limit = 100);

 private:
  StatusOr<IntakeResult> TakeNew(const api::Event& event);  // Take without the record
  StatusOr<std::string> SaleOfBrcode(const std::string& uuid);
  // Opens the sale (or resumes it from its journal) and feeds it make(sale).
  StatusOr<IntakeResult> Feed(const std::string& sale_id, const std::function<Event(const Sale&)>& make);

  Driver& driver_;
  api::Bank bank_;
  const Clock& clock_;
  offline::AppliedEvents* applied_ = nullptr;
  std::map<std::string, std::string> brcode_sales_;  // brcode uuid -> sale id, as the bank tagged it
};

}  // namespace balcao::checkout
