// The checkout driver: runs the pure state machine of each sale against the bank. For every
// event it (1) appends the event to the sale journal (offline::Journal, durable on return),
// (2) computes Next(), (3) runs the effects: bank calls through api::Bank (their answers are
// fed back as events, journaled the same way), timers, screens, slips and operator flags
// (handed to the observer). After a crash, Resume() replays the journal and turns whatever
// was in flight into a lookup (checkout/resume.h): a create is never re-sent blindly.
// Card numbers and security codes stay in this object's memory for the one purchase call.
// Offline (SetOutbox, SetBankOnline): an invoice create, an invoice cancel or a reversal that
// cannot reach the bank goes to the outbox, durably and in the same transaction as the Queued
// event that tells the sale; from then on only the outbox sends it, and Reconcile() feeds the
// sale its outcome. Card and Pix need the bank now: refused while offline, with the reason.
// Ownership: borrows the journal and the clock. Thread-safety: not thread-safe; one driver
// per counter (one thread), which may run many sales.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "api/bank.h"
#include "checkout/checkout.h"
#include "common/status.h"
#include "common/time.h"
#include "offline/journal.h"
#include "offline/outbox.h"

namespace balcao::checkout {

// Where the cardholder's card bills, from the customer form (3-D Secure asks for it).
struct BillingAddress {
  std::string street_line1;
  std::string street_line2;  // may be empty (no complement)
  std::string city;
  std::string state_code;    // "SP"
  std::string zip_code;      // "01310-100"
  std::string country_code;  // ISO 3166-1 alpha-3, "BRA"
};
// Read from the card reader / touchscreen; lives only in the driver's memory. Only what was
// read is sent: an empty field is left out of the purchase, never filled with a stand-in.
struct CardData {
  std::string number;
  std::string security_code;
  std::string expiration;  // "YYYY-MM"
  std::string holder_name;
  std::string holder_email;
  std::string holder_phone;
  BillingAddress billing;
};
// 3-D Secure device data (the metadata of docs/wire.md, "Card acceptance"), from the browser
// the card was entered on: its User-Agent header and the peer address as the service sees
// them, the language, screen and timezone its page reported. Empty (no user agent): no
// metadata is sent, and a session whose challenge mode needs it has the bank refuse the
// purchase.
struct BrowserData {
  std::string user_agent;
  std::string user_ip;
  std::string language;             // "pt-BR"
  int timezone_offset_minutes = 0;  // JavaScript's getTimezoneOffset(): 180 for UTC-3
  std::string screen;               // "1920x1080", "" when unknown
  bool empty() const { return user_agent.empty(); }
};

class Driver {
 public:
  // Everything the counter must see or do: Show, Print, FlagOperator (and the rest, for logs).
  using Observer = std::function<void(const std::string& sale_id, const Effect& effect)>;
  // Test hook: called right after each journal write ("journaled") and right after each
  // bank call returns ("called"); returning true stops the driver there, as a crash would.
  using CrashHook = std::function<bool(const char* point)>;

  Driver(api::Bank bank, offline::Journal& journal, const Clock& clock, Observer observer = {});

