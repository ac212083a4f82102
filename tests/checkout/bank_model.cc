#include "tests/checkout/bank_model.h"

#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tests/checkout/scenarios.h"

namespace balcao::checkout::testing {
namespace {

using Life = BankModel::Life;
std::string N(const char* prefix, int attempt) { return prefix + std::to_string(attempt); }
int AttemptOf(const std::string& id) { return std::stoi(id.substr(1)); }
// The purchase the store-and-forward made for a sealed card is "p9".
constexpr int kForwardedAttempt = 9;

Event PurchaseView(const BankModel& b, int n) {
  const std::string id = N("p", n);
  const Cents amount = b.received.count(id) ? b.Net(id) : kAmount;
  return Purchase(n, id, b.purchases.at(n), amount);
}
Event InvoiceView(const BankModel& b, int n) {
  const std::string id = N("i", n);
  const Cents amount = b.received.count(id) ? b.Net(id) : kAmount;
  return InvoiceUpdate(id, b.invoices.at(n), amount);
}
bool IsRead(const BankCall& call) {
  return std::holds_alternative<GetPurchase>(call) || std::holds_alternative<FindDeposit>(call) ||
         std::holds_alternative<GetInvoice>(call) || std::holds_alternative<FindByTag>(call);
}

class MoveList {
 public:
  explicit MoveList(const BankModel& bank) : bank_(bank) {}
  void Add(Event event, BankModel after) { moves_.push_back({std::move(event), std::move(after)}); }
  void Add(Event event) { Add(std::move(event), bank_); }
  void Silent(BankModel after) { moves_.push_back({std::nullopt, std::move(after)}); }
  std::vector<Move> Take() { return std::move(moves_); }

