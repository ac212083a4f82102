// The box as a cash register sees it (integration/core/counter.h): a register's payment opens a
// sale of the checkout driver exactly as the touchscreen's POST /api/sales does, picks the
// method the register named (else the screen asks), and is answered when the sale ends. The
// request's identity is written to the store before the sale opens, and its outcome when the
// sale ends, so a repeat or a status lookup (even after a restart) never starts a second sale.
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checkout/journal_codec.h"
#include "common/log.h"
#include "printer/render.h"
#include "terminal/internal/payer.h"
#include "terminal/internal/receipts.h"
#include "terminal/internal/sale_events.h"
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {
namespace {

using integration::PaymentOutcome;
using integration::Result;

// The protocol a register's request came in by, for the log: TEF Dial's requests carry the
// register id "tef-dial" (integration/tefdial/manager.cc), every other is a nexo POI's.
const char* ProtocolOf(const integration::RequestIdentity& id) {
  return id.register_id == "tef-dial" ? "tefdial" : "nexo";
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
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

// The Reverse event of a cash register's reversal of `amount`, approved by `approved_by` (the
// register itself, or the supervisor who approved it on the screen).
checkout::Reverse RegisterReverse(const integration::ReversalRequest& request, checkout::Cents amount,
                                  const std::string& approved_by, UnixMicros now) {
  const std::string reason = request.reason.empty() ? "reversal from the cash register" : "nexo " + request.reason;
  return checkout::Reverse{amount, "pos:" + request.identity.register_id, reason, now, approved_by};
}

// The Counter over Impl: every call runs on the driver's thread.
class BoxCounter : public integration::Counter {
 public:
  explicit BoxCounter(Service::Impl& s) : s_(s) {}
  void Pay(const integration::PaymentRequest& request, std::chrono::milliseconds wait,
           std::function<void(PaymentOutcome)> done) override {
    const UnixMicros deadline = s_.bank_clock->Now() + wait.count() * 1000;
    s_.loop->Post([this, request, deadline, done = std::move(done)]() mutable {
      s_.PayFromRegister(request, deadline, std::move(done));
      s_.Publish();
    });
  }
  void Abort(const integration::AbortRequest& request, std::function<void(Status)> done) override {
    s_.loop->Post([this, request, done = std::move(done)] {
      const Status status = s_.AbortFromRegister(request);
      s_.Publish();
      done(status);
    });
  }
  void Reverse(const integration::ReversalRequest& request,
               std::function<void(integration::ReversalOutcome)> done) override {
    const UnixMicros deadline = s_.bank_clock->Now() + s_.config.nexo.response_timeout_s * kMicrosPerSecond;
    s_.loop->Post([this, request, deadline, done = std::move(done)]() mutable {
      s_.ReverseFromRegister(request, deadline, std::move(done));
      s_.Publish();
    });
  }
  void Lookup(const integration::RequestIdentity& identity,
              std::function<void(integration::StatusLookup)> done) override {
    s_.loop->Post([this, identity, done = std::move(done)] { done(s_.LookupFromRegister(identity)); });
  }

 private:
  Service::Impl& s_;
};

}  // namespace

std::unique_ptr<integration::Counter> MakeBoxCounter(Service::Impl& impl) { return std::make_unique<BoxCounter>(impl); }

bool Service::Impl::IsRegisterSale(const std::string& sale_id) const {
  if (register_sales.count(sale_id)) return true;
  return registers && registers->FindPaymentOfSale(sale_id).ok();
}

void Service::Impl::PayFromRegister(const integration::PaymentRequest& request, UnixMicros deadline,
                                    std::function<void(PaymentOutcome)> done) {
  auto answer = [this, &done](Result result, std::string reason, std::string sale_id = "") {
    PaymentOutcome outcome;
    outcome.result = result;
    outcome.reason = std::move(reason);
    outcome.sale_id = std::move(sale_id);
    outcome.time_ms = bank_clock->Now() / 1000;
    done(outcome);
  };
  const auto& id = request.identity;
  // A request seen before: its outcome, or the running sale's answer.
  if (auto seen = registers->FindRequest(id.register_id, id.service_id); seen.ok()) {
    if (seen->kind != "payment" || seen->transaction_id != id.transaction_id)
      return answer(Result::kNotAllowed, "ServiceID " + id.service_id + " was used for another request");
    if (!seen->outcome.empty()) {
      auto outcome = integration::OutcomeFromJson(seen->outcome);
      if (outcome.ok()) return done(*outcome);
      return answer(Result::kUnavailable, "the stored outcome does not read: " + outcome.status().message());
    }
    auto running = register_sales.find(seen->sale_id);
    if (running == register_sales.end())
      return answer(Result::kInProgress, "the payment is in progress", seen->sale_id);
    return answer(Result::kBusy, "this payment is in progress on the box", seen->sale_id);
  }
  if (!register_sales.empty()) return answer(Result::kBusy, "another cash-register payment is in progress on this box");
  if (request.method != integration::PayMethod::kAsk && request.method != integration::PayMethod::kInvoice &&
      !driver->bank_online())
    return answer(Result::kUnavailable, "the bank cannot be reached: card and Pix need it now");
  if (request.installments > config.settings.installments.max_count)
    return answer(Result::kNotAllowed,
                  "installments: at most " + std::to_string(config.settings.installments.max_count) + " on this box");
  const UnixMicros now = bank_clock->Now();
  const std::string sale_id = MintSaleId('c', now);
  offline::RegisterRequestRow row{id.register_id, id.service_id, id.transaction_id,
                                  "payment",      sale_id,       request.message_text};
  if (Status begun = registers->BeginRequest(row); !begun.ok())
    return answer(Result::kUnavailable, "the box's store: " + begun.message());
  // From here the identity is recorded: a failure is its outcome, so a repeat gets the same.
  auto fail = [&](const std::string& reason) {
    PaymentOutcome outcome;
    outcome.result = Result::kUnavailable;
    outcome.reason = reason;
    outcome.time_ms = now / 1000;
    if (Status finished = registers->Finish(id.register_id, id.service_id, integration::OutcomeToJson(outcome));
        !finished.ok())
      logging::Error(ProtocolOf(id), "refusal not recorded",
                     {{"service", id.service_id}, {"reason", finished.message()}});
    done(outcome);
  };
  if (auto refused = OpenNewSale(sale_id, request.amount, now))
    return fail(refused->in_book ? "the box's data dir: " + refused->status.message() : refused->status.message());
  book->SetInstallments(sale_id, request.installments);
  book->SetRegister(sale_id, request.register_name.empty() ? id.register_id : request.register_name);
  RegisterSale& running = register_sales[sale_id];
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
    auto chosen = FeedIfAccepted(sale_id, checkout::ChooseMethod{method, {}, now});
    if (!chosen.ok())
      logging::Warn(ProtocolOf(id), "method not taken", {{"sale", sale_id}, {"reason", chosen.status().message()}});
  }
}

std::optional<PaymentOutcome> Service::Impl::RegisterOutcome(const std::string& sale_id, RegisterSale& running) {
  std::optional<checkout::Sale> sale;
  if (auto open = driver->Get(sale_id); open.ok()) {
    sale = *open;
  } else {  // after a restart a sale that ended is not open in the driver: its journal tells
    EnsureCopy(sale_id);
    sale = book->Copy(sale_id);
  }
  if (!sale) return std::nullopt;
  PaymentOutcome o;
  o.sale_id = sale_id;
  o.time_ms = bank_clock->Now() / 1000;
  o.institution_cnpj = config.nexo.institution_cnpj;
  o.installments = book->Installments(sale_id);
  const auto* paid = std::get_if<checkout::Paid>(&sale->state);
  const auto* later = std::get_if<checkout::PayLater>(&sale->state);
  const auto* voided = std::get_if<checkout::Voided>(&sale->state);
  const auto* choosing = std::get_if<checkout::ChoosingMethod>(&sale->state);
  if (choosing != nullptr && !choosing->notice.empty()) {
    // Declined, expired or failed: the register decides what next, so this sale ends here.
    auto canceled = FeedIfAccepted(sale_id, checkout::Cancel{"pos:" + running.request.identity.register_id,
                                                             choosing->notice, bank_clock->Now(), ""});
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
  if (auto entries = journal->Read(sale_id); entries.ok()) {
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
  AddRegisterReceipts(sale_id, *sale, running.request.identity, o);
  return o;
}

void Service::Impl::AddRegisterReceipts(const std::string& sale_id, const checkout::Sale& sale,
                                        const integration::RequestIdentity& id, integration::PaymentOutcome& o) {
  const CardTerms card = CardTermsFor(sale_id, sale);
  if (o.method == integration::PayMethod::kCard) {
    o.card_brand = Lower(card.network);
    if (!card.network_from_bank && !card.network.empty())
      logging::Info(ProtocolOf(id), "card brand from the BIN table: the bank gave no network",
                    {{"sale", sale_id}, {"brand", card.network}});
  }
  const std::optional<checkout::Print> print = ReprintOf(sale, card);
  if (!print || print->slip != checkout::Slip::kSaleReceipt) return;
  const RegisterCopies copies = RegisterCopiesFor(sale, *print, config.store, o.time_ms * 1000, card);
  const printer::TextOptions text{.placeholders = true};
  if (copies.merchant) o.cashier_receipt = Lines(printer::RenderText(*copies.merchant, *profile, text));
  if (copies.customer) o.customer_receipt = Lines(printer::RenderText(*copies.customer, *profile, text));
}

CardTerms Service::Impl::CardTermsFor(const std::string& sale_id, const checkout::Sale& sale) {
  CardTerms terms = ReadCardTerms(*journal, sale_id);
  const checkout::Money* line = sale.payment_line();
  if (line == nullptr || line->ref.kind != checkout::EntityKind::kPurchase) return terms;
  return WithBankNetwork(std::move(terms), purchase_networks->Of(line->ref.id));
}

std::vector<std::string> Service::Impl::RefundSlipLines(const checkout::Sale& sale, checkout::Cents amount) {
  const checkout::Money* line = sale.payment_line();
  if (line == nullptr) return {};
  const checkout::Print print{checkout::Slip::kRefundReceipt, amount, line->ref.id, "", ""};
  const std::optional<printer::Document> doc =
      ReceiptFor(sale, print, config.store, bank_clock->Now(), CardTermsFor(sale.id, sale));
  return doc ? Lines(printer::RenderText(*doc, *profile, {.placeholders = true})) : std::vector<std::string>{};
}

void Service::Impl::SettleRegisterSales() {
  const UnixMicros now = bank_clock->Now();
  SettleRegisterPayments(now);
  SettleRegisterReversals(now);
  ScheduleAutopays();
}

void Service::Impl::SettleRegisterPayments(UnixMicros now) {
  for (auto it = register_sales.begin(); it != register_sales.end();) {
    RegisterSale& running = it->second;
    std::optional<PaymentOutcome> outcome = RegisterOutcome(it->first, running);
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
    if (Status finished = registers->Finish(id.register_id, id.service_id, integration::OutcomeToJson(*outcome));
        !finished.ok())
      logging::Error(ProtocolOf(id), "outcome not recorded", {{"sale", it->first}, {"reason", finished.message()}});
    logging::Info(
        ProtocolOf(id), "cash-register payment ended",
        {{"sale", it->first}, {"register", id.register_id}, {"result", integration::ResultName(outcome->result)}});
    for (auto& waiter : running.waiters) waiter.done(*outcome);
    it = register_sales.erase(it);
  }
}

void Service::Impl::SettleRegisterReversals(UnixMicros now) {
  for (auto it = register_reversals.begin(); it != register_reversals.end();) {
    auto sale = driver->Get(it->first);
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
      book->SetReversalRequested(it->first, 0);
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
    it = register_reversals.erase(it);
  }
}

void Service::Impl::ScheduleAutopays() {
  // The embedded sandbox's payer (--sandbox-autopay): pays each Pix QR once, that long after.
  if (sandbox && config.sandbox_autopay_s > 0) {
    for (const std::string& id : book->Unsettled()) {
      const std::optional<checkout::Sale> sale = book->Copy(id);
      const auto* pix = sale ? std::get_if<checkout::ShowingPix>(&sale->state) : nullptr;
      if (pix == nullptr || !autopaid.insert(pix->brcode.uuid).second) continue;
      autopay_due[pix->brcode.uuid] = bank_clock->Now() + config.sandbox_autopay_s * kMicrosPerSecond;
    }
  }
}

void Service::Impl::PayDueAutopays(UnixMicros now) {
  for (auto due = autopay_due.begin(); due != autopay_due.end();) {
    if (due->second > now) {
      ++due;
      continue;
    }
    // On the simulations' own thread, like the touchscreen's simulate button: never a thread per QR.
    simulations->Post([port = sandbox->port(), step = PayPix(due->first, kSandboxPayerName)] {
      (void)RunPayerStep(port, step);  // a QR left unpaid stays on the screen: nothing to undo
    });
    due = autopay_due.erase(due);
  }
}

Status Service::Impl::AbortFromRegister(const integration::AbortRequest& request) {
  auto target = registers->FindRequest(request.identity.register_id, request.target_service_id);
  if (!target.ok() || target->kind != "payment")
    return NotFoundError("no payment " + request.target_service_id + " of this cash register");
  auto running = register_sales.find(target->sale_id);
  if (running == register_sales.end()) return OkStatus();  // ended: an abort changes nothing
  auto sale = driver->Get(target->sale_id);
  if (!sale.ok() || sale->collected() > 0 || std::holds_alternative<checkout::Paid>(sale->state)) return OkStatus();
  const checkout::Cancel cancel{"pos:" + request.identity.register_id,
                                request.reason.empty() ? "aborted by the cash register" : request.reason,
                                bank_clock->Now(), ""};
  if (Status acceptable = Acceptable(target->sale_id, cancel); !acceptable.ok()) return OkStatus();
  running->second.aborted = true;
  touched.insert(target->sale_id);
  auto canceled = driver->Feed(target->sale_id, cancel);
  logging::Info(ProtocolOf(request.identity), "cash-register abort",
                {{"sale", target->sale_id}, {"register", request.identity.register_id}, {"accepted", canceled.ok()}});
  return OkStatus();
}

void Service::Impl::ReverseFromRegister(const integration::ReversalRequest& request, UnixMicros deadline,
                                        std::function<void(integration::ReversalOutcome)> done) {
  integration::ReversalOutcome outcome;
  outcome.sale_id = request.sale_id;
  auto refuse = [&](Result result, std::string reason) {
    outcome.result = result;
    outcome.reason = std::move(reason);
    done(outcome);
  };
  const auto& id = request.identity;
  if (auto seen = registers->FindRequest(id.register_id, id.service_id); seen.ok())
    return AnswerRepeatedReversal(request, *seen, std::move(done));
  auto payment = registers->FindPaymentOfSale(request.sale_id);
  if (!payment.ok()) return refuse(Result::kNotFound, "no cash-register payment made sale " + request.sale_id);
  if (payment->register_id != id.register_id)
    return refuse(Result::kNotAllowed, "sale " + request.sale_id + " was paid from another cash register");
  if (register_reversals.count(request.sale_id)) return refuse(Result::kBusy, "a reversal of this sale is in progress");
  if (Status open = EnsureOpen(request.sale_id); !open.ok()) return refuse(Result::kUnavailable, open.message());
  auto sale = driver->Get(request.sale_id);
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
                                 {"needs_supervisor", config.nexo.reversal_needs_supervisor}};
  offline::RegisterRequestRow row{id.register_id, id.service_id,   id.transaction_id,
                                  "reversal",     request.sale_id, resume.dump()};
  if (Status begun = registers->BeginRequest(row); !begun.ok()) return refuse(Result::kUnavailable, begun.message());
  touched.insert(request.sale_id);
  RegisterReversal running;
  running.request = request;
  running.request.amount = amount;
  running.collected_before = sale->collected();
  running.deadline = deadline;
  running.waiters.push_back(std::move(done));
  if (config.nexo.reversal_needs_supervisor) {
    // The register's key asked; a supervisor on the box's screen approves (sale_routes.cc).
    running.awaiting_supervisor = true;
    register_reversals[request.sale_id] = std::move(running);
    book->SetReversalRequested(request.sale_id, amount);
    book->SetMessage(request.sale_id, "reversal asked by cash register " + id.register_id + ": a supervisor approves");
    logging::Info(ProtocolOf(id), "cash-register reversal waits for a supervisor",
                  {{"sale", request.sale_id}, {"register", id.register_id}, {"amount", amount}});
    return;
  }
  auto reversed = FeedIfAccepted(request.sale_id, RegisterReverse(request, amount, requester, bank_clock->Now()));
  logging::Info(
      ProtocolOf(id), "cash-register reversal",
      {{"sale", request.sale_id}, {"register", id.register_id}, {"amount", amount}, {"accepted", reversed.ok()}});
  if (!reversed.ok()) {
    outcome.result = Result::kNotAllowed;
    outcome.reason = reversed.status().message();
    FinishReversal(id, outcome);
    return running.waiters.front()(outcome);
  }
  register_reversals[request.sale_id] = std::move(running);
}

void Service::Impl::AnswerRepeatedReversal(const integration::ReversalRequest& request,
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
    auto running = register_reversals.find(request.sale_id);
    if (running != register_reversals.end()) return running->second.waiters.push_back(std::move(done));
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

void Service::Impl::FinishReversal(const integration::RequestIdentity& id,
                                   const integration::ReversalOutcome& outcome) {
  const nlohmann::json record = {{"result", integration::ResultName(outcome.result)},
                                 {"amount", outcome.amount},
                                 {"queued", outcome.queued},
                                 {"sale_id", outcome.sale_id},
                                 {"reason", outcome.reason},
                                 {"refund_receipt", outcome.refund_receipt}};
  if (Status finished = registers->Finish(id.register_id, id.service_id, record.dump()); !finished.ok())
    logging::Error(ProtocolOf(id), "outcome not recorded", {{"sale", outcome.sale_id}, {"reason", finished.message()}});
}

StatusOr<checkout::Sale> Service::Impl::ApproveRegisterReversal(const std::string& sale_id,
                                                                const std::string& supervisor) {
  auto waiting = register_reversals.find(sale_id);
  if (waiting == register_reversals.end() || !waiting->second.awaiting_supervisor)
    return FailedPreconditionError("no cash-register reversal of sale " + sale_id + " waits for approval");
  const integration::ReversalRequest& request = waiting->second.request;
  BALCAO_ASSIGN_OR_RETURN(checkout::Sale sale, FeedIfAccepted(sale_id, RegisterReverse(request, request.amount,
                                                                                       supervisor, bank_clock->Now())));
  waiting->second.awaiting_supervisor = false;
  book->SetReversalRequested(sale_id, 0);
  logging::Info(ProtocolOf(request.identity), "cash-register reversal approved",
                {{"sale", sale_id}, {"register", request.identity.register_id}, {"supervisor", supervisor}});
  return sale;
}

integration::StatusLookup Service::Impl::LookupFromRegister(const integration::RequestIdentity& identity) {
  integration::StatusLookup lookup;
  auto seen = registers->FindRequest(identity.register_id, identity.service_id);
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

void Service::Impl::ResumeRegisterSales() {
  auto running = registers->Running("payment");
  if (!running.ok()) return;
  for (const offline::RegisterRequestRow& row : *running) {
    if (row.sale_id.empty()) continue;
    if (!driver->Get(row.sale_id).ok()) {
      if (!book->Knows(row.sale_id)) continue;
      if (auto resumed = driver->Resume(row.sale_id); !resumed.ok())
        logging::Error("nexo", "cash-register sale not resumed",
                       {{"sale", row.sale_id}, {"reason", resumed.status().message()}});
    }
    RegisterSale& sale = register_sales[row.sale_id];
    sale.request.identity = {row.register_id, row.service_id, row.transaction_id};
    sale.request.message_text = row.request;
    touched.insert(row.sale_id);
  }
  ResumeRegisterReversals();
}

// A reversal begun before a restart: watched again so that its outcome is recorded and a
// repeated request gets it; one that was never fed (the box died between keeping the request
// and feeding the sale) is fed now, once.
void Service::Impl::ResumeRegisterReversals() {
  auto running = registers->Running("reversal");
  if (!running.ok()) return;
  const UnixMicros now = bank_clock->Now();
  for (const offline::RegisterRequestRow& row : *running) {
    const auto kept = nlohmann::json::parse(row.request, nullptr, false);
    if (row.sale_id.empty() || !kept.is_object()) continue;
    if (!EnsureOpen(row.sale_id).ok()) continue;
    auto sale = driver->Get(row.sale_id);
    if (!sale.ok()) continue;
    RegisterReversal& reversal = register_reversals[row.sale_id];
    reversal.request.identity = {row.register_id, row.service_id, row.transaction_id};
    reversal.request.sale_id = row.sale_id;
    reversal.request.amount = kept.value("amount", 0LL);
    reversal.collected_before = kept.value("collected_before", 0LL);
    reversal.deadline = now + static_cast<UnixMicros>(config.nexo.response_timeout_s) * kMicrosPerSecond;
    const bool never_fed =
        std::holds_alternative<checkout::Paid>(sale->state) && sale->collected() == reversal.collected_before;
    if (never_fed && kept.value("needs_supervisor", false)) {
      reversal.awaiting_supervisor = true;
      book->SetReversalRequested(row.sale_id, reversal.request.amount);
    } else if (never_fed) {
      const std::string requester = "pos:" + row.register_id;
      auto fed = FeedIfAccepted(row.sale_id, checkout::Reverse{reversal.request.amount, requester,
                                                               kept.value("reason", ""), bank_clock->Now(), requester});
      if (!fed.ok())
        logging::Error("nexo", "resumed reversal not fed", {{"sale", row.sale_id}, {"reason", fed.status().message()}});
    }
    logging::Info("nexo", "cash-register reversal resumed",
                  {{"sale", row.sale_id}, {"register", row.register_id}, {"fed_now", never_fed}});
    touched.insert(row.sale_id);
  }
}

}  // namespace balcao::terminal::service
