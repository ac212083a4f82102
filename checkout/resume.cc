#include "checkout/resume.h"

#include <type_traits>
#include <variant>

namespace balcao::checkout {
namespace {

Event Lost(Call call, UnixMicros now) {
  return CallFailed{call, Failure::kOutcomeUnknown, "answer lost to a restart", now};
}

}  // namespace

std::vector<Event> ResumeEvents(const Sale& sale, UnixMicros now) {
  return std::visit(
      [&](const auto& st) -> std::vector<Event> {
        using S = std::decay_t<decltype(st)>;
        if constexpr (std::is_same_v<S, CreatingSession>) return {Lost(Call::kCreateSession, now)};
        if constexpr (std::is_same_v<S, Charging>) return {Lost(Call::kCreatePurchase, now)};
        if constexpr (std::is_same_v<S, CreatingBrcode>) return {Lost(Call::kCreateBrcode, now)};
        if constexpr (std::is_same_v<S, CreatingInvoice>) return {Lost(Call::kCreateInvoice, now)};
        if constexpr (requires { st.queued_key; }) {
          // The PATCH waits in the outbox: only the outbox sends it (the driver reconciles).
          if (!st.queued_key.empty()) return {};
        }
        if constexpr (requires { st.waiting; }) {
          // Waiting: nothing was in flight; the retry timer (re-armed below) resends.
          if (st.waiting) return {};
          if constexpr (std::is_same_v<S, ClosingChallenge> || std::is_same_v<S, ClosingPix>) {
            return {Lost(Call::kPoll, now)};
          } else if constexpr (std::is_same_v<S, CancelingInvoice>) {
            return {Lost(Call::kCancelInvoice, now)};
          } else if constexpr (std::is_same_v<S, Reversing>) {
            return {Lost(Call::kReversal, now)};
          } else {
            return {Lost(Call::kLookup, now)};
          }
        }
        return {};
      },
      sale.state);
}

std::vector<SetTimer> TimersFor(const Sale& sale, UnixMicros now) {
  return std::visit(
      [&](const auto& st) -> std::vector<SetTimer> {
        using S = std::decay_t<decltype(st)>;
        if constexpr (std::is_same_v<S, AwaitingCard>) {
          return {{Timer::kSessionExpiry, st.session.expires_at}};
        } else if constexpr (std::is_same_v<S, Challenge>) {
          return {{Timer::kPoll, now}, {Timer::kSessionExpiry, st.session.expires_at}};
        } else if constexpr (std::is_same_v<S, ShowingPix>) {
          return {{Timer::kPoll, now}, {Timer::kBrcodeExpiry, st.brcode.expires_at}};
        } else if constexpr (std::is_same_v<S, ShowingInvoice>) {
          return {{Timer::kPoll, now}};
        } else if constexpr (requires { st.waiting; }) {
          if (st.waiting) return {{Timer::kLookupRetry, now}};
          return {};
        } else {
          return {};
        }
      },
      sale.state);
}

}  // namespace balcao::checkout
