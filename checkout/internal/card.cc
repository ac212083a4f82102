// Rules of the card flow: merchant session, purchase, 3-D Secure challenge, and the
// lookups that follow a lost answer. The card itself never reaches this code: only the
// driver's reference to it and the 6+4 mask.
#include <string>

#include "checkout/internal/rules.h"

namespace balcao::checkout::internal {
namespace {

// The customer's phone posts the purchase to the bank itself (docs/adr/0009): while the session
// is open the box looks for it by the attempt's tag (the session's tags carry over), besides
// the webhook.
void WatchForPhone(Out& o, UnixMicros from) { o.Arm(Timer::kPoll, from + o.Seconds(o.sale.settings.poll_interval_s)); }
AwaitingCard BackToCard(Out& o, int attempt, const CardSession& session, std::string notice, UnixMicros at) {
  o.Display(Screen::kEnterCard, notice, "", "", session.expires_at);
  WatchForPhone(o, at);
  return AwaitingCard{attempt, session, std::move(notice)};
}
FindByTag PurchaseLookup(const Out& o, int attempt) {
  return FindByTag{EntityKind::kPurchase, attempt, o.Tag(attempt)};
}
// A card number would be a run of 12 or more digits: it must never be journaled.
bool LooksLikeCardNumber(const std::string& text) {
  int run = 0;
  for (char c : text) {
    run = (c >= '0' && c <= '9') ? run + 1 : 0;
    if (run >= 12) return true;
  }
  return false;
}
int DigitCount(const std::string& text) {
  int n = 0;
  for (char c : text) n += (c >= '0' && c <= '9') ? 1 : 0;
  return n;
}

}  // namespace

AwaitingCard SessionReady(Out& o, const OfAttempt& st, const SessionCreated& ev) {
  const CardSession& session = ev.entity;
  o.Remember({EntityKind::kSession, session.id, st.attempt});
  o.Arm(Timer::kSessionExpiry, session.expires_at);
  WatchForPhone(o, ev.at);
  o.Display(Screen::kEnterCard, "", "", "", session.expires_at);
  return AwaitingCard{st.attempt, session, ""};
}

Verdict CardAcceptable(const Sale& sale, const AwaitingCard& st, const SubmitCard& ev) {
  if (ev.at >= st.session.expires_at) return "card session expired";
  if (ev.card_ref.empty()) return "card reference is required";
  if (LooksLikeCardNumber(ev.card_ref) || DigitCount(ev.card_mask) > 10) {
    return "card number must not be in the event (reference and 6+4 mask only)";
  }
  if (ev.funding == FundingType::kCredit && !sale.settings.allow_credit) return "credit not accepted";
  if (ev.funding == FundingType::kDebit && !sale.settings.allow_debit) return "debit not accepted";
  if (ev.funding == FundingType::kDebit && ev.installments != 1) return "debit takes 1 installment";
  for (const AllowedInstallment& allowed : MakeCreateSession(sale, st.attempt).installments) {
    if (allowed.count == ev.installments) return kHolds;
  }
  return "installment count not allowed by the store's policy";
}
Charging ChargeCard(Out& o, const AwaitingCard& st, const SubmitCard& ev) {
  o.Disarm(Timer::kPoll);  // keyed: the box's own purchase call answers
  o.Call(CreatePurchase{st.attempt, st.session.uuid, ev.card_ref, ev.funding, ev.installments, o.sale.amount});
  o.Display(Screen::kWorking);
  return Charging{st.attempt, st.session, ev.card_mask};
}
ChoosingMethod SessionLapsed(Out& o, const AwaitingCard&, const TimerFired&) {
  o.Disarm(Timer::kPoll);
  return BackToChoice(o, Method::kCard, "card session expired");
}
Voided AbandonSession(Out& o, const AwaitingCard& st, const Cancel& ev) {
  o.Disarm(Timer::kPoll);
  o.Disarm(Timer::kSessionExpiry);
  return VoidSale(o, st, ev);
}
AwaitingCard PollPhone(Out& o, const AwaitingCard& st, const TimerFired& ev) {
  o.Call(PurchaseLookup(o, st.attempt));
  WatchForPhone(o, ev.at);
  return st;
}

AwaitingCard PurchaseNotMade(Out& o, const Charging& st, const CallFailed& ev) {
  return BackToCard(o, st.attempt, st.session, NotDoneNotice("card not charged", ev), ev.at);
}
VerifyingPurchase FindPurchase(Out& o, const Charging& st, const CallFailed&) {
  o.Call(PurchaseLookup(o, st.attempt));
  o.Display(Screen::kVerifying);
  return VerifyingPurchase{st.attempt, st.session, st.card_mask};
}
VerifyingPurchase FindPurchase(Out& o, const VerifyingPurchase& st, const TimerFired&) {
  o.Call(PurchaseLookup(o, st.attempt));
  return Sending(st);
}
AwaitingCard PurchaseNotFound(Out& o, const VerifyingPurchase& st, const NothingFound& ev) {
  return BackToCard(o, st.attempt, st.session, "the card was not charged; enter it again", ev.at);
}

namespace {
Challenge OpenChallenge(Out& o, int attempt, const CardSession& session, const std::string& mask,
                        const PurchaseSeen& ev, bool on_phone) {
  o.Remember({EntityKind::kPurchase, ev.purchase_id, attempt});
  // The phone that made the purchase opened the bank's page itself: no QR to scan then.
  if (on_phone)
    o.Display(Screen::kChallengeQr, "the customer confirms the purchase with their bank on their phone", "", "",
              session.expires_at);
  else
    o.Display(Screen::kChallengeQr, "scan to confirm the purchase with your bank", ev.challenge_url, ev.challenge_url,
              session.expires_at);
  o.Arm(Timer::kPoll, ev.at + o.Seconds(o.sale.settings.poll_interval_s));
  o.Arm(Timer::kSessionExpiry, session.expires_at);
  return Challenge{attempt, session, ev.purchase_id, ev.challenge_url, mask, on_phone};
}
}  // namespace

Challenge ChallengeStarts(Out& o, const AwaitingCard& st, const PurchaseSeen& ev) {
  return OpenChallenge(o, st.attempt, st.session, ev.card_mask, ev, true);
}

Challenge ChallengeStarts(Out& o, const Charging& st, const PurchaseSeen& ev) {
  return OpenChallenge(o, st.attempt, st.session, st.card_mask, ev, false);
}
Challenge ChallengeStarts(Out& o, const VerifyingPurchase& st, const PurchaseSeen& ev) {
  return OpenChallenge(o, st.attempt, st.session, st.card_mask, ev, false);
}
Challenge PollPurchase(Out& o, const Challenge& st, const TimerFired& ev) {
  o.Call(GetPurchase{st.attempt, st.purchase_id});
  o.Arm(Timer::kPoll, ev.at + o.Seconds(o.sale.settings.poll_interval_s));
  return st;
}
ClosingChallenge CloseChallenge(Out& o, const Challenge& st, const TimerFired&) {
  o.Disarm(Timer::kPoll);
  o.Call(GetPurchase{st.attempt, st.purchase_id});
  o.Display(Screen::kVerifying);
  return ClosingChallenge{st.attempt, st.purchase_id, st.card_mask};
}
ClosingChallenge ReadPurchase(Out& o, const ClosingChallenge& st, const TimerFired&) {
  o.Call(GetPurchase{st.attempt, st.purchase_id});
  return Sending(st);
}

Paid EnterCardPaid(Out& o, const PurchaseSeen& ev, const std::string& card_mask) {
  const EntityRef ref{EntityKind::kPurchase, ev.purchase_id, ev.attempt};
  o.Receive(ref, ev.amount, MoneyRole::kPayment);
  o.Disarm(Timer::kPoll);
  o.Disarm(Timer::kSessionExpiry);
  o.effects.emplace_back(Print{Slip::kSaleReceipt, ev.amount, ev.purchase_id, "", card_mask});
  o.Display(Screen::kPaid);
  const bool confirmed = ev.status != PurchaseStatus::kApproved;
  return Paid{Payment{Method::kCard, ref, confirmed}};
}
ChoosingMethod RefuseCard(Out& o, const PurchaseSeen& ev, bool challenge_was_open) {
  o.Remember({EntityKind::kPurchase, ev.purchase_id, ev.attempt});
  if (challenge_was_open) o.Disarm(Timer::kPoll);
  o.Disarm(Timer::kSessionExpiry);
  std::string why = ev.reason.empty() ? std::string(Name(ev.status)) : ev.reason;
  return BackToChoice(o, Method::kCard, "card not charged: " + why);
}

}  // namespace balcao::checkout::internal
