// The box as a cash register sees it (integration/core/counter.h): a register's payment opens a
// sale of the checkout driver exactly as the touchscreen's POST /api/sales does, picks the
// method the register named (else the screen asks), and is answered when the sale ends. The
// request's identity is written to the store before the sale opens, and its outcome when the
// sale ends, so a repeat or a status lookup (even after a restart) never starts a second sale.
#include "terminal/service/register_counter.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "checkout/journal_codec.h"
#include "checkout/sale_id.h"
#include "common/log.h"
#include "terminal/internal/receipts.h"
#include "terminal/internal/sale_events.h"

namespace balcao::terminal::service {
namespace {

using integration::PaymentOutcome;
using integration::Result;

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

integration::PayMethod PayMethodOf(checkout::Method method) {
  switch (method) {
    case checkout::Method::kCard:
      return integration::PayMethod::kCard;
    case checkout::Method::kPix:
      return integration::PayMethod::kPix;
    case checkout::Method::kInvoice:
      return integration::PayMethod::kInvoice;
  }
  return integration::PayMethod::kAsk;
}

}  // namespace

const char* ProtocolOf(const integration::RequestIdentity& id) {
  return id.register_id == "tef-dial" ? "tefdial" : "nexo";
}

RegisterCounter::RegisterCounter(SaleDesk& sales, offline::CashRegisters& registers, offline::Journal& journal,
                                 ReceiptPrinter& receipts, const Clock& clock, const ServeConfig& config)
    : sales_(sales), registers_(registers), journal_(journal), receipts_(receipts), clock_(clock), config_(config) {}

// Every call of the Counter runs on the driver's thread.
void RegisterCounter::Pay(const integration::PaymentRequest& request, std::chrono::milliseconds wait,
                          std::function<void(PaymentOutcome)> done) {
  const UnixMicros deadline = clock_.Now() + wait.count() * 1000;
  sales_.loop().Post([this, request, deadline, done = std::move(done)]() mutable {
    PayFromRegister(request, deadline, std::move(done));
    sales_.Publish();
  });
}

void RegisterCounter::Abort(const integration::AbortRequest& request, std::function<void(Status)> done) {
  sales_.loop().Post([this, request, done = std::move(done)] {
    const Status status = AbortFromRegister(request);
    sales_.Publish();
    done(status);
  });
}

void RegisterCounter::Reverse(const integration::ReversalRequest& request,
                              std::function<void(integration::ReversalOutcome)> done) {
  const UnixMicros deadline = clock_.Now() + config_.nexo.response_timeout_s * kMicrosPerSecond;
  sales_.loop().Post([this, request, deadline, done = std::move(done)]() mutable {
    ReverseFromRegister(request, deadline, std::move(done));
    sales_.Publish();
  });
}

void RegisterCounter::Lookup(const integration::RequestIdentity& identity,
                             std::function<void(integration::StatusLookup)> done) {
  sales_.loop().Post([this, identity, done = std::move(done)] { done(LookupFromRegister(identity)); });
}

void RegisterCounter::Settle() {
  const UnixMicros now = clock_.Now();
  SettlePayments(now);
  SettleReversals(now);
}

void RegisterCounter::Resume() {
  ResumePayments();
  ResumeReversals();
}

bool RegisterCounter::IsRegisterSale(const std::string& sale_id) const {
  if (payments_.count(sale_id)) return true;
  return registers_.FindPaymentOfSale(sale_id).ok();
}

void RegisterCounter::PayFromRegister(const integration::PaymentRequest& request, UnixMicros deadline,
                                      std::function<void(PaymentOutcome)> done) {
  auto answer = [this, &done](Result result, std::string reason, std::string sale_id = "") {
    PaymentOutcome outcome;
    outcome.result = result;
    outcome.reason = std::move(reason);
    outcome.sale_id = std::move(sale_id);
    outcome.time_ms = clock_.Now() / 1000;
    done(outcome);
  };
  const auto& id = request.identity;
  // A request seen before: its outcome, or the running sale's answer.
  if (auto seen = registers_.FindRequest(id.register_id, id.service_id); seen.ok()) {
    if (seen->kind != "payment" || seen->transaction_id != id.transaction_id)
      return answer(Result::kNotAllowed, "ServiceID " + id.service_id + " was used for another request");
    if (!seen->outcome.empty()) {
      auto outcome = integration::OutcomeFromJson(seen->outcome);
      if (outcome.ok()) return done(*outcome);
      return answer(Result::kUnavailable, "the stored outcome does not read: " + outcome.status().message());
    }
    auto running = payments_.find(seen->sale_id);
    if (running == payments_.end()) return answer(Result::kInProgress, "the payment is in progress", seen->sale_id);
    return answer(Result::kBusy, "this payment is in progress on the box", seen->sale_id);
  }
  if (!payments_.empty()) return answer(Result::kBusy, "another cash-register payment is in progress on this box");
  if (request.method != integration::PayMethod::kAsk && request.method != integration::PayMethod::kInvoice &&
      !sales_.driver().bank_online())
    return answer(Result::kUnavailable, "the bank cannot be reached: card and Pix need it now");
  if (request.installments > config_.settings.installments.max_count)
    return answer(Result::kNotAllowed,
                  "installments: at most " + std::to_string(config_.settings.installments.max_count) + " on this box");
  const UnixMicros now = clock_.Now();
  const std::string sale_id = checkout::MintSaleId('c', now);
  offline::RegisterRequestRow row{id.register_id, id.service_id, id.transaction_id,
                                  "payment",      sale_id,       request.message_text};
  if (Status begun = registers_.BeginRequest(row); !begun.ok())
    return answer(Result::kUnavailable, "the box's store: " + begun.message());
  // From here the identity is recorded: a failure is its outcome, so a repeat gets the same.
  auto fail = [&](const std::string& reason) {
    PaymentOutcome outcome;
    outcome.result = Result::kUnavailable;
    outcome.reason = reason;
    outcome.time_ms = now / 1000;
    if (Status finished = registers_.Finish(id.register_id, id.service_id, integration::OutcomeToJson(outcome));
        !finished.ok())
      logging::Error(ProtocolOf(id), "refusal not recorded",
                     {{"service", id.service_id}, {"reason", finished.message()}});
    done(outcome);
  };
  if (auto refused = sales_.OpenNewSale(sale_id, request.amount, config_.settings, now))
    return fail(refused->in_book ? "the box's data dir: " + refused->status.message() : refused->status.message());
  sales_.book().SetInstallments(sale_id, request.installments);
  sales_.book().SetRegister(sale_id, request.register_name.empty() ? id.register_id : request.register_name);
  RunningPayment& running = payments_[sale_id];
  running.request = request;
  running.waiters.push_back({std::move(done), deadline});
  logging::Info(ProtocolOf(id), "cash-register payment",
                {{"sale", sale_id},
                 {"register", id.register_id},
                 {"service_id", id.service_id},
                 {"amount", request.amount},
                 {"method", integration::PayMethodName(request.method)}});
  if (request.method != integration::PayMethod::kAsk) {
    checkout::Method method = checkout::Method::kCard;
    checkout::ParseName(integration::PayMethodName(request.method), method);
    auto chosen = sales_.FeedIfAccepted(sale_id, checkout::ChooseMethod{method, {}, now});
    if (!chosen.ok())
      logging::Warn(ProtocolOf(id), "method not taken", {{"sale", sale_id}, {"reason", chosen.status().message()}});
  }
}

std::optional<PaymentOutcome> RegisterCounter::PaymentOutcomeOf(const std::string& sale_id, RunningPayment& running) {
  std::optional<checkout::Sale> sale;
  if (auto open = sales_.driver().Get(sale_id); open.ok()) {
    sale = *open;
  } else {  // after a restart a sale that ended is not open in the driver: its journal tells
    sales_.EnsureCopy(sale_id);
    sale = sales_.book().Copy(sale_id);
  }
  if (!sale) return std::nullopt;
  PaymentOutcome o;
  o.sale_id = sale_id;
  o.time_ms = clock_.Now() / 1000;
  o.institution_cnpj = config_.nexo.institution_cnpj;
  o.installments = sales_.book().Installments(sale_id);
  const auto* paid = std::get_if<checkout::Paid>(&sale->state);
  const auto* later = std::get_if<checkout::PayLater>(&sale->state);
  const auto* voided = std::get_if<checkout::Voided>(&sale->state);
  const auto* choosing = std::get_if<checkout::ChoosingMethod>(&sale->state);
  if (choosing != nullptr && !choosing->notice.empty()) {
    // Declined, expired or failed: the register decides what next, so this sale ends here.
    auto canceled = sales_.FeedIfAccepted(
        sale_id, checkout::Cancel{"pos:" + running.request.identity.register_id, choosing->notice, clock_.Now(), ""});
    if (!canceled.ok())
      logging::Warn(ProtocolOf(running.request.identity), "ended sale not canceled",
                    {{"sale", sale_id}, {"reason", canceled.status().message()}});
    o.result = running.aborted ? Result::kAborted : Result::kRefused;
    o.reason = choosing->notice;
    return o;
  }
  if (voided != nullptr) {
    o.result = running.aborted ? Result::kAborted : Result::kRefused;
    o.reason = voided->reason;
    return o;
  }
  if (paid == nullptr && later == nullptr) return std::nullopt;
  o.result = Result::kApproved;
  if (paid != nullptr) {
    o.method = PayMethodOf(paid->payment.method);
    o.amount = sale->collected();
  } else {
    o.method = integration::PayMethod::kInvoice;
    o.amount = sale->amount;
    o.authorization_code = later->invoice.id;
  }
  // What the receipts show, from the sale's journal (after a restart too).
  if (auto entries = journal_.Read(sale_id); entries.ok()) {
    for (const offline::JournalEntry& entry : *entries) {
      auto event = checkout::EventFromJson(entry.payload);
      if (!event.ok()) continue;
      if (const auto* card = std::get_if<checkout::SubmitCard>(&*event)) {
        o.card_mask = card->card_mask;
        o.funding = card->funding == checkout::FundingType::kDebit ? integration::CardFunding::kDebit
                                                                   : integration::CardFunding::kCredit;
        o.installments = card->installments;
        o.keyed = true;
      } else if (const auto* purchase = std::get_if<checkout::PurchaseSeen>(&*event)) {
        // The bank's purchase id (its record has no authorization code): docs/integration.md.
        if (checkout::IsCharged(purchase->status)) o.authorization_code = purchase->purchase_id;
        // Paid on the customer's phone: what the purchase says of the card (last 4 only).
        if (checkout::IsCharged(purchase->status) && !o.keyed && !purchase->card_mask.empty()) {
          o.card_mask = purchase->card_mask;
          o.funding = purchase->funding == checkout::FundingType::kDebit ? integration::CardFunding::kDebit
                                                                         : integration::CardFunding::kCredit;
          if (purchase->installments > 0) o.installments = purchase->installments;
        }
      } else if (const auto* deposit = std::get_if<checkout::DepositSeen>(&*event)) {
        // The bank's API gives a deposit no end-to-end id: its id is the Pix payment's reference.
        o.authorization_code = deposit->deposit_id;
      }
    }
  }
  if (o.method != integration::PayMethod::kCard) o.installments = 1;
  AddReceipts(sale_id, *sale, running.request.identity, o);
  return o;
}

void RegisterCounter::AddReceipts(const std::string& sale_id, const checkout::Sale& sale,
                                  const integration::RequestIdentity& id, integration::PaymentOutcome& o) {
  const CardTerms card = receipts_.CardTermsFor(sale_id, sale);
  if (o.method == integration::PayMethod::kCard) {
    o.card_brand = Lower(card.network);
    if (!card.network_from_bank && !card.network.empty())
      logging::Info(ProtocolOf(id), "card brand from the BIN table: the bank gave no network",
                    {{"sale", sale_id}, {"brand", card.network}});
  }
  const std::optional<checkout::Print> print = ReprintOf(sale, card);
  if (!print || print->slip != checkout::Slip::kSaleReceipt) return;
  const RegisterCopies copies = RegisterCopiesFor(sale, *print, config_.store, o.time_ms * 1000, card);
  if (copies.merchant) o.cashier_receipt = receipts_.TextLines(*copies.merchant);
  if (copies.customer) o.customer_receipt = receipts_.TextLines(*copies.customer);
}

void RegisterCounter::SettlePayments(UnixMicros now) {
  for (auto it = payments_.begin(); it != payments_.end();) {
    RunningPayment& running = it->second;
    std::optional<PaymentOutcome> outcome = PaymentOutcomeOf(it->first, running);
    if (!outcome) {
      for (auto w = running.waiters.begin(); w != running.waiters.end();) {
        if (now < w->deadline) {
          ++w;
          continue;
        }
        PaymentOutcome pending;
        pending.result = Result::kInProgress;
        pending.reason = "the payment is still in progress: ask its TransactionStatus";
        pending.sale_id = it->first;
        pending.time_ms = now / 1000;
        w->done(pending);
        w = running.waiters.erase(w);
      }
      ++it;
      continue;
    }
    const auto& id = running.request.identity;
    if (Status finished = registers_.Finish(id.register_id, id.service_id, integration::OutcomeToJson(*outcome));
        !finished.ok())
      logging::Error(ProtocolOf(id), "outcome not recorded", {{"sale", it->first}, {"reason", finished.message()}});
    logging::Info(
        ProtocolOf(id), "cash-register payment ended",
        {{"sale", it->first}, {"register", id.register_id}, {"result", integration::ResultName(outcome->result)}});
    for (auto& waiter : running.waiters) waiter.done(*outcome);
    it = payments_.erase(it);
  }
}

Status RegisterCounter::AbortFromRegister(const integration::AbortRequest& request) {
  auto target = registers_.FindRequest(request.identity.register_id, request.target_service_id);
  if (!target.ok() || target->kind != "payment")
    return NotFoundError("no payment " + request.target_service_id + " of this cash register");
  auto running = payments_.find(target->sale_id);
  if (running == payments_.end()) return OkStatus();  // ended: an abort changes nothing
  auto sale = sales_.driver().Get(target->sale_id);
  if (!sale.ok() || sale->collected() > 0 || std::holds_alternative<checkout::Paid>(sale->state)) return OkStatus();
  const checkout::Cancel cancel{"pos:" + request.identity.register_id,
                                request.reason.empty() ? "aborted by the cash register" : request.reason, clock_.Now(),
                                ""};
  if (Status acceptable = sales_.Acceptable(target->sale_id, cancel); !acceptable.ok()) return OkStatus();
  running->second.aborted = true;
  sales_.Touch(target->sale_id);
  auto canceled = sales_.driver().Feed(target->sale_id, cancel);
  logging::Info(ProtocolOf(request.identity), "cash-register abort",
                {{"sale", target->sale_id}, {"register", request.identity.register_id}, {"accepted", canceled.ok()}});
  return OkStatus();
}

integration::StatusLookup RegisterCounter::LookupFromRegister(const integration::RequestIdentity& identity) {
  integration::StatusLookup lookup;
  auto seen = registers_.FindRequest(identity.register_id, identity.service_id);
  if (!seen.ok() || seen->kind != "payment") return lookup;
  lookup.message_text = seen->request;
  if (seen->outcome.empty()) {
    lookup.result = Result::kInProgress;
    return lookup;
  }
  auto outcome = integration::OutcomeFromJson(seen->outcome);
  if (!outcome.ok()) {
    lookup.result = Result::kInProgress;
    return lookup;
  }
  lookup.result = outcome->result;
  lookup.outcome = *outcome;
  return lookup;
}

void RegisterCounter::ResumePayments() {
  auto running = registers_.Running("payment");
  if (!running.ok()) return;
  for (const offline::RegisterRequestRow& row : *running) {
    if (row.sale_id.empty()) continue;
    if (!sales_.driver().Get(row.sale_id).ok()) {
      if (!sales_.book().Knows(row.sale_id)) continue;
      if (auto resumed = sales_.driver().Resume(row.sale_id); !resumed.ok())
        logging::Error("nexo", "cash-register sale not resumed",
                       {{"sale", row.sale_id}, {"reason", resumed.status().message()}});
    }
    RunningPayment& sale = payments_[row.sale_id];
    sale.request.identity = {row.register_id, row.service_id, row.transaction_id};
    sale.request.message_text = row.request;
    sales_.Touch(row.sale_id);
  }
}

}  // namespace balcao::terminal::service
