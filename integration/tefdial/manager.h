// The TEF Dial manager: the payment manager a PDV talks to through DIR/req and DIR/resp, run
// on the box's counter (integration/core/counter.h). It answers every request with a status file
// at once (from the watcher's thread, before anything slow), then on its own thread decides with
// the exchange (exchange.h), journals each step in the exchange log before acting on it, and
// asks the counter for the sale (CRT), its undo (NCN, the unresolved-sale policy) or its
// cancellation (CNC). Start() first finishes what a crash interrupted: a CRT journaled but not
// answered is asked again of the counter (its identity makes that start nothing twice), an
// answer decided but not written is written, an undo or a cancellation started is asked again.
// Thread-safety: Start/Stop from one thread; the rest is internal.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/status.h"
#include "common/task_loop.h"
#include "common/time.h"
#include "integration/core/counter.h"
#include "integration/tefdial/exchange.h"
#include "integration/tefdial/exchange_log.h"
#include "integration/tefdial/folder.h"
#include "integration/tefdial/response.h"

namespace balcao::integration::tefdial {

enum class Unresolved { kUndo, kConfirm };

struct ManagerOptions {
  FolderOptions folder;
  std::string log_path;                // the exchange log (in the data dir)
  PayMethod method = PayMethod::kAsk;  // tef_dial.method
  Unresolved unresolved = Unresolved::kUndo;
  std::int64_t unresolved_after_s = 600;  // a pending sale nobody resolves is settled after this
  Merchant merchant;
  std::chrono::milliseconds pay_wait{std::chrono::minutes(15)};  // then the counter is asked again
  // Fault injection for the kill tests (docs/integration.md, "Power cuts"): the process ends
  // (_exit 86) right after this step: request-read, status-written, crt-journaled,
  // sale-approved, response-written, cnf-read, undo-sent. "" in production.
  std::string crash_at;
};

class Manager {
 public:
  // Something the operator must see (an unresolved sale settled by the policy): wired to the
  // touchscreen's flags. Called on the manager's thread.
  using Notice = std::function<void(const std::string& sale_id, const std::string& text)>;

  // Opens the folders (creating them, 2770) and the exchange log. Errors as Folder::Open and
  // ExchangeLog::Open.
  static StatusOr<std::unique_ptr<Manager>> Open(ManagerOptions options, Counter& counter, const Clock& clock,
                                                 Notice notice = {});
  ~Manager();  // Stop()s
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  // Resumes what a crash interrupted, then watches req/.
  void Start();
  void Stop();

  // A copy of the exchange as the manager's thread has it (for tests and the status line).
  Exchange Snapshot();

 private:
  Manager(ManagerOptions options, Counter& counter, const Clock& clock, Notice notice);
  void Post(std::function<void()> task);
  void OnFile(const RequestFile& file, std::string text);  // the watcher's thread
  void Handle(const RequestFile& file, const std::string& text);
  void Resume();
  void Tick();
  void AskCounter(const TefSale& sale);
  void OnPayment(const std::string& key, const PaymentOutcome& outcome);
  void Undo(const TefSale& sale);
  void Cancel(const TefSale& sale);
  void Answer(const std::string& name, const std::string& request_key, const IntPos& response);
  bool Journal(const Event& event);
  void CrashPoint(const char* step) const;

  const ManagerOptions options_;
  Counter& counter_;
  const Clock& clock_;
  Notice notice_;
  std::unique_ptr<Folder> folder_;
  std::unique_ptr<ExchangeLog> log_;
  Exchange exchange_;  // manager thread

  UnixMicros retry_at_ = 0;                  // manager thread: when undos and cancellations are asked again
  std::map<std::string, UnixMicros> reask_;  // manager thread: CRT key -> when to ask the counter again
  std::set<std::string> in_flight_;          // manager thread: undos and cancellations the counter has
  TaskLoop loop_;                            // the manager's thread: ticks every second on clock_
};

}  // namespace balcao::integration::tefdial