 private:
  const BankModel& bank_;
  std::vector<Move> moves_;
};

// What the driver puts in the outbox when `call` cannot reach the bank (nullopt: nothing, it
// needs the bank now). A failed lookup for an invoice whose create's outcome is unknown hands
// the create itself to the outbox, which looks it up before any send.
std::optional<BankCall> Queueable(const BankCall& call) {
  if (const auto* r = std::get_if<ReduceAmount>(&call)) return r->late_money ? std::nullopt : std::optional(call);
  if (const auto* find = std::get_if<FindByTag>(&call); find && find->kind == EntityKind::kInvoice) return call;
  if (std::holds_alternative<CreateInvoice>(call) || std::holds_alternative<CancelInvoice>(call)) return call;
  return std::nullopt;
}
Call QueuedCall(const BankCall& call) {
  if (std::holds_alternative<CreateInvoice>(call) || std::holds_alternative<FindByTag>(call)) {
    return Call::kCreateInvoice;
  }
  return std::holds_alternative<CancelInvoice>(call) ? Call::kCancelInvoice : Call::kReversal;
}
int QueuedAttempt(const BankCall& call) {
  if (const auto* create = std::get_if<CreateInvoice>(&call)) return create->attempt;
  if (const auto* find = std::get_if<FindByTag>(&call)) return find->attempt;
  return 1;
}

// Every answer the bank could give to `call`; `rest` is the bank without the call in flight.
void Answers(MoveList& moves, const BankCall& call, const BankModel& rest) {
  auto create = [&](Call kind, Event answer, const BankModel& created) {
    moves.Add(answer, created);
    moves.Add(Failed(kind, Failure::kOutcomeUnknown), created);  // committed, answer lost
    moves.Add(Failed(kind, Failure::kOutcomeUnknown), rest);     // lost before it committed
    moves.Add(Failed(kind, Failure::kRejected), rest);
  };
  std::visit(
      [&](const auto& c) {
        using C = std::decay_t<decltype(c)>;
        BankModel b = rest;
        if constexpr (std::is_same_v<C, CreateSession>) {
          b.sessions[c.attempt] = Life::kLive;
          create(Call::kCreateSession, SessionOk(c.attempt), b);
        } else if constexpr (std::is_same_v<C, CreateBrcode>) {
          b.brcodes[c.attempt] = Life::kLive;
          create(Call::kCreateBrcode, BrcodeOk(c.attempt), b);
        } else if constexpr (std::is_same_v<C, CreateInvoice>) {
          b.invoices[c.attempt] = InvoiceStatus::kCreated;
          create(Call::kCreateInvoice, InvoiceOk(c.attempt), b);
        } else if constexpr (std::is_same_v<C, CreatePurchase>) {
          const int n = c.attempt;
          if (!rest.sessions.count(n) || rest.sessions.at(n) != Life::kLive) {
            moves.Add(Failed(Call::kCreatePurchase, Failure::kRejected), rest);
            return;
          }
          for (PurchaseStatus s : {PurchaseStatus::kApproved, PurchaseStatus::kDenied, PurchaseStatus::kPending}) {
            BankModel made = rest;
            made.purchases[n] = s;
            if (s == PurchaseStatus::kApproved) made.received[N("p", n)] = kAmount;
            if (s != PurchaseStatus::kPending) made.undelivered.insert(PurchaseView(made, n));
            moves.Add(PurchaseView(made, n), made);
            moves.Add(Failed(Call::kCreatePurchase, Failure::kOutcomeUnknown), made);
          }
          moves.Add(Failed(Call::kCreatePurchase, Failure::kOutcomeUnknown), rest);
          moves.Add(Failed(Call::kCreatePurchase, Failure::kRejected), rest);
        } else if constexpr (std::is_same_v<C, FindByTag>) {
          const int n = c.attempt;
          const bool found = (c.kind == EntityKind::kSession && rest.sessions.count(n)) ||
                             (c.kind == EntityKind::kPurchase && rest.purchases.count(n)) ||
                             (c.kind == EntityKind::kBrcode && rest.brcodes.count(n)) ||
                             (c.kind == EntityKind::kInvoice && rest.invoices.count(n));
          if (!found) {
            moves.Add(Found(c.kind, n), rest);
          } else if (c.kind == EntityKind::kSession) {
            moves.Add(SessionOk(n), rest);
          } else if (c.kind == EntityKind::kPurchase) {
            moves.Add(PurchaseView(rest, n), rest);
          } else if (c.kind == EntityKind::kBrcode) {
            moves.Add(BrcodeOk(n), rest);
          } else {
            moves.Add(InvoiceOk(n), rest);
          }
          moves.Add(Failed(Call::kLookup, Failure::kOutcomeUnknown), rest);
        } else if constexpr (std::is_same_v<C, GetPurchase>) {
          moves.Add(PurchaseView(rest, c.attempt), rest);
          moves.Add(Failed(Call::kPoll, Failure::kNotSent), rest);
        } else if constexpr (std::is_same_v<C, FindDeposit>) {
          const int n = AttemptOf(c.tag.substr(c.tag.find('/') + 1));
          if (rest.brcodes.count(n) && rest.brcodes.at(n) == Life::kPaid) {
            moves.Add(Deposit(N("d", n), N("u", n)), rest);
          } else {
            moves.Add(Found(EntityKind::kDeposit, n), rest);
          }
          moves.Add(Failed(Call::kPoll, Failure::kNotSent), rest);
        } else if constexpr (std::is_same_v<C, GetInvoice>) {
          moves.Add(InvoiceView(rest, AttemptOf(c.invoice_id)), rest);
          moves.Add(Failed(Call::kPoll, Failure::kNotSent), rest);
        } else if constexpr (std::is_same_v<C, CancelInvoice>) {
          const int n = AttemptOf(c.invoice_id);
          if (!IsOpen(rest.invoices.at(n))) {
            moves.Add(Failed(Call::kCancelInvoice, Failure::kRejected), rest);
            return;
          }
          b.invoices[n] = InvoiceStatus::kCanceled;
          b.undelivered.insert(InvoiceView(b, n));
          moves.Add(InvoiceView(b, n), b);
          moves.Add(Failed(Call::kCancelInvoice, Failure::kOutcomeUnknown), b);
          moves.Add(Failed(Call::kCancelInvoice, Failure::kOutcomeUnknown), rest);
        } else if constexpr (std::is_same_v<C, ReduceAmount>) {
          const Call kind = c.late_money ? Call::kLateReturn : Call::kReversal;
          const bool is_purchase = c.kind == EntityKind::kPurchase;
          const int n = AttemptOf(c.entity_id);
          const bool confirmed = is_purchase && rest.purchases.at(n) == PurchaseStatus::kConfirmed;
          if (c.new_amount > rest.Net(c.entity_id) || (c.cancel_authorization && confirmed)) {
            moves.Add(Failed(kind, Failure::kRejected), rest);
            return;
          }
          if (c.new_amount == rest.Net(c.entity_id)) {  // an earlier send took effect: idempotent
            moves.Add(ReversedTo(c.entity_id, c.new_amount), rest);
            moves.Add(Failed(kind, Failure::kOutcomeUnknown), rest);
            return;
          }
          b.returned[c.entity_id] = b.received[c.entity_id] - c.new_amount;
          if (is_purchase && c.new_amount == 0) {
            b.purchases[n] = confirmed ? PurchaseStatus::kVoided : PurchaseStatus::kCanceled;
          }
          if (is_purchase) b.undelivered.insert(PurchaseView(b, n));
          if (c.kind == EntityKind::kInvoice) b.undelivered.insert(InvoiceView(b, n));
          moves.Add(ReversedTo(c.entity_id, c.new_amount), b);
          moves.Add(Failed(kind, Failure::kOutcomeUnknown), b);
          moves.Add(Failed(kind, Failure::kOutcomeUnknown), rest);
          moves.Add(Failed(kind, Failure::kRejected), rest);
        }
      },
      call);
}

// What the customer, the issuer and time do at the bank, silently (events come later).
void BankSide(MoveList& moves, const Sale& sale, const BankModel& bank) {
  for (const auto& [n, status] : bank.purchases) {
    if (status == PurchaseStatus::kPending && bank.sessions.at(n) == Life::kLive) {
      for (PurchaseStatus s : {PurchaseStatus::kApproved, PurchaseStatus::kDenied}) {
        BankModel b = bank;
        b.purchases[n] = s;
        if (s == PurchaseStatus::kApproved) b.received[N("p", n)] = kAmount;
        b.undelivered.insert(PurchaseView(b, n));
        moves.Silent(b);
      }
    }
    if (status == PurchaseStatus::kPending && bank.sessions.at(n) != Life::kLive) {
      BankModel b = bank;  // the issuer answers after the session expired: a late approval
      b.purchases[n] = PurchaseStatus::kApproved;
      b.late.insert(N("p", n));
      b.received[N("p", n)] = kAmount;
      b.undelivered.insert(PurchaseView(b, n));
      moves.Silent(b);
    }
    if (IsCharged(status) && bank.Net(N("p", n)) > 0 && sale.FindMoney(N("p", n))) {
      BankModel b = bank;  // once counted, someone reverses it on the bank's own dashboard
      b.returned[N("p", n)] = b.received[N("p", n)];
      b.purchases[n] = PurchaseStatus::kVoided;
      b.undelivered.insert(PurchaseView(b, n));
      moves.Silent(b);
    }
    if (status == PurchaseStatus::kApproved && bank.Net(N("p", n)) == kAmount) {
      BankModel b = bank;
      b.purchases[n] = PurchaseStatus::kConfirmed;
      b.undelivered.insert(PurchaseView(b, n));
      moves.Silent(b);
    }
  }
  for (const auto& [n, life] : bank.brcodes) {
    // Paid while live, or after our countdown ended (an expired QR the payer's bank still took).
    if (life == Life::kPaid) continue;
    BankModel b = bank;
    if (life == Life::kExpired) b.late.insert(N("d", n));
    b.brcodes[n] = Life::kPaid;
    b.received[N("d", n)] = kAmount;
    b.undelivered.insert(Deposit(N("d", n), N("u", n)));
    moves.Silent(b);
  }
  for (const auto& [n, status] : bank.invoices) {
    const std::string id = N("i", n);
    if (IsPaid(status) && bank.Net(id) > 0 && sale.FindMoney(id)) {
      BankModel b = bank;  // once counted, reversed on the bank's own dashboard
      b.returned[id] = b.received[id];
      b.undelivered.insert(InvoiceView(b, n));
      moves.Silent(b);
    }
    if (!IsOpen(status)) continue;
    for (Cents paid : {kAmount, kAmount + 50}) {  // on time; after due with fine and interest
      BankModel b = bank;
      b.invoices[n] = InvoiceStatus::kPaid;
      b.received[N("i", n)] = paid;
      b.undelivered.insert(InvoiceView(b, n));
      moves.Silent(b);
    }
    BankModel b = bank;
    b.invoices[n] = InvoiceStatus::kExpired;
    b.undelivered.insert(InvoiceView(b, n));
    moves.Silent(b);
  }
}

}  // namespace

Cents BankModel::Net(const std::string& id) const {
  auto r = received.find(id);
  auto t = returned.find(id);
  return (r == received.end() ? 0 : r->second) - (t == returned.end() ? 0 : t->second);
}
Cents BankModel::TotalNet() const {
  Cents sum = 0;
  for (const auto& [id, amount] : received) sum += Net(id);
  return sum;
}
Cents BankModel::TimelyNet() const {
  Cents sum = 0;
  for (const auto& [id, amount] : received) sum += late.count(id) ? 0 : Net(id);
  return sum;
}
int BankModel::EntitiesWithMoney() const { return static_cast<int>(received.size()); }
bool BankModel::HasLiveChargeable() const {
  for (const auto& [n, s] : purchases) {
    if ((s == PurchaseStatus::kPending || s == PurchaseStatus::kCreated) && sessions.at(n) == Life::kLive) {
      return true;
    }
  }
  for (const auto& [n, life] : brcodes) {
    if (life == Life::kLive) return true;
  }
  for (const auto& [n, s] : invoices) {
    if (IsOpen(s)) return true;
  }
  for (const BankCall& call : queued) {
    if (std::holds_alternative<CreateInvoice>(call)) return true;  // the outbox will create it
  }
  return false;
}
bool BankModel::HasEntityFor(int attempt) const {
  return sessions.count(attempt) || purchases.count(attempt) || brcodes.count(attempt) || invoices.count(attempt);
}

void SendCalls(BankModel& bank, const std::vector<Effect>& effects) {
  for (const Effect& effect : effects) {
    const BankCall* call = std::get_if<BankCall>(&effect);
    if (!call) continue;
    bool duplicate_read = false;
    for (const BankCall& c : bank.inflight) duplicate_read |= IsRead(*call) && c == *call;
    if (!duplicate_read) bank.inflight.push_back(*call);
  }
}

std::vector<Move> Moves(const Sale& sale, const BankModel& bank) {
  MoveList moves(bank);
  for (Event e : {StartSale(), Choose(Method::kCard), Choose(Method::kPix), Choose(Method::kInvoice), Card(),
                  Cancelled(), Event{Retry{kT0 + 40 * kSec}}, Event{FallbackToInvoice{TestCustomer(), kT0 + 40 * kSec}},
                  Event{KeepOpen{kT0 + 5 * kSec}}, Event{PrintCode{kT0 + 9 * kSec}}, ReverseBy(kAmount), ReverseBy(400),
                  HeldOffline(), ForwardedDeclined()}) {
    moves.Add(e);
  }
  // The forwarder charged the sealed card: its purchase ("p9": not an attempt of the sale)
  // exists at the bank, approved, with the amount.
  if (std::holds_alternative<CardHeld>(sale.state)) {
    BankModel charged = bank;
    charged.purchases[kForwardedAttempt] = PurchaseStatus::kApproved;
    charged.received[N("p", kForwardedAttempt)] = kAmount;
    moves.Add(ForwardedOk(N("p", kForwardedAttempt)), charged);
  }
  for (const Money& line : sale.ledger) {
    if (line.role == MoneyRole::kLate && line.net() > 0) {
      moves.Add(ReturnLateMoney{line.ref.id, "op-7", "customer asked", kT0 + 90 * kSec});
    }
  }
  moves.Add(Fired(Timer::kPoll));
  moves.Add(Fired(Timer::kLookupRetry));
  BankModel later = bank;
  for (auto& [n, life] : later.sessions) life = life == Life::kLive ? Life::kExpired : life;
  moves.Add(Fired(Timer::kSessionExpiry, kT0 + 600 * kSec), later);
  later = bank;
  for (auto& [n, life] : later.brcodes) life = life == Life::kLive ? Life::kExpired : life;
  moves.Add(Fired(Timer::kBrcodeExpiry, kT0 + 600 * kSec), later);
  for (std::size_t i = 0; i < bank.inflight.size(); ++i) {
    BankModel rest = bank;
    rest.inflight.erase(rest.inflight.begin() + static_cast<std::ptrdiff_t>(i));
    Answers(moves, bank.inflight[i], rest);
    if (std::optional<BankCall> queueable = Queueable(bank.inflight[i])) {  // not sent: into the outbox
      BankModel queued = rest;
      queued.queued.push_back(*queueable);
      moves.Add(QueuedAs(QueuedCall(*queueable), QueuedAttempt(*queueable)), queued);
    }
  }
  for (std::size_t i = 0; i < bank.queued.size(); ++i) {
    BankModel rest = bank;
    rest.queued.erase(rest.queued.begin() + static_cast<std::ptrdiff_t>(i));
    BankCall call = bank.queued[i];
    if (const auto* find = std::get_if<FindByTag>(&call)) {  // queued as "may have reached the bank"
      if (rest.invoices.count(find->attempt)) {              // it did: the outbox's lookup finds it
        moves.Add(InvoiceOk(find->attempt), rest);
        continue;
      }
      CreateInvoice create;  // absent: the outbox sends the create
      create.attempt = find->attempt;
      call = create;
    }
    MoveList settled(rest);
    Answers(settled, call, rest);
    for (Move& m : settled.Take()) {  // the outbox reports done or refused, never "unknown"
      const auto* failed = std::get_if<CallFailed>(&*m.event);
      if (failed && failed->failure == Failure::kOutcomeUnknown) continue;
      moves.Add(std::move(*m.event), std::move(m.bank));
    }
  }
  BankSide(moves, sale, bank);
  for (const Event& e : bank.undelivered) {
    BankModel b = bank;
    b.undelivered.erase(e);
    b.delivered.insert(e);
    moves.Add(e, b);
  }
  for (const Event& e : bank.delivered) moves.Add(e);  // delivered again (duplicate, reordered)
  return moves.Take();
}

}  // namespace balcao::checkout::testing
