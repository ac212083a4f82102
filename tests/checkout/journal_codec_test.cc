// The journaled form of events: every event type survives JSON text and back with every
// field; bad journal lines are refused naming the field; and replaying the journal's text
// through Next() restores exactly the sale the live run reached, from every state.
#include "checkout/journal_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/checkout/bank_model.h"
#include "tests/checkout/scenarios.h"

namespace balcao::checkout {
namespace {

using namespace testing;  // NOLINT: test fixtures

// One event of every type, every field away from its default.
std::vector<Event> EveryEventFullyPopulated() {
  Settings s;
  s.installments = {6, 1500};
  s.allow_credit = false;
  s.allow_debit = true;
  s.challenge_enabled = false;
  s.card_session_expiration_s = 901;
  s.pix_expiration_s = 302;
  s.invoice_due_s = 3603;
  s.invoice_expiration_s = 86404;
  s.poll_interval_s = 5;
  s.lookup_retry_s = 7;
  const Customer c{"José Ñandú \"Zé\"", "91.642.017/0001-06"};
  const UnixMicros at = 1'763'700'000'123'456;
  std::vector<Event> events = {
      Start{"sale-9", 123456789012, s, at},
      ChooseMethod{Method::kInvoice, c, at + 1},
      SubmitCard{"ref-77", "550000******0004", FundingType::kDebit, 1, at + 2},
      Cancel{"op-1", "wrong amount", at + 3},
      Retry{at + 4},
      FallbackToInvoice{c, at + 5},
      KeepOpen{at + 6},
      PrintCode{at + 7},
      Reverse{250, "op-2", "damaged", at + 8},
      ReturnLateMoney{"d9", "op-3", "paid twice", at + 9},
      SessionCreated{2, "5656565656565656", "0123456789abcdef0123456789abcdef", at + 600, at + 10},
      BrcodeCreated{3, "abcdefabcdefabcdefabcdefabcdefab", "00020101021226890014br.gov.bcb.pix", at + 600, at + 11},
      InvoiceCreated{4, "6655443322110099", "000201...", "https://x.example/i/66", at + 86400, at + 12},
      NothingFound{EntityKind::kInvoice, 4, at + 13},
      CallFailed{Call::kLateReturn, Failure::kNotSent, "connect: refused", at + 14},
      Reversed{"p1", 750, at + 15},
      PurchaseSeen{2, "p2", PurchaseStatus::kPending, 999, "https://acs.example/3ds?x=1&y=2", "do not honor", at + 16},
      DepositSeen{"d9", "abcdefabcdefabcdefabcdefabcdefab", 1000, at + 17},
      InvoiceSeen{"6655443322110099", InvoiceStatus::kCredited, 1050, at + 18},
      TimerFired{Timer::kBrcodeExpiry, at + 19},
      Queued{Call::kCreateInvoice, 4, "sale/sale-9/a4", at + 20},
      CardHeldOffline{"424242******4242", FundingType::kCredit, 3, at + 21},
      CardForwarded{false, "", 0, "too old: declined locally", at + 22},
  };
  EXPECT_EQ(static_cast<int>(events.size()), kEventCount);
  return events;
}

TEST(JournalCodec, EveryEventRoundTripsThroughText) {
  for (const Event& event : EveryEventFullyPopulated()) {
    const std::string text = EventToJson(event);
    StatusOr<Event> back = EventFromJson(text);
    ASSERT_TRUE(back.ok()) << text << ": " << back.status().message();
    EXPECT_EQ(*back, event) << text;
    EXPECT_EQ(EventToJson(*back), text);
  }
}

TEST(JournalCodec, BankUrlsWithLongDigitRunsAreStoredAsTheyCame) {
  const PurchaseSeen seen{1,
                          "5234567890123456",
                          PurchaseStatus::kPending,
                          100,
                          "https://bank.example/challenge/5234567890123456?x=12345678901234567890",
                          "",
                          1};
  const std::string text = EventToJson(seen);
  EXPECT_NE(text.find("/challenge/5234567890123456?x="), std::string::npos) << text;
  StatusOr<Event> back = EventFromJson(text);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, Event{seen});
}

TEST(JournalCodec, TextIsTheDocumentedShape) {
  EXPECT_EQ(EventToJson(DepositSeen{"d1", "u1", 1000, 42}),
            R"({"amount":1000,"at":42,"brcode_uuid":"u1","deposit_id":"d1","type":"DepositSeen"})");
  EXPECT_EQ(EventToJson(TimerFired{Timer::kLookupRetry, 7}), R"({"at":7,"timer":"lookup-retry","type":"TimerFired"})");
}

TEST(JournalCodec, BadLinesAreRefusedNamingTheField) {
  struct Bad {
    std::string text;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {"{", "event: not valid JSON"},
      {"[1]", "event: must be a JSON object"},
      {R"({"at":1})", "type: missing"},
      {R"({"type":"Explode","at":1})", "type: unknown event type \"Explode\""},
      {R"({"type":"Retry"})", "at: missing"},
      {R"({"type":"Retry","at":"soon"})", "at: must be an integer"},
      {R"({"type":"Retry","at":1.5})", "at: must be an integer"},
      {R"({"type":"TimerFired","at":1,"timer":"alarm"})", "timer: not a known value"},
      {R"({"type":"KeepOpen","at":18446744073709551615})", "at: out of range"},
      {R"({"type":"NothingFound","at":1,"kind":"session","attempt":4294967296})", "attempt: out of range"},
      {R"({"type":"Start","at":1,"sale_id":"s","amount":5,"settings":{"installments":{"max_count":1}}})",
       "settings.installments.min_installment: missing"},
      {R"({"type":"ChooseMethod","at":1,"method":"pix","customer":{"name":7,"tax_id":""}})",
       "customer.name: must be a string"},
      {R"({"type":"Start","at":1,"sale_id":"s","amount":5,"settings":[]})", "settings: must be an object"},
  };
  for (const Bad& b : bad) {
    StatusOr<Event> e = EventFromJson(b.text);
    ASSERT_FALSE(e.ok()) << b.text;
    EXPECT_EQ(e.status().code(), StatusCode::kInvalidArgument) << b.text;
    EXPECT_EQ(e.status().message(), b.message) << b.text;
  }
}

// The journal holds a card reference, never a card number: an event carrying one is refused
// before it could be journaled by a driver that journals only accepted events' causes.
TEST(JournalCodec, ACardNumberCannotEnterTheSale) {
  const Sale awaiting = Drive(PathTo("AwaitingCard"));
  for (const SubmitCard& bad : {SubmitCard{"4242424242424242", "", FundingType::kCredit, 1, kT0 + 20 * kSec},
                                SubmitCard{"ref", "4242424242424242", FundingType::kCredit, 1, kT0 + 20 * kSec}}) {
    const Step step = Next(awaiting, bad);
    EXPECT_FALSE(step.accepted());
    EXPECT_NE(step.rejection.message().find("card number must not be in the event"), std::string::npos);
  }
}

// Journal = the text of every event fed to the sale, accepted or not; replay from text.
Sale ReplayText(const std::vector<std::string>& journal) {
  std::vector<Event> events;
  for (const std::string& line : journal) {
    StatusOr<Event> e = EventFromJson(line);
    EXPECT_TRUE(e.ok()) << line;
    if (e.ok()) events.push_back(*e);
  }
  return Replay(events);
}

TEST(JournalCodec, ReplayingTheJournalRestoresTheExactSaleFromEveryState) {
  int replays = 0;
  for (int s = 0; s < kStateCount; ++s) {
    for (Method m : {Method::kCard, Method::kPix, Method::kInvoice}) {
      // Every path, then every single next event the bank model allows (accepted or not).
      const std::vector<Event> path = PathTo(StateName(s), m);
      const Sale live = Drive(path);
      BankModel bank;  // answers computed against an empty bank: ids still match the path's
      for (const Move& move : Moves(live, bank)) {
        if (!move.event) continue;
        std::vector<std::string> journal;
        Sale sale;
        for (const Event& e : path) {
          journal.push_back(EventToJson(e));
          sale = Next(sale, e).sale;
        }
        journal.push_back(EventToJson(*move.event));
        const Step last = Next(sale, *move.event);
        EXPECT_EQ(ReplayText(journal), last.sale)
            << StateName(s) << " + " << EventName(static_cast<int>(move.event->index()));
        ++replays;
      }
    }
  }
  EXPECT_GT(replays, 500);
}

}  // namespace
}  // namespace balcao::checkout
