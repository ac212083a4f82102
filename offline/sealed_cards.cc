// Card store-and-forward on the store (see sealed_cards.h).
#include "offline/sealed_cards.h"

#include <sqlite3.h>

#include <cstring>

#include "common/log.h"
#include "common/time.h"
#include "offline/internal/card_crypto.h"
#include "offline/internal/db.h"

namespace balcao::offline {
namespace {

using internal::SecretKey;
using internal::Stmt;
using internal::Txn;

std::string KeyAad(const std::string& sale_id) { return "balcao-dek:" + sale_id; }
std::string CardAad(const std::string& sale_id) { return "balcao-card:" + sale_id; }

// number \n code \n expiration \n holder \n funding \n installments [\n forward]
// (a record sealed before the forward's data has no last line)
std::string Serialize(const CardData& card) {
  std::string out;
  out.reserve(128 + card.forward.size());
  out += card.number + '\n' + card.security_code + '\n' + card.expiration + '\n' + card.holder_name + '\n' +
         card.funding_type + '\n' + std::to_string(card.installments);
  if (!card.forward.empty()) out += '\n' + card.forward;
  return out;
}

Status Deserialize(std::string& text, CardData& card) {
  std::string* fields[] = {&card.number, &card.security_code, &card.expiration, &card.holder_name, &card.funding_type};
  std::size_t start = 0;
  for (std::string* field : fields) {
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) return DataLossError("sealed card record is malformed");
    field->assign(text, start, nl - start);
    start = nl + 1;
  }
  card.installments = std::atoi(text.c_str() + start);
  if (const std::size_t nl = text.find('\n', start); nl != std::string::npos) card.forward.assign(text, nl + 1);
  return OkStatus();
}

std::string YearMonth(std::int64_t now_ms) { return FormatDate(now_ms * 1000).substr(0, 7); }

const char* kInfoColumns = "SELECT id, sale_id, amount, masked_pan, attempts, state, created_at FROM sealed_cards ";

SealedCardInfo ReadInfo(const Stmt& s) {
  return {s.Int(0), s.Text(1), s.Int(2), s.Text(3), static_cast<int>(s.Int(4)), s.Text(5) == "forwarding", s.Int(6)};
}

// For card sales the log gets an error's code, HTTP status and delivery, never its text:
// a bank's error message could echo a field of the request that carried the card.
std::string ErrorCode(const Status& s) {
  std::string out = StatusCodeName(s.code());
  if (s.http_status() != 0) out += " http " + std::to_string(s.http_status());
  if (s.delivery() == Delivery::kOutcomeUnknown) out += " (may have reached the bank)";
  return out;
}

}  // namespace

const char* CardOutcomeName(CardOutcomeKind k) {
  switch (k) {
    case CardOutcomeKind::kApproved:
      return "approved";
    case CardOutcomeKind::kDeclined:
      return "declined";
    case CardOutcomeKind::kExpired:
      return "expired";
  }
  return "?";
}

SealedCards::SealedCards(Store& store, const StoreAndForwardSettings& settings)
    : store_(store), settings_(settings), kek_(std::make_unique<SecretKey>()) {}

SealedCards::~SealedCards() = default;

StatusOr<std::unique_ptr<SealedCards>> SealedCards::Open(Store& store, const StoreAndForwardSettings& settings) {
  if (settings.per_sale_cap_cents < 0 || settings.total_cap_cents < 0)
    return InvalidArgumentError("store-and-forward caps: must be >= 0 cents");
  if (settings.max_age_ms <= 0) return InvalidArgumentError("store-and-forward max age: must be positive");
  std::unique_ptr<SealedCards> cards(new SealedCards(store, settings));
  if (settings.enabled) {
    if (settings.kek_path.empty())
      return InvalidArgumentError("store-and-forward kek_path: required when store-and-forward is enabled");
    BALCAO_RETURN_IF_ERROR(internal::LoadKek(settings.kek_path, *cards->kek_));
  }
  return cards;
}

