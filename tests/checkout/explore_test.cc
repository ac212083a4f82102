// Exhaustive exploration: from a sale in every state, every sequence of up to kDepth events
// drawn from what can happen next (tests/checkout/bank_model.h: cashier actions, timer
// expiries, every answer to every call in flight including lost answers after a commit,
// payments and decisions at the bank, bank events delivered late, twice or out of order),
// asserting the invariants of docs/checkout.md after every step. Worlds (sale + bank) are
// memoised with the remaining depth, so each (world, depth) pair is expanded once; the test
// prints how many sequences that covers.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "checkout/checkout.h"
#include "tests/checkout/bank_model.h"
#include "tests/checkout/scenarios.h"

namespace balcao::checkout::testing {
namespace {

#if defined(__SANITIZE_ADDRESS__)
// The CI's ASan+UBSan build is Debug and ~50x slower: it explores 3 deep (~0.5 million
// sequences, seconds); the normal build explores the full 6 (~13 billion).
constexpr int kDepth = 3;
constexpr std::uint64_t kMinSequences = 100'000;
#else
constexpr int kDepth = 6;
constexpr std::uint64_t kMinSequences = 1'000'000'000;
#endif

struct World {
  Sale sale;
  BankModel bank;
  auto operator<=>(const World&) const = default;
};

bool CarriesMoney(const Event& e) {
  if (const auto* p = std::get_if<PurchaseSeen>(&e)) return IsCharged(p->status);
  if (const auto* i = std::get_if<InvoiceSeen>(&e)) return IsPaid(i->status);
  return std::holds_alternative<DepositSeen>(e);
}
int PaymentLines(const Sale& s) {
  int n = 0;
  for (const Money& m : s.ledger) n += m.role == MoneyRole::kPayment;
  return n;
}
const Payment* KeptPayment(const State& state) {
  if (const auto* p = std::get_if<Paid>(&state)) return &p->payment;
  if (const auto* r = std::get_if<Reversing>(&state)) return &r->payment;
  if (const auto* f = std::get_if<Refunded>(&state)) return &f->payment;
  return nullptr;
}

class Explorer {
 public:
  std::uint64_t sequences = 0;  // event sequences of length 1..kDepth covered
  std::uint64_t steps = 0;      // Next() calls made
  std::vector<std::string> violations;
  std::set<int> rows_fired;

  std::uint64_t Explore(const World& w, int remaining) {
    if (remaining == 0) return 0;
    auto key = std::make_pair(w, remaining);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::uint64_t count = 0;
    for (Move& move : Moves(w.sale, w.bank)) {
      World next{w.sale, std::move(move.bank)};
      if (!move.event) {  // a change at the bank: no event for the sale, costs no depth
        count += Explore(next, remaining);
        continue;
      }
      ++steps;
      trail_.push_back(EventName(static_cast<int>(move.event->index())));
      Step step = Next(w.sale, *move.event);
      if (step.accepted()) {
        rows_fired.insert(step.row);
        next.sale = std::move(step.sale);
        SendCalls(next.bank, step.effects);
      } else if (CarriesMoney(*move.event)) {
        // The driver does not acknowledge a money event it could not apply: the bank delivers
        // it again later, so it is not lost.
        next.bank.delivered.erase(*move.event);
        next.bank.undelivered.insert(*move.event);
      }
      Check(w, *move.event, step, next);
      count += 1 + Explore(next, remaining - 1);
      trail_.pop_back();
      if (violations.size() > 20) return count;
    }
    memo_.emplace(std::move(key), count);
    return count;
  }

  std::size_t worlds() const { return memo_.size(); }

 private:
  void Fail(const World& w, const Event& e, const std::string& what) {
    std::string trail;
    for (const std::string& t : trail_) trail += " > " + t;
    violations.push_back(what + " | state " + StateName(static_cast<int>(w.sale.state.index())) + " + " +
                         EventName(static_cast<int>(e.index())) + " | after" + trail);
  }

