// The print-job queue: every receipt to print is a durable row, so a paper jam or a
// printer that is off never loses a receipt, and "paid but not printed" stays visible
// until someone reprints it. Jobs hold the rendered printer bytes, never card data
// beyond the masked 6+4 digits a receipt may show.
// Thread-safety: as Store.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "offline/store.h"

namespace balcao::offline {

enum class PrintJobState { kQueued, kPrinting, kPrinted, kFailed };
const char* PrintJobStateName(PrintJobState s);  // "queued", "printing", "printed", "failed"

struct PrintJob {
  std::int64_t id = 0;
  std::string sale_id;  // may be empty (test pages, end-of-day summary)
  std::string kind;     // "card", "pix", "invoice", "refund", "offline", "summary", "test"...
  std::string target;   // printer address: "tcp://host:9100", "file:/dev/usb/lp0"...
  std::string payload;  // the rendered bytes (ESC/POS)
  // The bytes open the cash drawer (printer::OpensDrawer): never printed again without an
  // operator, or the drawer would open by itself.
  bool opens_drawer = false;
  PrintJobState state = PrintJobState::kQueued;
  int attempts = 0;
  std::string last_error;  // e.g. "paper out", "connection refused"
  std::int64_t created_at_ms = 0;
  std::int64_t updated_at_ms = 0;
};

// What the queue says about the printer, from the index by state (cheap to read often).
struct PrintJobStats {
  std::int64_t queued = 0, printing = 0, printed = 0, failed = 0;  // jobs in each state
  std::int64_t oldest_waiting_created_at_ms = 0;                   // of the queued and printing jobs; 0 when none
  // The newest job (by id) that reached an end failed: the printer is not printing now.
  bool last_failed = false;
  std::string last_error;  // that job's error
};

class PrintJobs {
 public:
  explicit PrintJobs(Store& store);

  // Durable when it returns OK. `opens_drawer`: whether `payload` kicks the cash drawer
  // (printer::OpensDrawer of the document it was rendered from).
  StatusOr<std::int64_t> Enqueue(const std::string& sale_id, const std::string& kind, const std::string& target,
                                 const std::string& payload, bool opens_drawer);
  // Oldest queued job (optionally for one target), moved to kPrinting; nullopt when none.
  // Jobs found in kPrinting at Open (a crash mid-print) are queued again.
  StatusOr<std::optional<PrintJob>> ClaimNext(const std::string& target = "");
  Status MarkPrinted(std::int64_t id);
  Status MarkFailed(std::int64_t id, const std::string& error);  // stays visible, attempts+1
  Status Requeue(std::int64_t id);                               // reprint (failed or printed)
  StatusOr<PrintJob> Get(std::int64_t id);
  StatusOr<std::vector<PrintJob>> List(std::optional<PrintJobState> state = std::nullopt, int limit = 100);
  StatusOr<PrintJobStats> Stats();

 private:
  Store& store_;
};

}  // namespace balcao::offline
