// The box as a cash register sees it (integration/core/counter.h), for nexo and TEF Dial alike:
// a register's payment opens a sale exactly as the touchscreen's POST /api/sales does, picks the
// method the register named (else the screen asks), and is answered when the sale ends; a
// reversal gives back what the sale collected (a supervisor approves it on the screen when
// nexo.reversal_needs_supervisor). The request's identity is written to the store before the
// sale opens, and its outcome when the sale ends, so a repeat or a status lookup (even after a
// restart) never starts a second sale. docs/integration.md.
// Owns: the registers' payments and reversals running now, and the answers owed to them.
// Calls: the sales (open, feed, look up), the store's cash registers, the journal (what the
// receipts show), the receipts (the copies and slips a register gets).
// Thread-safety: the Counter's calls from any thread (each posted to the driver's thread); every
// other method on the driver's thread.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/bank_clock.h"
#include "checkout/checkout.h"
#include "integration/core/counter.h"
#include "integration/core/register_request.h"
#include "offline/cash_registers.h"
#include "offline/journal.h"
#include "terminal/service/config.h"
#include "terminal/service/receipt_printer.h"
#include "terminal/service/sales.h"

namespace balcao::terminal::service {

class RegisterCounter : public integration::Counter {
 public:
  RegisterCounter(SaleDesk& sales, offline::CashRegisters& registers, offline::Journal& journal,
                  ReceiptPrinter& receipts, const Clock& clock, const ServeConfig& config);
  RegisterCounter(const RegisterCounter&) = delete;
  RegisterCounter& operator=(const RegisterCounter&) = delete;

  // --- integration::Counter, any thread ---
  void Pay(const integration::PaymentRequest& request, std::chrono::milliseconds wait,
           std::function<void(integration::PaymentOutcome)> done) override;
  void Abort(const integration::AbortRequest& request, std::function<void(Status)> done) override;
  void Reverse(const integration::ReversalRequest& request,
               std::function<void(integration::ReversalOutcome)> done) override;
  void Lookup(const integration::RequestIdentity& identity,
              std::function<void(integration::StatusLookup)> done) override;

  // --- the driver's thread ---
  bool IsRegisterSale(const std::string& sale_id) const;
  // A supervisor approved on the screen the register's reversal waiting for one (sale_routes.cc).
  StatusOr<checkout::Sale> ApproveReversal(const std::string& sale_id, const std::string& supervisor);
  // After each Publish: answers and records the payments and reversals that ended, and answers
  // InProgress to waiters past their deadline.
  void Settle();
  // At start: running payments watched again, running reversals carried on.
  void Resume();

 private:
  // A cash register's payment running as a sale.
  struct RunningPayment {
    integration::PaymentRequest request;
    bool aborted = false;
    struct Waiter {
      std::function<void(integration::PaymentOutcome)> done;
      UnixMicros deadline = 0;
    };
    std::vector<Waiter> waiters;  // answers owed: the first request and its repeats
  };
  struct RunningReversal {
    integration::ReversalRequest request;
    checkout::Cents collected_before = 0;  // what the sale had collected when the reversal began
    bool awaiting_supervisor = false;      // nexo.reversal_needs_supervisor: not fed until approved
    std::vector<std::function<void(integration::ReversalOutcome)>> waiters;
    UnixMicros deadline = 0;
  };

  // --- payments (register_counter.cc) ---
  void PayFromRegister(const integration::PaymentRequest& request, UnixMicros deadline,
                       std::function<void(integration::PaymentOutcome)> done);
  Status AbortFromRegister(const integration::AbortRequest& request);
  integration::StatusLookup LookupFromRegister(const integration::RequestIdentity& identity);
  void SettlePayments(UnixMicros now);
  std::optional<integration::PaymentOutcome> PaymentOutcomeOf(const std::string& sale_id, RunningPayment& running);
  // The brand and the receipts a register gets in `o`: the merchant's copy (CashierReceipt) and
  // the customer's (CustomerReceipt), each alone, re-rendered from the sale (after a restart too).
  void AddReceipts(const std::string& sale_id, const checkout::Sale& sale, const integration::RequestIdentity& id,
                   integration::PaymentOutcome& o);
  void ResumePayments();
  // --- reversals (register_reversal.cc) ---
  void ReverseFromRegister(const integration::ReversalRequest& request, UnixMicros deadline,
                           std::function<void(integration::ReversalOutcome)> done);
  // A reversal request seen before (`seen`): its recorded outcome, or the running one's answer.
  void AnswerRepeatedReversal(const integration::ReversalRequest& request, const offline::RegisterRequestRow& seen,
                              std::function<void(integration::ReversalOutcome)> done);
  // Records a reversal's outcome under its identity (a failure is logged).
  void FinishReversal(const integration::RequestIdentity& id, const integration::ReversalOutcome& outcome);
  void SettleReversals(UnixMicros now);
  // The text lines of the refund slip a cash register gets with its reversal's answer.
  std::vector<std::string> RefundSlipLines(const checkout::Sale& sale, checkout::Cents amount);
  void ResumeReversals();

  SaleDesk& sales_;
  offline::CashRegisters& registers_;
  offline::Journal& journal_;
  ReceiptPrinter& receipts_;
  const Clock& clock_;
  const ServeConfig& config_;
  std::map<std::string, RunningPayment> payments_;    // sale id -> running payment
  std::map<std::string, RunningReversal> reversals_;  // sale id -> running reversal
};

// The protocol a register's request came in by, for the log: TEF Dial's requests carry the
// register id "tef-dial" (integration/tefdial/manager.cc), every other is a nexo POI's.
const char* ProtocolOf(const integration::RequestIdentity& id);

}  // namespace balcao::terminal::service