  void Check(const World& before, const Event& e, const Step& step, const World& after) {
    const Sale& s = after.sale;
    const BankModel& bank = after.bank;
    // 1. at most one successful charge per sale
    if (PaymentLines(s) > 1) Fail(before, e, "two payment lines");
    // 2. no charge started while one may exist; a re-send only after "found nothing"
    for (const Effect& effect : step.effects) {
      const BankCall* call = std::get_if<BankCall>(&effect);
      if (!call) continue;
      std::visit(
          [&](const auto& c) {
            using C = std::decay_t<decltype(c)>;
            if constexpr (std::is_same_v<C, CreatePurchase>) {
              if (before.bank.purchases.count(c.attempt)) Fail(before, e, "second purchase for one attempt");
            } else if constexpr (std::is_same_v<C, CreateSession> || std::is_same_v<C, CreateBrcode> ||
                                 std::is_same_v<C, CreateInvoice>) {
              if (c.attempt > before.sale.attempts) {
                if (before.bank.HasLiveChargeable() || before.bank.TimelyNet() != 0) {
                  Fail(before, e, "new attempt while a charge may exist");
                }
              } else if (before.bank.HasEntityFor(c.attempt)) {
                Fail(before, e, "create re-sent although the first one took effect");
              }
            }
          },
          *call);
    }
    // ... and a create handed to the outbox as never sent must not exist at the bank already
    if (const auto* queued = std::get_if<Queued>(&e); queued && queued->call == Call::kCreateInvoice &&
                                                      std::holds_alternative<CreatingInvoice>(before.sale.state) &&
                                                      before.bank.invoices.count(queued->attempt)) {
      Fail(before, e, "create queued as never sent although it took effect");
    }
    // 3. money conserved
    for (const Money& line : s.ledger) {
      auto r = bank.received.find(line.ref.id);
      if (r == bank.received.end() || r->second != line.received) Fail(before, e, "ledger received != bank");
      if (bank.Net(line.ref.id) > line.net()) Fail(before, e, "ledger counts a reversal the bank did not make");
    }
    if (IsTerminal(s.state) && bank.inflight.empty() && bank.undelivered.empty()) {
      for (const Money& line : s.ledger) {
        // A return whose answer was lost may have happened: the operator was flagged.
        if (bank.Net(line.ref.id) != line.net() && !line.returning) {
          Fail(before, e, "ledger net != bank net at rest");
        }
      }
      bool unsure = false;
      for (const Money& line : s.ledger) unsure |= line.returning;
      if (!unsure && bank.TotalNet() != s.collected() + s.late_outstanding()) {
        Fail(before, e, "bank money != collected + late at rest");
      }
    }
    // 4. terminal states are left only by the refund path
    if (IsTerminal(before.sale.state) && s.state.index() != before.sale.state.index() &&
        !(std::holds_alternative<Paid>(before.sale.state) && std::holds_alternative<Reversing>(s.state))) {
      Fail(before, e, std::string("left terminal state for ") + StateName(static_cast<int>(s.state.index())));
    }
    // 5. late money is always flagged
    for (const Money& line : s.ledger) {
      if (line.role != MoneyRole::kLate || before.sale.FindMoney(line.ref.id)) continue;
      bool flagged = false;
      for (const Effect& effect : step.effects) {
        const auto* f = std::get_if<FlagOperator>(&effect);
        flagged |= f && f->entity_id == line.ref.id;
      }
      if (!flagged || !line.flagged) Fail(before, e, "late money recorded without a flag");
    }
    // 6. state and ledger agree
    const Payment* kept = KeptPayment(s.state);
    const Money* line = s.payment_line();
    if (kept && (!line || line->ref != kept->kept)) Fail(before, e, "kept payment without its ledger line");
    if (std::holds_alternative<Voided>(s.state) && line) Fail(before, e, "voided sale with a payment");
    if (std::holds_alternative<Refunded>(s.state) && line && line->net() != 0) {
      Fail(before, e, "refunded sale still holds money");
    }
  }

  std::map<std::pair<World, int>, std::uint64_t> memo_;
  std::vector<std::string> trail_;
};

// The seed world for a state: its PathTo() events replayed against the bank model, letting
// the bank act silently where the path needs it (a customer paying before the deposit event).
World Seed(const std::string& state, Method paid_by) {
  World w;
  for (const Event& e : PathTo(state, paid_by)) {
    bool done = false;
    for (int silent = 0; silent < 2 && !done; ++silent) {
      std::vector<Move> first = Moves(w.sale, w.bank);
      for (Move& m : first) {
        if (done) break;
        std::vector<Move> candidates;
        if (silent == 0) {
          candidates.push_back(m);
        } else if (!m.event) {
          candidates = Moves(w.sale, m.bank);
        }
        for (Move& c : candidates) {
          if (!c.event || !(*c.event == e)) continue;
          Step step = Next(w.sale, e);
          EXPECT_TRUE(step.accepted()) << step.rejection.message();
          w.bank = std::move(c.bank);
          w.sale = std::move(step.sale);
          SendCalls(w.bank, step.effects);
          done = true;
          break;
        }
      }
    }
    EXPECT_TRUE(done) << "the bank model cannot produce " << EventName(static_cast<int>(e.index())) << " on the way to "
                      << state;
  }
  EXPECT_EQ(StateName(static_cast<int>(w.sale.state.index())), state);
  return w;
}

TEST(Exploration, EverySequenceOfUpToSixEventsFromEveryStateKeepsTheInvariants) {
  Explorer explorer;
  int seeds = 0;
  for (int s = 0; s < kStateCount; ++s) {
    const std::string state = StateName(s);
    const bool money_state = state == "Paid" || state == "Reversing" || state == "Refunded";
    for (Method m : {Method::kCard, Method::kPix, Method::kInvoice}) {
      if (!money_state && m != Method::kCard) continue;
      explorer.sequences += explorer.Explore(Seed(state, m), kDepth);
      ++seeds;
    }
  }
  std::cout << "[ explored ] " << seeds << " seed states, " << explorer.sequences << " event sequences (length 1-"
            << kDepth << "), " << explorer.worlds() << " distinct (sale, bank, depth) nodes, " << explorer.steps
            << " Next() calls\n";
  std::cout << "[ explored ] " << explorer.rows_fired.size() << " of " << Rows().size() << " table rows fired\n";
  for (int i = 0; i < static_cast<int>(Rows().size()); ++i) {
    if (!explorer.rows_fired.count(i)) {
      std::cout << "[ explored ] not fired: row " << i << " " << StateName(Rows()[i].from) << " + "
                << EventName(Rows()[i].on) << " [" << Rows()[i].guard << "]\n";
    }
  }
  for (const std::string& v : explorer.violations) ADD_FAILURE() << v;
  EXPECT_GT(explorer.sequences, kMinSequences);
}

}  // namespace
}  // namespace balcao::checkout::testing
