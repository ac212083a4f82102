// A cash register's reversal (register_counter.h): money given back from a sale a register
// paid, recorded under the request's identity before the sale is fed, answered when it ends.
#include <nlohmann/json.hpp>

#include "common/log.h"
#include "terminal/service/register_counter.h"

namespace balcao::terminal::service {
namespace {

using integration::Result;

// The Reverse event of a cash register's reversal of `amount`, approved by `approved_by` (the
// register itself, or the supervisor who approved it on the screen).
checkout::Reverse RegisterReverse(const integration::ReversalRequest& request, checkout::Cents amount,
                                  const std::string& approved_by, UnixMicros now) {
  const std::string reason = request.reason.empty() ? "reversal from the cash register" : "nexo " + request.reason;
  return checkout::Reverse{amount, "pos:" + request.identity.register_id, reason, now, approved_by};
}

}  // namespace

void RegisterCounter::ReverseFromRegister(const integration::ReversalRequest& request, UnixMicros deadline,
                                          std::function<void(integration::ReversalOutcome)> done) {
  integration::ReversalOutcome outcome;
  outcome.sale_id = request.sale_id;
  auto refuse = [&](Result result, std::string reason) {
    outcome.result = result;
    outcome.reason = std::move(reason);
    done(outcome);
  };
  const auto& id = request.identity;
  if (auto seen = registers_.FindRequest(id.register_id, id.service_id); seen.ok())
    return AnswerRepeatedReversal(request, *seen, std::move(done));
  auto payment = registers_.FindPaymentOfSale(request.sale_id);
  if (!payment.ok()) return refuse(Result::kNotFound, "no cash-register payment made sale " + request.sale_id);
  if (payment->register_id != id.register_id)
    return refuse(Result::kNotAllowed, "sale " + request.sale_id + " was paid from another cash register");
  if (reversals_.count(request.sale_id)) return refuse(Result::kBusy, "a reversal of this sale is in progress");
  if (Status open = sales_.EnsureOpen(request.sale_id); !open.ok()) return refuse(Result::kUnavailable, open.message());
  auto sale = sales_.driver().Get(request.sale_id);
  if (!sale.ok()) return refuse(Result::kNotFound, sale.status().message());
  if (sale->collected() <= 0)
    return refuse(Result::kNotAllowed, "sale " + request.sale_id + " has no money to give back");
  const checkout::Cents amount = request.amount > 0 ? request.amount : sale->collected();
  if (amount > sale->collected())
    return refuse(Result::kNotAllowed,
                  "ReversedAmount: at most what the sale collected (" + std::to_string(sale->collected()) + " cents)");
  const std::string requester = "pos:" + id.register_id;
  const std::string reason = request.reason.empty() ? "reversal from the cash register" : "nexo " + request.reason;
  // What a restart needs to carry the reversal on (ResumeRegisterSales), kept with its identity
  // before anything is fed.
  const nlohmann::json resume = {{"amount", amount},
                                 {"collected_before", sale->collected()},
                                 {"reason", reason},
                                 {"needs_supervisor", config_.nexo.reversal_needs_supervisor}};
  offline::RegisterRequestRow row{id.register_id, id.service_id,   id.transaction_id,
                                  "reversal",     request.sale_id, resume.dump()};
  if (Status begun = registers_.BeginRequest(row); !begun.ok()) return refuse(Result::kUnavailable, begun.message());
  sales_.Touch(request.sale_id);
  RunningReversal running;
  running.request = request;
  running.request.amount = amount;
  running.collected_before = sale->collected();
  running.deadline = deadline;
  running.waiters.push_back(std::move(done));
  if (config_.nexo.reversal_needs_supervisor) {
    // The register's key asked; a supervisor on the box's screen approves (sale_routes.cc).
    running.awaiting_supervisor = true;
    reversals_[request.sale_id] = std::move(running);
    sales_.book().SetReversalRequested(request.sale_id, amount);
    sales_.book().SetMessage(request.sale_id,
                             "reversal asked by cash register " + id.register_id + ": a supervisor approves");
    logging::Info(ProtocolOf(id), "cash-register reversal waits for a supervisor",
                  {{"sale", request.sale_id}, {"register", id.register_id}, {"amount", amount}});
    return;
  }
  auto reversed = sales_.FeedIfAccepted(request.sale_id, RegisterReverse(request, amount, requester, clock_.Now()));
  logging::Info(
      ProtocolOf(id), "cash-register reversal",
      {{"sale", request.sale_id}, {"register", id.register_id}, {"amount", amount}, {"accepted", reversed.ok()}});
  if (!reversed.ok()) {
    outcome.result = Result::kNotAllowed;
    outcome.reason = reversed.status().message();
    FinishReversal(id, outcome);
    return running.waiters.front()(outcome);
  }
  reversals_[request.sale_id] = std::move(running);
}

void RegisterCounter::AnswerRepeatedReversal(const integration::ReversalRequest& request,
                                             const offline::RegisterRequestRow& seen,
                                             std::function<void(integration::ReversalOutcome)> done) {
  integration::ReversalOutcome outcome;
  outcome.sale_id = request.sale_id;
  if (seen.kind != "reversal" || seen.sale_id != request.sale_id) {
    outcome.result = Result::kNotAllowed;
    outcome.reason = "ServiceID " + request.identity.service_id + " was used for another request";
    return done(outcome);
  }
  if (seen.outcome.empty()) {
    auto running = reversals_.find(request.sale_id);
    if (running != reversals_.end()) return running->second.waiters.push_back(std::move(done));
    outcome.result = Result::kInProgress;
    outcome.reason = "the reversal is in progress";
    return done(outcome);
  }
  const auto record = nlohmann::json::parse(seen.outcome, nullptr, false);
  integration::ParseResult(record.value("result", "unavailable"), outcome.result);
  outcome.amount = record.value("amount", 0LL);
  outcome.queued = record.value("queued", false);
  outcome.reason = record.value("reason", "");
  for (const auto& line : record.value("refund_receipt", nlohmann::json::array()))
    if (line.is_string()) outcome.refund_receipt.push_back(line.get<std::string>());
  done(outcome);
}

void RegisterCounter::FinishReversal(const integration::RequestIdentity& id,
                                     const integration::ReversalOutcome& outcome) {
  const nlohmann::json record = {{"result", integration::ResultName(outcome.result)},
                                 {"amount", outcome.amount},
                                 {"queued", outcome.queued},
                                 {"sale_id", outcome.sale_id},
                                 {"reason", outcome.reason},
                                 {"refund_receipt", outcome.refund_receipt}};
  if (Status finished = registers_.Finish(id.register_id, id.service_id, record.dump()); !finished.ok())
    logging::Error(ProtocolOf(id), "outcome not recorded", {{"sale", outcome.sale_id}, {"reason", finished.message()}});
}

void RegisterCounter::SettleReversals(UnixMicros now) {
  for (auto it = reversals_.begin(); it != reversals_.end();) {
    auto sale = sales_.driver().Get(it->first);
    integration::ReversalOutcome outcome;
    outcome.sale_id = it->first;
    bool ended = false;
    if (!sale.ok()) {
      ++it;
      continue;
    }
    if (it->second.awaiting_supervisor) {
      if (now < it->second.deadline) {
        ++it;
        continue;
      }
      outcome.result = Result::kNotAllowed;
      outcome.reason = "no supervisor approved the reversal on the box in time";
      sales_.book().SetReversalRequested(it->first, 0);
      ended = true;
    } else if (std::holds_alternative<checkout::Refunded>(sale->state)) {
      outcome.result = Result::kApproved;
      outcome.amount = it->second.request.amount;
      ended = true;
    } else if (const auto* reversing = std::get_if<checkout::Reversing>(&sale->state);
               reversing != nullptr && !reversing->queued_key.empty()) {
      outcome.result = Result::kApproved;
      outcome.amount = it->second.request.amount;
      outcome.queued = true;
      ended = true;
    } else if (std::holds_alternative<checkout::Paid>(sale->state) &&
               sale->collected() <= it->second.collected_before - it->second.request.amount) {
      outcome.result = Result::kApproved;  // a partial reversal leaves the sale Paid with less collected
      outcome.amount = it->second.request.amount;
      ended = true;
    } else if (std::holds_alternative<checkout::Paid>(sale->state) && now >= it->second.deadline) {
      outcome.result = Result::kRefused;
      outcome.reason = "the bank did not take the reversal";
      ended = true;
    }
    if (!ended) {
      ++it;
      continue;
    }
    if (outcome.result == Result::kApproved && !outcome.queued)
      outcome.refund_receipt = RefundSlipLines(*sale, outcome.amount);
    FinishReversal(it->second.request.identity, outcome);
    for (auto& waiter : it->second.waiters) waiter(outcome);
    it = reversals_.erase(it);
  }
}

std::vector<std::string> RegisterCounter::RefundSlipLines(const checkout::Sale& sale, checkout::Cents amount) {
  const checkout::Money* line = sale.payment_line();
  if (line == nullptr) return {};
  const checkout::Print print{checkout::Slip::kRefundReceipt, amount, line->ref.id, "", ""};
  const std::optional<printer::Document> doc =
      ReceiptFor(sale, print, config_.store, clock_.Now(), receipts_.CardTermsFor(sale.id, sale));
  return doc ? receipts_.TextLines(*doc) : std::vector<std::string>{};
}

StatusOr<checkout::Sale> RegisterCounter::ApproveReversal(const std::string& sale_id, const std::string& supervisor) {
  auto waiting = reversals_.find(sale_id);
  if (waiting == reversals_.end() || !waiting->second.awaiting_supervisor)
    return FailedPreconditionError("no cash-register reversal of sale " + sale_id + " waits for approval");
  const integration::ReversalRequest& request = waiting->second.request;
  BALCAO_ASSIGN_OR_RETURN(
      checkout::Sale sale,
      sales_.FeedIfAccepted(sale_id, RegisterReverse(request, request.amount, supervisor, clock_.Now())));
  waiting->second.awaiting_supervisor = false;
  sales_.book().SetReversalRequested(sale_id, 0);
  logging::Info(ProtocolOf(request.identity), "cash-register reversal approved",
                {{"sale", sale_id}, {"register", request.identity.register_id}, {"supervisor", supervisor}});
  return sale;
}

// A reversal begun before a restart: watched again so that its outcome is recorded and a
// repeated request gets it; one that was never fed (the box died between keeping the request
// and feeding the sale) is fed now, once.
void RegisterCounter::ResumeReversals() {
  auto running = registers_.Running("reversal");
  if (!running.ok()) return;
  const UnixMicros now = clock_.Now();
  for (const offline::RegisterRequestRow& row : *running) {
    const auto kept = nlohmann::json::parse(row.request, nullptr, false);
    if (row.sale_id.empty() || !kept.is_object()) continue;
    if (!sales_.EnsureOpen(row.sale_id).ok()) continue;
    auto sale = sales_.driver().Get(row.sale_id);
    if (!sale.ok()) continue;
    RunningReversal& reversal = reversals_[row.sale_id];
    reversal.request.identity = {row.register_id, row.service_id, row.transaction_id};
    reversal.request.sale_id = row.sale_id;
    reversal.request.amount = kept.value("amount", 0LL);
    reversal.collected_before = kept.value("collected_before", 0LL);
    reversal.deadline = now + static_cast<UnixMicros>(config_.nexo.response_timeout_s) * kMicrosPerSecond;
    const bool never_fed =
        std::holds_alternative<checkout::Paid>(sale->state) && sale->collected() == reversal.collected_before;
    if (never_fed && kept.value("needs_supervisor", false)) {
      reversal.awaiting_supervisor = true;
      sales_.book().SetReversalRequested(row.sale_id, reversal.request.amount);
    } else if (never_fed) {
      const std::string requester = "pos:" + row.register_id;
      auto fed = sales_.FeedIfAccepted(
          row.sale_id,
          checkout::Reverse{reversal.request.amount, requester, kept.value("reason", ""), clock_.Now(), requester});
      if (!fed.ok())
        logging::Error("nexo", "resumed reversal not fed", {{"sale", row.sale_id}, {"reason", fed.status().message()}});
    }
    logging::Info("nexo", "cash-register reversal resumed",
                  {{"sale", row.sale_id}, {"register", row.register_id}, {"fed_now", never_fed}});
    sales_.Touch(row.sale_id);
  }
}

}  // namespace balcao::terminal::service
