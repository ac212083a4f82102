// A small model of the bank for one sale, used by the exhaustive exploration: it remembers
// what the checkout asked for (calls in flight), what exists at the bank (sessions,
// purchases, brcodes, invoices and their states), the money per entity, and the bank events
// not yet delivered. Moves() lists everything that can happen next — cashier actions, timer
// expiries, every possible answer to every call in flight (including lost answers after the
// bank committed, and not-sent failures), the customer paying or the issuer deciding, and
// the delivery, duplication and reordering of bank events — each with the bank it leaves.
// A call the driver may queue while offline (invoice create, cancel, reversal) can also be
// answered `Queued`: it moves to the model's outbox, which later settles it exactly once
// (done: the bank acts and the answer comes; refused: CallFailed) — never "outcome unknown",
// because the outbox resolves that itself before it reports.
#pragma once

#include <compare>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checkout/checkout.h"

namespace balcao::checkout::testing {

struct BankModel {
  enum class Life { kLive, kExpired, kPaid };
  std::vector<BankCall> inflight;           // sent by the checkout, not answered yet
  std::vector<BankCall> queued;             // in the outbox (the bank was offline), not settled yet
  std::map<int, Life> sessions;             // attempt -> session life
  std::map<int, PurchaseStatus> purchases;  // attempt -> status of "p<attempt>"
  std::map<int, Life> brcodes;              // attempt -> brcode "u<attempt>"
  std::map<int, InvoiceStatus> invoices;    // attempt -> status of "i<attempt>"
  std::map<std::string, Cents> received;    // entity id -> money received
  std::map<std::string, Cents> returned;    // entity id -> money given back
  std::set<std::string> late;               // charged after its deadline (expired QR...)
  std::set<Event> undelivered;              // bank events (webhooks) not delivered yet
  std::set<Event> delivered;                // delivered once; may come again
  auto operator<=>(const BankModel&) const = default;

  Cents Net(const std::string& id) const;
  Cents TotalNet() const;
  // Money on entities charged before their deadline: what the checkout can know about.
  Cents TimelyNet() const;
  int EntitiesWithMoney() const;
  // A purchase that may still be charged, an unexpired unpaid brcode, an open invoice.
  bool HasLiveChargeable() const;
  bool HasEntityFor(int attempt) const;
};

struct Move {
  std::optional<Event> event;  // nullopt: a silent change at the bank (the customer paid...)
  BankModel bank;              // the bank after the move
};

std::vector<Move> Moves(const Sale& sale, const BankModel& bank);

// Adds the bank calls among `effects` to the calls in flight.
void SendCalls(BankModel& bank, const std::vector<Effect>& effects);

}  // namespace balcao::checkout::testing
