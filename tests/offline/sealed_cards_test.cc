// Card store-and-forward: KEK file checks, caps, sealing, forwarding with restarts,
// destruction on outcome, and the must-show scan: after the soak, no file of the data
// dir (database, -wal, -shm, the log) holds any card number or security code used, as
// ASCII, as hex text or as packed BCD.
#include "offline/sealed_cards.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "common/log.h"
#include "offline/card_scan.h"
#include "tests/offline/test_util.h"

namespace balcao::offline {
namespace {

using testing::ReadBytes;
using testing::TempDir;

std::string WriteKek(const TempDir& dir, mode_t mode, const std::string& content = std::string(64, 'a')) {
  const std::string path = dir.File("kek");
  std::filesystem::remove(path);
  { std::ofstream(path) << content; }
  ::chmod(path.c_str(), mode);
  return path;
}

// A random card number with a valid check digit, and a random 4-digit code.
std::string RandomPan(std::mt19937& rng) {
  std::string pan = "4";
  while (pan.size() < 15) pan += static_cast<char>('0' + rng() % 10);
  for (char d = '0'; d <= '9'; ++d)
    if (PassesLuhn(pan + d)) return pan + d;
  return pan;
}

CardData Card(const std::string& pan, const std::string& code) {
  CardData c;
  c.number = pan;
  c.security_code = code;
  c.expiration = "2099-12";
  c.holder_name = "MARIA DA SILVA";
  return c;
}

int CountHits(const TempDir& dir, const std::vector<std::string>& secrets) {
  return testing::CountSecretHitsInDir(dir.path(), secrets);
}

class ScriptedAuthorizer : public CardAuthorizer {
 public:
  StatusOr<Decision> Authorize(const SealedCardInfo& info, const CardData& card, bool may_exist,
                               bool lookup_only) override {
    seen_numbers.push_back(card.number);
    calls.push_back({info.sale_id, may_exist, lookup_only});
    auto it = script.find(info.sale_id);
    if (it != script.end() && !it->second.ok()) {
      Status s = it->second;
      script.erase(it);  // fail once
      return s;
    }
    if (lookup_only) return NotFoundError("no purchase tagged " + info.sale_id);
    return Decision{card.number.back() % 2 == 0, "issuer said so", "bank-" + info.sale_id};
  }
  struct Call {
    std::string sale_id;
    bool may_exist;
    bool lookup_only;
  };
  std::map<std::string, Status> script;
  std::vector<Call> calls;
  std::vector<std::string> seen_numbers;
};

TEST(SealedCards, KekFileMustBePrivateAndWellFormed) {
  TempDir dir;
  auto store = *Store::Open(dir.File("box.db"));
  StoreAndForwardSettings s;
  s.enabled = true;
  s.kek_path = WriteKek(dir, 0644);
  auto loose = SealedCards::Open(*store, s);
  EXPECT_EQ(loose.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(loose.status().message().find("0644"), std::string::npos);
  s.kek_path = WriteKek(dir, 0640);
  EXPECT_EQ(SealedCards::Open(*store, s).status().code(), StatusCode::kPermissionDenied);
  s.kek_path = WriteKek(dir, 0600, "too short");
  EXPECT_EQ(SealedCards::Open(*store, s).status().code(), StatusCode::kInvalidArgument);
  s.kek_path = WriteKek(dir, 0600, std::string(64, 'z'));
  EXPECT_EQ(SealedCards::Open(*store, s).status().code(), StatusCode::kInvalidArgument);
  s.kek_path = dir.File("missing");
  EXPECT_EQ(SealedCards::Open(*store, s).status().code(), StatusCode::kFailedPrecondition);
  s.kek_path = WriteKek(dir, 0600, std::string(64, 'a') + "\n");
  EXPECT_TRUE(SealedCards::Open(*store, s).ok());
  s.kek_path = WriteKek(dir, 0400, std::string(32, '\x07'));
  EXPECT_TRUE(SealedCards::Open(*store, s).ok());
}

TEST(SealedCards, OffByDefault) {
  auto store = *Store::Open(":memory:");
  auto cards = SealedCards::Open(*store, {});
  ASSERT_TRUE(cards.ok());
  EXPECT_EQ((*cards)->Accept("s", 100, Card("4111111111111111", "123")).status().code(),
            StatusCode::kFailedPrecondition);
}

TEST(SealedCards, CapsAndValidation) {
  TempDir dir;
  auto store = *Store::Open(dir.File("box.db"));
  StoreAndForwardSettings s{true, WriteKek(dir, 0600), 5000, 8000};
  auto cards = std::move(*SealedCards::Open(*store, s));
  EXPECT_EQ(cards->Accept("s1", 5001, Card("4111111111111111", "123")).status().code(), StatusCode::kOutOfRange);
  ASSERT_TRUE(cards->Accept("s1", 5000, Card("4111111111111111", "123")).ok());
  EXPECT_EQ(cards->Accept("s1", 100, Card("4111111111111111", "123")).status().code(), StatusCode::kAlreadyExists);
  auto over = cards->Accept("s2", 3001, Card("5555555555554444", "321"));
  EXPECT_EQ(over.status().code(), StatusCode::kOutOfRange);
  EXPECT_NE(over.status().message().find("total"), std::string::npos);
  ASSERT_TRUE(cards->Accept("s2", 3000, Card("5555555555554444", "321")).ok());
  EXPECT_EQ(cards->PendingTotal(), 8000);
  auto bad = cards->Accept("s3", 1, Card("4111111111111112", "123"));
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.status().message().find("4111"), std::string::npos);
  CardData expired = Card("4111111111111111", "123");
  expired.expiration = "2001-01";
  EXPECT_NE(cards->Accept("s3", 1, expired).status().message().find("expired"), std::string::npos);
  EXPECT_NE(cards->Accept("s3", 1, Card("4111111111111111", "12")).status().message().find("security code"),
            std::string::npos);
  auto pending = *cards->Pending();
  ASSERT_EQ(pending.size(), 2u);
  EXPECT_EQ(pending[0].masked_pan, "411111******1111");
}

TEST(SealedCards, AnInterruptedForwardIsLookedUpNextTime) {
  TempDir dir;
  auto store = *Store::Open(dir.File("box.db"));
  auto cards = std::move(*SealedCards::Open(*store, {true, WriteKek(dir, 0600)}));
  ASSERT_TRUE(cards->Accept("s1", 1000, Card("4111111111111111", "123")).ok());
  ScriptedAuthorizer bank;
  bank.script["s1"] = DeadlineExceededError("reset after sending");
  const std::int64_t now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  EXPECT_EQ(*cards->ForwardAll(bank, now), 0);
  EXPECT_TRUE((*cards->Pending())[0].may_exist_at_bank);
  EXPECT_EQ(*cards->ForwardAll(bank, now), 1);
  ASSERT_EQ(bank.calls.size(), 2u);
  EXPECT_FALSE(bank.calls[0].may_exist);
  EXPECT_TRUE(bank.calls[1].may_exist);
  EXPECT_EQ(bank.seen_numbers[1], "4111111111111111");  // unsealed intact
  EXPECT_TRUE(cards->Pending()->empty());
}

TEST(SealedCards, OldRecordsAreDeclinedLocallyAndFlagged) {
  TempDir dir;
  auto store = *Store::Open(dir.File("box.db"));
  auto cards = std::move(*SealedCards::Open(*store, {true, WriteKek(dir, 0600)}));
  ASSERT_TRUE(cards->Accept("old", 1000, Card("4111111111111111", "123")).ok());
  ASSERT_TRUE(cards->Accept("old-sent", 1000, Card("5555555555554444", "123")).ok());
  ScriptedAuthorizer bank;
  bank.script["old"] = UnavailableError("offline");
  const std::int64_t now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  ASSERT_TRUE(cards->ForwardAll(bank, now).ok());  // "old" not sent (bank down); stops there
  bank.script["old-sent"] = DeadlineExceededError("timeout");
  ASSERT_TRUE(cards->ForwardAll(bank, now).ok());  // old approved? no: the script was consumed
  // Both are now decided or forwarding; add a fresh pair and jump 25 h ahead.
  ASSERT_TRUE(cards->Accept("late-a", 500, Card("4111111111111111", "999")).ok());
  bank.calls.clear();
  EXPECT_GE(*cards->ForwardAll(bank, now + 25LL * 3600 * 1000), 1);
  for (const auto& call : bank.calls) EXPECT_TRUE(call.lookup_only) << call.sale_id;
  auto outcomes = *cards->UnreportedOutcomes();
  bool flagged = false;
  for (const auto& o : outcomes) {
    if (o.sale_id == "late-a") {
      EXPECT_EQ(o.outcome, CardOutcomeKind::kExpired);
      EXPECT_NE(o.reason.find("declined locally"), std::string::npos);
      flagged = true;
    }
  }
  EXPECT_TRUE(flagged);
  EXPECT_TRUE(cards->Pending()->empty());
  ASSERT_TRUE(cards->MarkReported("late-a").ok());
  EXPECT_EQ(cards->MarkReported("late-a").code(), StatusCode::kNotFound);
}

TEST(SealedCards, NoCardDataAtRestAfterASoakWithRestarts) {
  TempDir dir;
  auto log = std::make_unique<testing::ScopedLogFile>(dir.File("balcao.log"));
  const std::string db = dir.File("box.db");
  const StoreAndForwardSettings settings{true, WriteKek(dir, 0600), 100'000, 10'000'000};
  std::mt19937 rng(7);
  std::vector<std::string> secrets;
  int sale = 0;
  ScriptedAuthorizer bank;
  const std::int64_t now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  for (int round = 0; round < 5; ++round) {
    ASSERT_TRUE(logging::SetLogFile(dir.File("balcao.log")).ok());  // each start reopens and appends
    auto store = *Store::Open(db);                                  // a restart per round
    auto cards = std::move(*SealedCards::Open(*store, settings));
    for (int i = 0; i < 12; ++i) {
      const std::string pan = RandomPan(rng);
      // 2200-9999: a code that reads as a year would match the log's and receipts'
      // dates by chance (a "hit" that is not a leak).
      const std::string code = std::to_string(2200 + rng() % 7800);
      secrets.push_back(pan);
      secrets.push_back(code);
      const std::string sale_id =
          "sale-" + std::string(1, static_cast<char>('a' + round)) + "-" + std::string(1, static_cast<char>('a' + i));
      ASSERT_TRUE(cards->Accept(sale_id, 100 + sale++, Card(pan, code)).ok());
      if (i % 4 == 0) bank.script[sale_id] = DeadlineExceededError("reset");
    }
    // Sealed but not forwarded yet: only ciphertext on disk.
    EXPECT_EQ(CountHits(dir, secrets), 0) << "round " << round << " before forwarding";
    if (round % 2 == 1) {
      ASSERT_TRUE(cards->ForwardAll(bank, now).ok());
    }
  }
  auto store = *Store::Open(db);
  auto cards = std::move(*SealedCards::Open(*store, settings));
  ASSERT_TRUE(cards->ForwardAll(bank, now).ok());
  ASSERT_TRUE(cards->ForwardAll(bank, now).ok());  // the ones that failed once
  EXPECT_TRUE(cards->Pending()->empty());
  EXPECT_EQ(cards->UnreportedOutcomes()->size(), 60u);
  EXPECT_EQ(CountHits(dir, secrets), 0);
  // The scan itself finds what it looks for, in each kind of file.
  for (const char* file : {"box.db", "box.db-wal", "box.db-shm", "balcao.log"}) {
    testing::ExpectPlantFound(dir.path(), file, secrets[0], secrets);
    testing::ExpectPlantFound(dir.path(), file, secrets[1], secrets);
  }
  cards.reset();
  store.reset();
  log.reset();
  EXPECT_EQ(CountHits(dir, secrets), 0);
  // The operator's trail: every sale accepted, forwarded and decided, with its amount.
  const std::string trail = ReadBytes(dir.File("balcao.log"));
  for (const char* what : {"accepted offline", "forwarding to the bank", "card data destroyed"})
    EXPECT_NE(trail.find(what), std::string::npos) << what;
  EXPECT_NE(trail.find("sale=sale-e-l amount=159"), std::string::npos);
}

}  // namespace
}  // namespace balcao::offline
