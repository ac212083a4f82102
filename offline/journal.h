// The sale journal: an append-only event log per sale, written by the checkout driver
// before it runs an effect, replayed after a crash to restore each open sale.
// Append is durable on return. Payloads are JSON and never carry card data: a payload
// with a card number or security code is refused (card_scan.h). Every row is chained to
// the one appended before it by SHA-256 (journal_chain.h), so a row changed, deleted or
// inserted behind the store's back shows in VerifyChain.
// Thread-safety: as Store.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "offline/journal_chain.h"
#include "offline/store.h"

namespace balcao::offline {

struct JournalEntry {
  std::string sale_id;
  std::int64_t seq = 0;
  std::string kind;     // the event's name ("cashier.start", "api.result"...)
  std::string payload;  // JSON
  std::int64_t created_at_ms = 0;
};

struct SaleSummary {
  std::string sale_id;
  std::int64_t opened_at_ms = 0;
  std::int64_t last_seq = 0;
  std::int64_t closed_at_ms = 0;  // 0 while open
  std::string final_state;        // what MarkClosed recorded
};

class Journal {
 public:
  explicit Journal(Store& store);

  // Appends event `seq` of `sale_id` (opening the sale on its first event). Sequence
  // numbers increase strictly per sale. Appending the same (sale, seq) again with the
  // same kind and payload is a no-op (a replayed write); with different content it
  // is kAlreadyExists. Appending to a closed sale is allowed (late bank events are
  // journaled too) and leaves it closed. Durable when it returns OK.
  Status Append(const std::string& sale_id, std::int64_t seq, const std::string& kind, const std::string& json_payload);
  // Every event of the sale in seq order (empty when the sale is unknown).
  StatusOr<std::vector<JournalEntry>> Read(const std::string& sale_id);
  // Sales not closed yet, oldest first: what the driver resumes after a restart.
  StatusOr<std::vector<std::string>> OpenSales();
  StatusOr<SaleSummary> Sale(const std::string& sale_id);
  // The caller decides when a sale is over (a terminal state of its state machine).
  Status MarkClosed(const std::string& sale_id, const std::string& final_state);
  // A closed sale that must be looked at again (a refund on a paid sale, late money).
  Status Reopen(const std::string& sale_id);

  // Reads the whole journal in chain order and checks it (ChainVerifier): every link, every
  // head a nightly settlement recorded, and the store's sale index against the journal's
  // last event of each sale. Reads only; works on a store opened with Store::OpenReadOnly.
  // Reads in batches, each its own read transaction, so writers wait one batch at most.
  // A broken chain is a verdict (ChainVerdict::broken), not an error; errors are the
  // store's (kUnavailable when busy, kDataLoss on a corrupt file...).
  StatusOr<ChainVerdict> VerifyChain();
  // The chain's head and, in the same read, the stored hash of the row at `position` (""
  // when there is none; ChainGenesis() for 0): what the box reports to the chain's hub, which
  // checks that each head extends the one it saw before (docs/hub.md, "Chain heads").
  struct ChainReport {
    std::int64_t rows = 0;
    std::string head;  // raw 32 bytes
    std::string at;    // raw 32 bytes
  };
  StatusOr<ChainReport> ReportChain(std::int64_t position);

 private:
  Store& store_;
};

}  // namespace balcao::offline