  // Opens a sale (journals Start). kFailedPrecondition with the reason if Start is rejected.
  StatusOr<Sale> Open(const std::string& sale_id, Cents amount, const Settings& settings);
  // Feeds one cashier event (or any event) to an open sale. Returns the sale afterwards;
  // a rejected event is journaled and reported as kFailedPrecondition.
  StatusOr<Sale> Feed(const std::string& sale_id, const Event& event);
  // Keeps the card in memory under a fresh reference and feeds SubmitCard.
  StatusOr<Sale> SubmitCard(const std::string& sale_id, CardData card, FundingType funding, int installments,
                            BrowserData browser = {});
  // Runs due timers (sleeping in between) until the sale is settled (Paid, Refunded, Voided,
  // PayLater or back at ChoosingMethod after an attempt) or `deadline` passes.
  StatusOr<Sale> RunUntilSettled(const std::string& sale_id, UnixMicros deadline);
  // After a restart: replays the sale's journal and resumes what was in flight.
  StatusOr<Sale> Resume(const std::string& sale_id);
  // When the sale's earliest timer is due (a poll, a countdown); nullopt when none is armed or
  // the sale is not open here. RunUntilSettled fires it.
  std::optional<UnixMicros> NextTimer(const std::string& sale_id) const;
  // Brings the sale's armed poll forward to `now` (the customer's phone says the bank just
  // answered its purchase): the next run of due timers asks the bank at once instead of at the
  // poll's interval. Only a poll already armed moves; false when there is none.
  bool PollNow(const std::string& sale_id, UnixMicros now);
  // The sale as the driver has it (kNotFound when not open in this driver).
  StatusOr<Sale> Get(const std::string& sale_id) const;
  // Lets go of a sale that ended (Paid, Refunded or Voided): a busy day's finished sales are
  // not kept in memory; the journal keeps them, and Resume() opens one again when it is
  // touched (a refund, a late event). False (and nothing done) for a sale not ended or not open.
  bool Close(const std::string& sale_id);

  // The outbox of the journal's store (the Queued event and the row are written together).
  // Without one, a call that cannot reach the bank fails as before (CallFailed{not-sent}).
  void SetOutbox(offline::Outbox* outbox) { outbox_ = outbox; }
  // What the connectivity monitor says (offline::ConnectivityMonitor::Subscribe). Offline:
  // card and Pix are refused with the reason shown (Show(choose-method)), and a queueable
  // call goes to the outbox without being tried first. A call that comes back "not sent" is
  // queued either way.
  void SetBankOnline(bool online) { bank_online_ = online; }
  // Called after any bank call that could not be sent (connect or TLS failed): wire it to
  // offline::ConnectivityMonitor::ReportNotSent so the box learns at once that it is offline.
  void OnNotSent(std::function<void()> listener) { on_not_sent_ = std::move(listener); }
  // Called when the lookup after an outcome unknown (FindByTag, docs/adr/0002) is answered:
  // `found` when the bank had the entity, false when it had nothing (the create is sent
  // again). A lookup that fails, or that goes to the outbox, resolves nothing yet.
  void OnUnknownResolved(std::function<void(EntityKind kind, bool found)> listener) {
    on_unknown_resolved_ = std::move(listener);
  }
  bool bank_online() const { return bank_online_; }
  // Feeds the sale the outcome of the outbox row it waits for, if the row has settled (done:
  // the bank's answer; refused or given up: CallFailed). Call it on the driver's thread after
  // Drainer::OnSettled reports a row of the sale (post it there: the drainer calls back on
  // the io_context), or any time; Resume() calls it, and a sale not open in this driver is
  // resumed from its journal first. Returns the sale, changed or not.
  StatusOr<Sale> Reconcile(const std::string& sale_id);

  void SetCrashHookForTest(CrashHook hook) { crash_hook_ = std::move(hook); }
  bool crashed() const { return crashed_; }

 private:
  struct OpenSale {
    Sale sale;
    std::int64_t seq = 0;
    std::map<Timer, UnixMicros> timers;
  };
  Status Apply(OpenSale& open, Event event);
  // Runs one bank call, or queues it (see SetOutbox). `pending` events precede its answer.
  StatusOr<Event> Run(OpenSale& open, const BankCall& call, std::size_t pending, const CardData* card,
                      const BrowserData* browser);
  bool Crash(const char* point);

  api::Bank bank_;
  offline::Journal& journal_;
  offline::Outbox* outbox_ = nullptr;
  bool bank_online_ = true;
  std::function<void()> on_not_sent_;
  std::function<void(EntityKind, bool)> on_unknown_resolved_;
  const Clock& clock_;
  Observer observer_;
  CrashHook crash_hook_;
  bool crashed_ = false;
  std::map<std::string, OpenSale> sales_;
  struct HeldCard {
    CardData card;
    BrowserData browser;
  };
  std::map<std::string, HeldCard> cards_;  // card_ref -> card, erased after the purchase call
  std::int64_t next_card_ref_ = 0;
};

}  // namespace balcao::checkout
