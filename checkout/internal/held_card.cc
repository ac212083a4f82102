// Rules for a card sale taken while the bank cannot be reached (docs/offline.md, "Card
// store-and-forward"): the card is sealed in the store-and-forward before CardHeldOffline is
// fed; the customer leaves with a provisional receipt; the forwarder's answer pays the sale or
// voids it with a flag (the customer has left: the merchant collects another way).
#include <string>

#include "checkout/internal/rules.h"

namespace balcao::checkout::internal {

Verdict OfflineCardAcceptable(const Sale& sale, const ChoosingMethod&, const CardHeldOffline& ev) {
  if (ev.card_mask.empty()) return "the card's mask is missing";
  if (sale.payment_line() != nullptr) return "the sale already holds a payment";
  if (ev.funding == FundingType::kCredit && !sale.settings.allow_credit) return "credit is not accepted";
  if (ev.funding == FundingType::kDebit && !sale.settings.allow_debit) return "debit is not accepted";
  if (ev.installments < 1 || ev.installments > sale.settings.installments.max_count) return "installments out of range";
  return Require(ev.funding == FundingType::kCredit || ev.installments == 1, "a debit card pays in one installment");
}
CardHeld HoldCard(Out& o, const ChoosingMethod&, const CardHeldOffline& ev) {
  o.effects.emplace_back(Print{Slip::kProvisionalReceipt, o.sale.amount, o.sale.id, "", ev.card_mask});
  o.Display(Screen::kQueued,
            "no connection to the bank: the card sale is provisional and will be sent as soon as the connection "
            "is back; the customer takes the provisional receipt");
  return CardHeld{ev.card_mask};
}
Verdict ForwardApproved(const Sale& sale, const CardHeld&, const CardForwarded& ev) {
  return Require(ev.approved && !ev.purchase_id.empty() && ev.amount == sale.amount,
                 "not an approval of the sale's amount with its purchase");
}
Paid ForwardedPaid(Out& o, const CardHeld& st, const CardForwarded& ev) {
  const EntityRef ref{EntityKind::kPurchase, ev.purchase_id, 0};
  o.Receive(ref, ev.amount, MoneyRole::kPayment);
  o.effects.emplace_back(Print{Slip::kSaleReceipt, ev.amount, ev.purchase_id, "", st.card_mask});
  o.Display(Screen::kPaid);
  return Paid{Payment{Method::kCard, ref, false}};
}
Verdict ForwardDeclined(const Sale&, const CardHeld&, const CardForwarded& ev) {
  return Require(!ev.approved, "not a decline");
}
Voided ForwardedDeclined(Out& o, const CardHeld&, const CardForwarded& ev) {
  const std::string why = "offline card sale declined after the customer left (" +
                          (ev.reason.empty() ? std::string("no reason given") : ev.reason) +
                          "): collect the amount another way";
  o.Flag(ev.purchase_id, o.sale.amount, why);
  o.Display(Screen::kVoided, why);
  return Voided{why, ""};
}
CardHeld PrintHeld(Out& o, const CardHeld& st, const PrintCode&) {
  o.effects.emplace_back(Print{Slip::kProvisionalReceipt, o.sale.amount, o.sale.id, "", st.card_mask});
  return st;
}

}  // namespace balcao::checkout::internal
