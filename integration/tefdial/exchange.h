// The two-phase confirmation of TEF Dial as a pure state machine over the exchange's history.
// A CRT opens a box sale (running); its outcome makes it declined or pending; CNF confirms a
// pending sale; NCN (or the unresolved-sale policy) undoes it, once; CNC gives a confirmed
// sale's money back, once. Repeated requests get the first answer (RequestKey). A new CRT while
// another sale is running or pending is refused (docs/adr/0007-tef-dial-one-sale-at-a-time.md).
// Decide() reads a request and says what to do; Apply() records what was done. Events are what
// the exchange log keeps (exchange_log.h): replaying them gives the same state.
// No I/O, no clock, no threads. Thread-safety: plain values.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/status.h"
#include "common/time.h"
#include "integration/tefdial/request.h"

namespace balcao::integration::tefdial {

enum class Phase { kRunning, kDeclined, kPending, kConfirmed, kUndoing, kUndone, kCancelling, kCancelled };
const char* PhaseName(Phase phase);  // "pending"

// What the box's sale gave the PDV when it was approved.
struct Approval {
  std::string method;         // "pix" | "card"
  std::string authorization;  // card: the purchase's id at the bank; Pix: the end-to-end id, else the deposit's id
  std::string card_mask;      // first 6 + last 4 at most; "" for Pix
  std::string funding;        // "credit" | "debit" | "" (Pix)
  int installments = 1;
  UnixMicros at = 0;
  std::string brand;  // the card's network as the counter gave it ("visa": the bank's record); "" for Pix or unknown
  auto operator<=>(const Approval&) const = default;
};

// One CRT and everything that happened to it.
struct TefSale {
  std::string key;         // RequestKey of the CRT: the payment's service id at the box's counter
  std::string request_id;  // 001-000 of the CRT
  std::string fiscal_document;
  Cents amount = 0;
  std::string response_name;  // "IntPos.001" or "intpos.001": the case the CRT used
  std::string sale_id;        // the box's sale once its outcome is known; also the 027-000 control code
  Phase phase = Phase::kRunning;
  UnixMicros opened_at = 0;
  std::string nsu;  // 012-000, given at approval
  Approval approval;
  std::string message;      // why it was declined
  std::string resolved_by;  // "cnf", "ncn", "policy-confirm", "policy-undo", "cnc"
  UnixMicros resolved_at = 0;
  // The CNC that cancels it, kept to answer once the money is back (also after a restart).
  std::string cnc_key, cnc_request_id, cnc_response_name;
};

// --- events (exchange_log.h keeps them) ---
struct CrtOpened {
  std::string key, request_id, fiscal_document;
  Cents amount = 0;
  std::string response_name;
  UnixMicros at = 0;
};
struct SaleApproved {
  std::string key;  // the CRT's
  std::string sale_id;
  std::string nsu;
  Approval approval;
};
struct SaleDeclined {
  std::string key;      // the CRT's
  std::string sale_id;  // "" when no sale started
  std::string message;
  UnixMicros at = 0;
};
struct Confirmed {
  std::string sale_id;
  std::string by;  // "cnf" | "policy-confirm"
  UnixMicros at = 0;
};
struct UndoStarted {
  std::string sale_id;
  std::string by;  // "ncn" | "policy-undo"
  UnixMicros at = 0;
};
struct Undone {
  std::string sale_id;
  UnixMicros at = 0;
};
struct CancelStarted {
  std::string sale_id;
  std::string request_key, request_id, response_name;  // the CNC's
  UnixMicros at = 0;
};
struct Cancelled {
  std::string sale_id;
  UnixMicros at = 0;
};
// The response written for a request: a repeat gets these bytes again.
struct Answered {
  std::string request_key;
  std::string text;
};
using Event = std::variant<CrtOpened, SaleApproved, SaleDeclined, Confirmed, UndoStarted, Undone, CancelStarted,
                           Cancelled, Answered>;

struct Exchange {
  std::vector<TefSale> sales;                  // in the order the CRTs came
  std::map<std::string, std::string> answers;  // RequestKey -> response text
  int last_nsu = 0;                            // NSUs are this box's sequence

  const TefSale* BySale(const std::string& sale_id) const;
  const TefSale* ByKey(const std::string& key) const;
  const TefSale* ByNsu(const std::string& nsu) const;
  // The sale a CNF or NCN names: by NSU, else by control code (the sale id).
  const TefSale* Named(const Request& request) const;
  // The CRT with this identity (RequestKey: id, fiscal document, amount, day), if one came.
  const TefSale* SameCrt(const Request& crt) const;
  // The sale still running or pending, if any (at most one: the ADR's rule).
  const TefSale* Open() const;
  // The last sale approved (ADM reprints its receipt).
  const TefSale* LastApproved() const;
};

// kFailedPrecondition when the event does not fit the sale's phase (a replayed log never
// produces one; the caller logs it and goes on), kNotFound for an unknown sale.
Status Apply(Exchange& exchange, const Event& event);
// The next NSU, 6 digits.
std::string NextNsu(const Exchange& exchange);

// What to do with a request.
enum class Verdict {
  kStatusOnly,  // ATV; or a CNF/NCN that changes nothing (already done, or unknown): no response file
  kRepeat,      // the same request again: write `answer` again
  kWait,        // the same CRT while its sale runs: the status file only, the response comes later
  kStart,       // a new CRT: open a box sale
  kConfirm,     // CNF of a pending sale
  kUndo,        // NCN of a pending sale
  kCancel,      // CNC of a confirmed sale
  kRefuse,      // answered with 009-000 != 0 and `message`
  kAdm,         // the administrative menu: reprint the last receipt
};
struct Decision {
  Verdict verdict = Verdict::kStatusOnly;
  std::string sale_id;  // the box's sale it concerns, when one
  std::string answer;   // kRepeat
  std::string message;  // kRefuse: for 030-000; otherwise why (for the log)
  std::string key;      // kWait: the running CRT's key
};
Decision Decide(const Exchange& exchange, const Request& request);

// Pending sales older than `after_s` at `now`: the unresolved-sale policy settles them.
std::vector<std::string> Overdue(const Exchange& exchange, UnixMicros now, std::int64_t after_s);

}  // namespace balcao::integration::tefdial