StatusOr<std::int64_t> SealedCards::Accept(const std::string& sale_id, std::int64_t amount, const CardData& card) {
  auto sealed = Seal(sale_id, amount, card);
  if (sealed.ok())
    logging::Info("sealed_cards", "accepted offline: sealed until the bank answers",
                  {{"sale", sale_id}, {"amount", amount}, {"record", *sealed}});
  else
    logging::Warn("sealed_cards", "refused offline",
                  {{"sale", sale_id}, {"amount", amount}, {"error", sealed.status().ToString()}});
  return sealed;
}

StatusOr<std::int64_t> SealedCards::Seal(const std::string& sale_id, std::int64_t amount, const CardData& card) {
  if (!settings_.enabled) return FailedPreconditionError("card store-and-forward is off for this store");
  if (sale_id.empty()) return InvalidArgumentError("sale_id: must not be empty");
  if (amount <= 0) return InvalidArgumentError("amount: must be positive cents");
  if (amount > settings_.per_sale_cap_cents)
    return OutOfRangeError("amount: over the offline card limit per sale (" +
                           std::to_string(settings_.per_sale_cap_cents) + " cents)");
  const std::int64_t now = store_.impl().NowMs();
  BALCAO_RETURN_IF_ERROR(card.Validate(YearMonth(now)));
  if (card.holder_name.find('\n') != std::string::npos)
    return InvalidArgumentError("card holder name: must be one line");
  if (card.forward.find('\n') != std::string::npos) return InvalidArgumentError("card forward data: must be one line");

  SecretKey data_key;
  BALCAO_RETURN_IF_ERROR(internal::RandomKey(data_key));
  std::string key_bytes(reinterpret_cast<const char*>(data_key.data()), SecretKey::kSize);
  auto wrapped = internal::SealBytes(*kek_, KeyAad(sale_id), key_bytes);
  WipeString(key_bytes);
  if (!wrapped.ok()) return wrapped.status();
  std::string plaintext = Serialize(card);
  auto sealed = internal::SealBytes(data_key, CardAad(sale_id), plaintext);
  WipeString(plaintext);
  if (!sealed.ok()) return sealed.status();

  Txn txn(store_.impl(), Txn::kWrite);
  Stmt total(txn, "SELECT coalesce(sum(amount), 0) FROM sealed_cards");
  BALCAO_ASSIGN_OR_RETURN(bool row, total.Step());
  if (row && total.Int(0) + amount > settings_.total_cap_cents)
    return OutOfRangeError("amount: the offline card total would pass its limit (" +
                           std::to_string(settings_.total_cap_cents) + " cents waiting at most)");
  Stmt insert(txn,
              "INSERT INTO sealed_cards (sale_id, amount, masked_pan, wrapped_key, sealed, created_at, updated_at) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6) ON CONFLICT (sale_id) DO NOTHING RETURNING id");
  insert.BindAll(sale_id, amount, card.Masked()).BindBlob(4, *wrapped).BindBlob(5, *sealed);
  BALCAO_ASSIGN_OR_RETURN(bool inserted, insert.Bind(6, now).Step());
  if (!inserted) return AlreadyExistsError("sale " + sale_id + " already has an offline card record");
  const std::int64_t id = insert.Int(0);
  BALCAO_RETURN_IF_ERROR(insert.Run());
  BALCAO_RETURN_IF_ERROR(txn.Commit());
  return id;
}

StatusOr<std::vector<SealedCardInfo>> SealedCards::Pending() {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn, std::string(kInfoColumns) + "ORDER BY id");
  return sqlite::ReadAll(stmt, ReadInfo);
}

std::int64_t SealedCards::PendingTotal() {
  auto pending = Pending();
  std::int64_t total = 0;
  if (pending.ok())
    for (const auto& p : *pending) total += p.amount;
  return total;
}

