// Rules of the Pix flow: a dynamic brcode shown as a QR with a countdown, paid when the
// deposit tagged dynamic-brcode/<uuid> arrives (event or poll), one last search when the
// countdown ends, and the lookups that follow a lost create answer.
#include <string>

#include "checkout/internal/rules.h"

namespace balcao::checkout::internal {
namespace {

FindDeposit DepositSearch(int attempt, const Brcode& brcode) {
  return FindDeposit{attempt, BrcodeDepositTag(brcode.uuid)};
}

}  // namespace

ShowingPix ShowBrcode(Out& o, const OfAttempt& st, const BrcodeCreated& ev) {
  const Brcode& brcode = ev.entity;
  o.Remember({EntityKind::kBrcode, brcode.uuid, st.attempt});
  o.Display(Screen::kPixQr, "", brcode.text, "", brcode.expires_at);
  o.Arm(Timer::kBrcodeExpiry, brcode.expires_at);
  o.Arm(Timer::kPoll, ev.at + o.Seconds(o.sale.settings.poll_interval_s));
  return ShowingPix{st.attempt, brcode};
}

Verdict BrcodeExpired(const Sale&, const ShowingPix&, const TimerFired& ev) {
  return Require(ev.timer == Timer::kBrcodeExpiry, "not the brcode expiry");
}
Paid EnterPixPaid(Out& o, const DepositSeen& ev) {
  const EntityRef ref{EntityKind::kDeposit, ev.deposit_id, o.sale.AttemptOf(EntityKind::kBrcode, ev.brcode_uuid)};
  o.Receive(ref, ev.amount, MoneyRole::kPayment);
  o.Disarm(Timer::kPoll);
  o.Disarm(Timer::kBrcodeExpiry);
  o.effects.emplace_back(Print{Slip::kSaleReceipt, ev.amount, ev.deposit_id, "", ""});
  o.Display(Screen::kPaid);
  return Paid{Payment{Method::kPix, ref, true}};
}
ShowingPix PollDeposit(Out& o, const ShowingPix& st, const TimerFired& ev) {
  o.Call(DepositSearch(st.attempt, st.brcode));
  o.Arm(Timer::kPoll, ev.at + o.Seconds(o.sale.settings.poll_interval_s));
  return st;
}
ShowingPix PrintPix(Out& o, const ShowingPix& st, const PrintCode&) {
  o.effects.emplace_back(Print{Slip::kPixCode, o.sale.amount, st.brcode.uuid, st.brcode.text, ""});
  return st;
}
ClosingPix ClosePix(Out& o, const ShowingPix& st, const TimerFired&) {
  o.Disarm(Timer::kPoll);
  o.Call(DepositSearch(st.attempt, st.brcode));
  o.Display(Screen::kVerifying);
  return ClosingPix{st.attempt, st.brcode};
}
ClosingPix SearchDepositAgain(Out& o, const ClosingPix& st, const TimerFired&) {
  o.Call(DepositSearch(st.attempt, st.brcode));
  return Sending(st);
}
ChoosingMethod PixExpired(Out& o, const ClosingPix&, const NothingFound&) {
  return BackToChoice(o, Method::kPix, "Pix expired unpaid: retry or charge by invoice");
}
Voided VoidPix(Out& o, const ShowingPix& st, const Cancel& ev) {
  o.Disarm(Timer::kPoll);
  o.Disarm(Timer::kBrcodeExpiry);
  return VoidSale(o, st, ev);
}

}  // namespace balcao::checkout::internal
