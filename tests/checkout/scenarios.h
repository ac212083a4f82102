// Test fixtures for the checkout: event builders with fixed ids and times, and the event
// paths that lead a sale into each state. No mocks: every state is reached through Next().
#pragma once

#include <string>
#include <vector>

#include "checkout/checkout.h"

namespace balcao::checkout::testing {

inline constexpr UnixMicros kT0 = 1'763'700'000'000'000;  // 2025-11-21T04:40:00Z
inline constexpr UnixMicros kSec = kMicrosPerSecond;
inline constexpr Cents kAmount = 1000;
inline const char* const kSaleId = "s-0001";

Settings TestSettings();
Customer TestCustomer();

Event StartSale();
Event Choose(Method method);
Event SessionOk(int attempt = 1);
Event Card(UnixMicros at = kT0 + 20 * kSec);
Event Purchase(int attempt, const std::string& id, PurchaseStatus status, Cents amount = kAmount,
               UnixMicros at = kT0 + 30 * kSec);
Event BrcodeOk(int attempt = 1);
Event Deposit(const std::string& id, const std::string& uuid, Cents amount = kAmount, UnixMicros at = kT0 + 40 * kSec);
Event InvoiceOk(int attempt = 1);
Event InvoiceUpdate(const std::string& id, InvoiceStatus status, Cents amount = kAmount,
                    UnixMicros at = kT0 + 40 * kSec);
Event Failed(Call call, Failure failure, UnixMicros at = kT0 + 15 * kSec);
Event Fired(Timer timer, UnixMicros at = kT0 + 60 * kSec);
Event Found(EntityKind kind, int attempt = 1, UnixMicros at = kT0 + 50 * kSec);
Event Cancelled();
Event ReverseBy(Cents amount);
Event ReversedTo(const std::string& entity_id, Cents net);
// The card sealed in the store-and-forward while offline, and the forwarder's answer for it.
Event HeldOffline();
Event ForwardedOk(const std::string& purchase_id = "p9");
Event ForwardedDeclined();
// The driver put `call` in the outbox (the create's key for attempt 1, or the PATCH's key).
Event QueuedAs(Call call, int attempt = 1);

// The event path that leads into `state` (a State index); every event is accepted.
std::vector<Event> PathTo(const std::string& state_name, Method paid_by = Method::kCard);
// Drives Next() over `events` from a fresh Sale; a rejection is a test failure.
Sale Drive(const std::vector<Event>& events);

}  // namespace balcao::checkout::testing
