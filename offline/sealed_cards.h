// Card store-and-forward (opt-in per store, off by default): while the bank is
// unreachable a card sale may be accepted up to a per-sale cap and a total cap; the
// card data is sealed with AES-256-GCM under a fresh per-record data key wrapped by the
// key-encryption key (a 0600 file, never in the database). As soon as the outcome is
// known the record is destroyed: wrapped key and ciphertext overwritten, row deleted
// (secure_delete), WAL checkpointed with TRUNCATE. Records older than the age limit
// are declined locally and flagged. Each outcome is kept (masked, no card data) until
// the operator and settlement took it (PCI DSS 3.3.1 / 3.3.2; docs/reliability.md, "Card
// data handling").
// Thread-safety: as Store.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "offline/card_data.h"
#include "offline/store.h"

namespace balcao::offline {

namespace internal {
class SecretKey;
}

struct StoreAndForwardSettings {
  bool enabled = false;
  std::string kek_path;                          // 0600 file: 32 raw bytes or 64 hex digits
  std::int64_t per_sale_cap_cents = 20'000;      // R$ 200.00
  std::int64_t total_cap_cents = 200'000;        // R$ 2,000.00 waiting at once
  std::int64_t max_age_ms = 24LL * 3600 * 1000;  // older: declined locally and flagged
};

struct SealedCardInfo {  // what may be shown: no card data beyond BIN + last 4
  std::int64_t id = 0;
  std::string sale_id;
  std::int64_t amount = 0;
  std::string masked_pan;
  int attempts = 0;
  bool may_exist_at_bank = false;  // a forward was started: look up before sending
  std::int64_t created_at_ms = 0;
};

enum class CardOutcomeKind { kApproved, kDeclined, kExpired };
const char* CardOutcomeName(CardOutcomeKind k);  // "approved", "declined", "expired"

struct CardOutcome {
  std::string sale_id;
  std::int64_t amount = 0;
  std::string masked_pan;
  CardOutcomeKind outcome = CardOutcomeKind::kDeclined;
  std::string reason;
  std::string bank_id;
  std::int64_t accepted_at_ms = 0;
  std::int64_t decided_at_ms = 0;
};

// Who asks the bank. Given the card in memory, returns the decision, or an error when
// there is none yet (the record stays for the next round). When `may_exist` is true a
// previous attempt may have reached the bank: look it up (by the sale's tag) first.
// With `lookup_only` (the record is past the age limit) never send: kNotFound when the
// bank has no trace of it.
class CardAuthorizer {
 public:
  virtual ~CardAuthorizer() = default;
  struct Decision {
    bool approved = false;
    std::string reason;
    std::string bank_id;
  };
  virtual StatusOr<Decision> Authorize(const SealedCardInfo& info, const CardData& card, bool may_exist,
                                       bool lookup_only) = 0;
};

class SealedCards {
 public:
  // Disabled settings give a SealedCards that refuses every Accept. Enabled ones need
  // a readable KEK file with mode 0600/0400 (kPermissionDenied for looser modes).
  static StatusOr<std::unique_ptr<SealedCards>> Open(Store& store, const StoreAndForwardSettings& settings);
  ~SealedCards();

  // Seals and stores an offline card sale; durable when OK. kFailedPrecondition when
  // disabled, kResourceExhausted over a cap, kInvalidArgument for a bad card.
  StatusOr<std::int64_t> Accept(const std::string& sale_id, std::int64_t amount, const CardData& card);
  StatusOr<std::vector<SealedCardInfo>> Pending();
  std::int64_t PendingTotal();

  // Forwards every waiting record through `authorizer` (oldest first), destroying each
  // one whose outcome is known; expired ones are declined locally. Returns how many
  // were decided. Stops early when a call fails with kUnavailable (the bank is down).
  StatusOr<int> ForwardAll(CardAuthorizer& authorizer, std::int64_t now_ms);

  // A supervisor takes a waiting card out of the queue: declined locally ("dropped by
  // <operator>: <reason>"; the merchant collects another way) and destroyed like any outcome.
  // kNotFound when no card of the sale waits; kFailedPrecondition for one that may have reached
  // the bank (its lookup decides) and without a reason.
  Status Drop(const std::string& sale_id, const std::string& operator_name, const std::string& reason,
              std::int64_t now_ms);

  // Outcomes not yet taken by the operator/settlement, and the acknowledgement.
  StatusOr<std::vector<CardOutcome>> UnreportedOutcomes();
  Status MarkReported(const std::string& sale_id);
  // Runs PRAGMA wal_checkpoint(TRUNCATE); kUnavailable when a reader kept the WAL.
  Status TruncateWal();

 private:
  SealedCards(Store& store, const StoreAndForwardSettings& settings);
  StatusOr<std::int64_t> Seal(const std::string& sale_id, std::int64_t amount, const CardData& card);
  Status Destroy(const SealedCardInfo& info, CardOutcomeKind outcome, const std::string& reason,
                 const std::string& bank_id, std::int64_t now_ms);
  Status Unseal(std::int64_t id, const std::string& sale_id, CardData& card);

  Store& store_;
  StoreAndForwardSettings settings_;
  std::unique_ptr<internal::SecretKey> kek_;
};

}  // namespace balcao::offline
