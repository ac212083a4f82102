// The box as a cash register sees it: the four things a register may ask, whatever its
// protocol. terminal/ implements it over the checkout driver (a payment runs as a sale of the
// touchscreen, with the same screens, receipts and journal); a protocol adapter calls it.
// Every answer comes once through its callback, from any thread, possibly before the call
// returns. Identity (register_request.h) makes Pay exactly-once: a request seen before is
// answered with its first outcome (or kInProgress / kBusy while it runs) and starts nothing.
// Thread-safety: implementations are callable from any thread.
#pragma once

#include <chrono>
#include <functional>

#include "integration/core/register_request.h"

namespace balcao::integration {

class Counter {
 public:
  virtual ~Counter() = default;

  // Runs the payment and answers when it ends, or with kInProgress once `wait` has passed
  // (the sale goes on and Lookup finds it). kBusy when another payment runs on this box.
  virtual void Pay(const PaymentRequest& request, std::chrono::milliseconds wait,
                   std::function<void(PaymentOutcome)> done) = 0;
  // Stops the register's payment `target_service_id` if it is not approved; the payment's own
  // answer then says kAborted. OK also when there was nothing left to stop (already approved
  // or ended): an abort never changes a finished payment. kNotFound for an unknown target.
  virtual void Abort(const AbortRequest& request, std::function<void(Status)> done) = 0;
  // Gives back the money of a sale this register paid, once: a repeated reversal answers
  // with the first one's outcome.
  virtual void Reverse(const ReversalRequest& request, std::function<void(ReversalOutcome)> done) = 0;
  // The payment request `identity` names (its register_id and service_id), as the box knows it.
  virtual void Lookup(const RequestIdentity& identity, std::function<void(StatusLookup)> done) = 0;
};

}  // namespace balcao::integration