Status SealedCards::Unseal(std::int64_t id, const std::string& sale_id, CardData& card) {
  std::string wrapped, sealed;
  {
    Txn txn(store_.impl(), Txn::kRead);
    Stmt stmt(txn, "SELECT wrapped_key, sealed FROM sealed_cards WHERE id=?1");
    BALCAO_ASSIGN_OR_RETURN(bool found, stmt.Bind(1, id).Step());
    if (!found) return NotFoundError("sealed card record " + std::to_string(id) + " is gone");
    wrapped = stmt.Blob(0);
    sealed = stmt.Blob(1);
  }
  std::string key_bytes;
  BALCAO_RETURN_IF_ERROR(internal::OpenBytes(*kek_, KeyAad(sale_id), wrapped, key_bytes));
  SecretKey data_key;
  std::memcpy(data_key.data(), key_bytes.data(), std::min<std::size_t>(key_bytes.size(), SecretKey::kSize));
  WipeString(key_bytes);
  std::string plaintext;
  Status opened = internal::OpenBytes(data_key, CardAad(sale_id), sealed, plaintext);
  if (opened.ok()) opened = Deserialize(plaintext, card);
  WipeString(plaintext);
  return opened;
}

Status SealedCards::Destroy(const SealedCardInfo& info, CardOutcomeKind outcome, const std::string& reason,
                            const std::string& bank_id, std::int64_t now_ms) {
  {
    Txn txn(store_.impl(), Txn::kWrite);
    // Overwrite the wrapped key first (crypto-shredding), then delete the row.
    Stmt shred(txn,
               "UPDATE sealed_cards SET wrapped_key=zeroblob(length(wrapped_key)), sealed=zeroblob(length(sealed)) "
               "WHERE id=?1");
    BALCAO_RETURN_IF_ERROR(shred.Bind(1, info.id).Run());
    Stmt remove(txn, "DELETE FROM sealed_cards WHERE id=?1");
    BALCAO_RETURN_IF_ERROR(remove.Bind(1, info.id).Run());
    Stmt record(txn,
                "INSERT INTO card_outcomes (sale_id, amount, masked_pan, outcome, reason, bank_id, accepted_at, "
                "decided_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    record.BindAll(info.sale_id, info.amount, info.masked_pan, CardOutcomeName(outcome));
    BALCAO_RETURN_IF_ERROR(record.BindFrom(5, reason, bank_id, info.created_at_ms, now_ms).Run());
    BALCAO_RETURN_IF_ERROR(txn.Commit());
  }
  // Old page images of the row live in the WAL until a TRUNCATE checkpoint. A reader
  // may hold it now; the next ForwardAll (or TruncateWal) tries again.
  const bool wal_truncated = TruncateWal().ok();
  const std::initializer_list<logging::Field> fields = {
      {"sale", info.sale_id}, {"amount", info.amount}, {"outcome", CardOutcomeName(outcome)},
      {"bank_id", bank_id},   {"reason", reason},      {"wal_truncated", wal_truncated}};
  if (outcome == CardOutcomeKind::kApproved)
    logging::Info("sealed_cards", "approved; card data destroyed", fields);
  else if (outcome == CardOutcomeKind::kDeclined)
    logging::Warn("sealed_cards", "declined after the customer left; card data destroyed", fields);
  else
    logging::Warn("sealed_cards", "declined locally (too old); card data destroyed", fields);
  return OkStatus();
}

Status SealedCards::Drop(const std::string& sale_id, const std::string& operator_name, const std::string& reason,
                         std::int64_t now_ms) {
  if (reason.size() < 3) return FailedPreconditionError("reason: 3 characters or more");
  BALCAO_ASSIGN_OR_RETURN(std::vector<SealedCardInfo> waiting, Pending());
  for (const SealedCardInfo& info : waiting) {
    if (info.sale_id != sale_id) continue;
    if (info.may_exist_at_bank)
      return FailedPreconditionError("the card of sale " + sale_id +
                                     " may have reached the bank: its lookup decides, it cannot be dropped");
    return Destroy(info, CardOutcomeKind::kDeclined, "dropped by " + operator_name + ": " + reason, "", now_ms);
  }
  return NotFoundError("no card of sale " + sale_id + " waits to be forwarded");
}

Status SealedCards::TruncateWal() {
  Store::Impl& impl = store_.impl();
  std::lock_guard<std::mutex> lock(impl.mu);
  int log = 0, done = 0;
  const int rc = sqlite3_wal_checkpoint_v2(impl.db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, &log, &done);
  if (rc == SQLITE_BUSY) return UnavailableError("WAL checkpoint: a reader holds the WAL; will retry");
  if (rc != SQLITE_OK) return internal::SqliteError(impl.db, rc, "WAL checkpoint");
  return OkStatus();
}

StatusOr<int> SealedCards::ForwardAll(CardAuthorizer& authorizer, std::int64_t now_ms) {
  BALCAO_ASSIGN_OR_RETURN(std::vector<SealedCardInfo> records, Pending());
  int decided = 0;
  for (SealedCardInfo& info : records) {
    const bool expired = now_ms - info.created_at_ms > settings_.max_age_ms;
    const std::string expired_reason = "not authorized within " + std::to_string(settings_.max_age_ms / 3600000) +
                                       " h: declined locally after the customer left";
    if (expired && !info.may_exist_at_bank) {
      BALCAO_RETURN_IF_ERROR(Destroy(info, CardOutcomeKind::kExpired, expired_reason, "", now_ms));
      ++decided;
      continue;
    }
    if (!expired) {  // committed before the card leaves the box: a crash now means "look it up"
      Txn txn(store_.impl(), Txn::kWrite);
      Stmt mark(txn, "UPDATE sealed_cards SET state='forwarding', attempts=attempts+1, updated_at=?2 WHERE id=?1");
      BALCAO_RETURN_IF_ERROR(mark.BindAll(info.id, now_ms).Run());
      BALCAO_RETURN_IF_ERROR(txn.Commit());
      info.attempts += 1;
    }
    logging::Info("sealed_cards", expired ? "too old: only looking it up at the bank" : "forwarding to the bank",
                  {{"sale", info.sale_id},
                   {"amount", info.amount},
                   {"attempt", info.attempts},
                   {"may_exist", info.may_exist_at_bank}});
    CardData card;
    BALCAO_RETURN_IF_ERROR(Unseal(info.id, info.sale_id, card));
    auto decision = authorizer.Authorize(info, card, info.may_exist_at_bank, expired);
    card.Wipe();
    const bool expired_absent = expired && decision.status().code() == StatusCode::kNotFound;
    if (!decision.ok() && !expired_absent)
      logging::Warn("sealed_cards", "no decision yet: stays sealed for the next round",
                    {{"sale", info.sale_id}, {"amount", info.amount}, {"error", ErrorCode(decision.status())}});
    if (decision.ok()) {
      BALCAO_RETURN_IF_ERROR(Destroy(info, decision->approved ? CardOutcomeKind::kApproved : CardOutcomeKind::kDeclined,
                                     decision->reason, decision->bank_id, now_ms));
      ++decided;
    } else if (expired_absent) {
      BALCAO_RETURN_IF_ERROR(Destroy(info, CardOutcomeKind::kExpired, expired_reason, "", now_ms));
      ++decided;
    } else if (decision.status().code() == StatusCode::kUnavailable) {
      break;  // the bank is unreachable: the rest waits for the next round
    }
  }
  return decided;
}

StatusOr<std::vector<CardOutcome>> SealedCards::UnreportedOutcomes() {
  Txn txn(store_.impl(), Txn::kRead);
  Stmt stmt(txn,
            "SELECT sale_id, amount, masked_pan, outcome, reason, bank_id, accepted_at, decided_at FROM card_outcomes "
            "WHERE reported_at IS NULL ORDER BY decided_at, sale_id");
  return sqlite::ReadAll(stmt, [](const Stmt& row) {
    CardOutcome o;
    std::string kind;
    row.ReadInto(o.sale_id, o.amount, o.masked_pan, kind, o.reason, o.bank_id, o.accepted_at_ms, o.decided_at_ms);
    o.outcome = kind == "approved"  ? CardOutcomeKind::kApproved
                : kind == "expired" ? CardOutcomeKind::kExpired
                                    : CardOutcomeKind::kDeclined;
    return o;
  });
}

Status SealedCards::MarkReported(const std::string& sale_id) {
  BALCAO_ASSIGN_OR_RETURN(
      const int reported,
      internal::RunWrite(store_.impl(),
                         "UPDATE card_outcomes SET reported_at=?2 WHERE sale_id=?1 AND reported_at IS NULL", sale_id,
                         store_.impl().NowMs()));
  if (reported == 0) return NotFoundError("no unreported card outcome for sale " + sale_id);
  return OkStatus();
}

}  // namespace balcao::offline
