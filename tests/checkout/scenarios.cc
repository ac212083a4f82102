#include "tests/checkout/scenarios.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace balcao::checkout::testing {

Settings TestSettings() {
  Settings s;
  s.installments = {3, 300};
  return s;
}
Customer TestCustomer() { return {"Maria da Silva", "337.451.076-08"}; }

Event StartSale() { return Start{kSaleId, kAmount, TestSettings(), kT0}; }
Event Choose(Method method) {
  return ChooseMethod{method, method == Method::kInvoice ? TestCustomer() : Customer{}, kT0 + kSec};
}
Event SessionOk(int attempt) {
  return SessionCreated{attempt, "sess" + std::to_string(attempt), "uuid" + std::to_string(attempt), kT0 + 600 * kSec,
                        kT0 + 2 * kSec};
}
Event Card(UnixMicros at) { return SubmitCard{"card-1", "424242******4242", FundingType::kCredit, 1, at}; }
Event Purchase(int attempt, const std::string& id, PurchaseStatus status, Cents amount, UnixMicros at) {
  const bool challenge = status == PurchaseStatus::kPending;
  return PurchaseSeen{attempt, id, status, amount, challenge ? "https://acs.example/c/" + id : "", "", at};
}
Event BrcodeOk(int attempt) {
  const std::string uuid = "u" + std::to_string(attempt);
  return BrcodeCreated{attempt, uuid, "00020101021226...6304" + uuid, kT0 + 600 * kSec, kT0 + 2 * kSec};
}
Event Deposit(const std::string& id, const std::string& uuid, Cents amount, UnixMicros at) {
  return DepositSeen{id, uuid, amount, at};
}
Event InvoiceOk(int attempt) {
  const std::string id = "i" + std::to_string(attempt);
  return InvoiceCreated{
      attempt,       id, "00020101021226...inv" + id, "https://bank.example/invoice/" + id, kT0 + 2 * 86400 * kSec,
      kT0 + 2 * kSec};
}
Event InvoiceUpdate(const std::string& id, InvoiceStatus status, Cents amount, UnixMicros at) {
  return InvoiceSeen{id, status, amount, at};
}
Event Failed(Call call, Failure failure, UnixMicros at) { return CallFailed{call, failure, "simulated", at}; }
Event Fired(Timer timer, UnixMicros at) { return TimerFired{timer, at}; }
Event Found(EntityKind kind, int attempt, UnixMicros at) { return NothingFound{kind, attempt, at}; }
Event Cancelled() { return Cancel{"op-7", "customer gave up", kT0 + 70 * kSec}; }
Event ReverseBy(Cents amount) { return Reverse{amount, "op-7", "returned goods", kT0 + 80 * kSec}; }
Event ReversedTo(const std::string& entity_id, Cents net) { return Reversed{entity_id, net, kT0 + 81 * kSec}; }
Event HeldOffline() { return CardHeldOffline{"424242******4242", FundingType::kCredit, 1, kT0 + 20 * kSec}; }
Event ForwardedOk(const std::string& purchase_id) {
  return CardForwarded{true, purchase_id, kAmount, "", kT0 + 3600 * kSec};
}
Event ForwardedDeclined() { return CardForwarded{false, "", 0, "denied by the issuer", kT0 + 3600 * kSec}; }
Event QueuedAs(Call call, int attempt) {
  const std::string key =
      AttemptTag(kSaleId, attempt) + (call == Call::kCreateInvoice ? "" : "/" + std::string(Name(call)));
  return Queued{call, call == Call::kCreateInvoice ? attempt : 0, key, kT0 + 16 * kSec};
}

std::vector<Event> PathTo(const std::string& state, Method paid_by) {
  using P = std::vector<Event>;
  const P chose_card = {StartSale(), Choose(Method::kCard)};
  const P awaiting = {StartSale(), Choose(Method::kCard), SessionOk()};
  const P charging = {StartSale(), Choose(Method::kCard), SessionOk(), Card()};
  const P pix = {StartSale(), Choose(Method::kPix), BrcodeOk()};
  const P invoice = {StartSale(), Choose(Method::kInvoice), InvoiceOk()};
  auto plus = [](P p, std::vector<Event> more) {
    p.insert(p.end(), more.begin(), more.end());
    return p;
  };
  P paid;
  switch (paid_by) {
    case Method::kCard:
      paid = plus(charging, {Purchase(1, "p1", PurchaseStatus::kApproved)});
      break;
    case Method::kPix:
      paid = plus(pix, {Deposit("d1", "u1")});
      break;
    case Method::kInvoice:
      paid = plus(invoice, {InvoiceUpdate("i1", InvoiceStatus::kPaid)});
      break;
  }
  const std::string kept = paid_by == Method::kCard ? "p1" : paid_by == Method::kPix ? "d1" : "i1";
  const std::map<std::string, P> paths = {
      {"NotStarted", {}},
      {"ChoosingMethod", {StartSale()}},
      {"CreatingSession", chose_card},
      {"VerifyingSession", plus(chose_card, {Failed(Call::kCreateSession, Failure::kOutcomeUnknown)})},
      {"AwaitingCard", awaiting},
      {"Charging", charging},
      {"VerifyingPurchase", plus(charging, {Failed(Call::kCreatePurchase, Failure::kOutcomeUnknown)})},
      {"Challenge", plus(charging, {Purchase(1, "p1", PurchaseStatus::kPending)})},
      {"ClosingChallenge",
       plus(charging, {Purchase(1, "p1", PurchaseStatus::kPending), Fired(Timer::kSessionExpiry, kT0 + 600 * kSec)})},
      {"CreatingBrcode", {StartSale(), Choose(Method::kPix)}},
      {"VerifyingBrcode", {StartSale(), Choose(Method::kPix), Failed(Call::kCreateBrcode, Failure::kOutcomeUnknown)}},
      {"ShowingPix", pix},
      {"ClosingPix", plus(pix, {Fired(Timer::kBrcodeExpiry, kT0 + 600 * kSec)})},
      {"CreatingInvoice", {StartSale(), Choose(Method::kInvoice)}},
      {"VerifyingInvoice",
       {StartSale(), Choose(Method::kInvoice), Failed(Call::kCreateInvoice, Failure::kOutcomeUnknown)}},
      {"InvoiceQueued", {StartSale(), Choose(Method::kInvoice), QueuedAs(Call::kCreateInvoice)}},
      {"CardHeld", {StartSale(), HeldOffline()}},
      {"ShowingInvoice", invoice},
      {"PayLater", plus(invoice, {KeepOpen{kT0 + 5 * kSec}})},
      {"CancelingInvoice", plus(invoice, {Cancelled()})},
      {"Paid", paid},
      {"Reversing", plus(paid, {ReverseBy(kAmount)})},
      {"Refunded", plus(paid, {ReverseBy(kAmount), ReversedTo(kept, 0)})},
      {"Voided", {StartSale(), Cancelled()}},
  };
  auto it = paths.find(state);
  if (it == paths.end()) ADD_FAILURE() << "no path to " << state;
  return it == paths.end() ? P{} : it->second;
}

Sale Drive(const std::vector<Event>& events) {
  Sale sale;
  for (const Event& event : events) {
    Step step = Next(sale, event);
    if (!step.accepted()) {
      ADD_FAILURE() << step.rejection.message();
      return sale;
    }
    sale = std::move(step.sale);
  }
  return sale;
}

}  // namespace balcao::checkout::testing
