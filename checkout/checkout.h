// The checkout: one pure state machine per sale (docs/style.md S8). Next(sale, event)
// returns the new sale and the effects to run, or a rejection with a reason; it does no I/O,
// reads no clock, starts no thread and draws no random number. Every transition is one row
// of the literal table in checkout/internal/table.cc, which Next() is driven by; Rows()
// exposes it (docs/checkout.md renders it and the tests walk it).
// Thread-safety: pure functions over values.
#pragma once

#include <compare>
#include <string>
#include <vector>

#include "checkout/effects.h"
#include "checkout/events.h"
#include "checkout/states.h"
#include "checkout/types.h"
#include "common/status.h"

namespace balcao::checkout {

// One sale: the facts fixed when it started, what exists at the bank for it, its money,
// and its state. A default Sale is the one before Start.
struct Sale {
  std::string id;
  Cents amount = 0;
  Settings settings;
  int attempts = 0;                // attempts started; each has its own tag
  std::vector<EntityRef> created;  // every bank entity that exists for this sale
  std::vector<Money> ledger;       // every cent the bank received for this sale
  State state;
  auto operator<=>(const Sale&) const = default;

  // What the sale collected: the payment line's received minus returned (0 without one).
  Cents collected() const;
  // Late money not yet returned.
  Cents late_outstanding() const;
  const Money* payment_line() const;
  const Money* FindMoney(const std::string& entity_id) const;
  bool Knows(EntityKind kind, const std::string& id) const;
  // The attempt that created the entity (0 when unknown).
  int AttemptOf(EntityKind kind, const std::string& id) const;
};

struct Step {
  Sale sale;                    // the new sale (the input, unchanged, when rejected)
  std::vector<Effect> effects;  // in order
  int row = -1;                 // index in Rows() of the transition taken, -1 when rejected
  Status rejection;             // kFailedPrecondition (or kInvalidArgument) naming the reason

  bool accepted() const { return row >= 0; }
};

Step Next(const Sale& sale, const Event& event);

// The merchant session a card attempt of `sale` asks the bank for (funding types, installment
// options, expiration, challenge mode, tags): what the customer's phone page may offer.
CreateSession SessionTerms(const Sale& sale, int attempt);

// While the box is known to be offline: why `event` cannot be taken now (choosing card or Pix,
// or retrying one, needs the bank at once), or nullptr. The driver shows the reason and does
// not feed the event; an invoice can still be chosen (its create is queued in the outbox).
const char* NeedsTheBankNow(const Sale& sale, const Event& event);

// The transition table, as data.
inline constexpr int kAnyState = -1;   // `from` of a row valid in every started state
inline constexpr int kSameState = -2;  // `to` of a row that keeps the state as it is
struct RowInfo {
  int from;             // State index or kAnyState
  int on;               // Event index
  const char* guard;    // name of the guard ("Always" when none)
  int to;               // State index or kSameState
  const char* action;   // name of the function computing the next state and effects
  const char* effects;  // the effects, as the docs list them
};
const std::vector<RowInfo>& Rows();

const char* StateName(int index);  // "ShowingPix"
const char* EventName(int index);  // "DepositSeen"
inline constexpr int kStateCount = static_cast<int>(std::variant_size_v<State>);
inline constexpr int kEventCount = static_cast<int>(std::variant_size_v<Event>);

// The table as Markdown (the block docs/checkout.md embeds; a test keeps them equal).
std::string RenderTableMarkdown();

}  // namespace balcao::checkout
