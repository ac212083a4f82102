// The journaled form of events: every event type survives JSON text and back with every
// field; bad journal lines are refused naming the field; and replaying the journal's text
// through Next() restores exactly the sale the live run reached, from every state.
#include "checkout/journal_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/checkout/bank_model.h"
#include "tests/checkout/scenarios.h"
#include "tests/testing/status_matchers.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

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
    ASSERT_OK(back) << text << ": " << back.status().message();
    EXPECT_EQ(*back, event) << text;
    EXPECT_EQ(EventToJson(*back), text);
  }
}

// Rows as the journal's earlier builds wrote them (the events above, in order, then the fields
// added later, set): the bytes on stores' disks. Each is what the codec writes for its event,
// and each still reads back to an event that writes the same bytes.
const std::vector<std::string> kRowsOfEveryEvent = {
    R"({"amount":123456789012,"at":1763700000123456,"sale_id":"sale-9","settings":{"allow_credit":false,"allow_debit":true,"card_session_expiration_s":901,"challenge_enabled":false,"installments":{"max_count":6,"min_installment":1500},"invoice_due_s":3603,"invoice_expiration_s":86404,"lookup_retry_s":7,"pix_expiration_s":302,"poll_interval_s":5},"type":"Start"})",
    R"({"at":1763700000123457,"customer":{"name":"José Ñandú \"Zé\"","tax_id":"91.642.017/0001-06"},"method":"invoice","type":"ChooseMethod"})",
    R"({"at":1763700000123458,"card_mask":"550000******0004","card_ref":"ref-77","funding":"debit","installments":1,"type":"SubmitCard"})",
    R"({"at":1763700000123459,"operator_id":"op-1","reason":"wrong amount","type":"Cancel"})",
    R"({"at":1763700000123460,"type":"Retry"})",
    R"({"at":1763700000123461,"customer":{"name":"José Ñandú \"Zé\"","tax_id":"91.642.017/0001-06"},"type":"FallbackToInvoice"})",
    R"({"at":1763700000123462,"type":"KeepOpen"})",
    R"({"at":1763700000123463,"type":"PrintCode"})",
    R"({"amount":250,"at":1763700000123464,"operator_id":"op-2","reason":"damaged","type":"Reverse"})",
    R"({"at":1763700000123465,"entity_id":"d9","operator_id":"op-3","reason":"paid twice","type":"ReturnLateMoney"})",
    R"({"at":1763700000123466,"attempt":2,"expires_at":1763700000124056,"session_id":"5656565656565656","type":"SessionCreated","uuid":"0123456789abcdef0123456789abcdef"})",
    R"({"at":1763700000123467,"attempt":3,"expires_at":1763700000124056,"text":"00020101021226890014br.gov.bcb.pix","type":"BrcodeCreated","uuid":"abcdefabcdefabcdefabcdefabcdefab"})",
    R"({"at":1763700000123468,"attempt":4,"brcode":"000201...","due":1763700000209856,"invoice_id":"6655443322110099","link":"https://x.example/i/66","type":"InvoiceCreated"})",
    R"({"at":1763700000123469,"attempt":4,"kind":"invoice","type":"NothingFound"})",
    R"({"at":1763700000123470,"call":"late-return","failure":"not-sent","message":"connect: refused","type":"CallFailed"})",
    R"({"at":1763700000123471,"entity_id":"p1","net_amount":750,"type":"Reversed"})",
    R"({"amount":999,"at":1763700000123472,"attempt":2,"challenge_url":"https://acs.example/3ds?x=1&y=2","purchase_id":"p2","reason":"do not honor","status":"pending","type":"PurchaseSeen"})",
    R"({"amount":1000,"at":1763700000123473,"brcode_uuid":"abcdefabcdefabcdefabcdefabcdefab","deposit_id":"d9","type":"DepositSeen"})",
    R"({"amount":1050,"at":1763700000123474,"invoice_id":"6655443322110099","status":"credited","type":"InvoiceSeen"})",
    R"({"at":1763700000123475,"timer":"brcode-expiry","type":"TimerFired"})",
    R"({"at":1763700000123476,"attempt":4,"call":"create-invoice","key":"sale/sale-9/a4","type":"Queued"})",
    R"({"at":1763700000123477,"card_mask":"424242******4242","funding":"credit","installments":3,"type":"CardHeldOffline"})",
    R"({"amount":0,"approved":false,"at":1763700000123478,"purchase_id":"","reason":"too old: declined locally","type":"CardForwarded"})"};
const std::vector<std::string> kRowsWithAddedFields = {
    R"({"amount":100,"at":5,"sale_id":"sale-1","settings":{"allow_credit":true,"allow_debit":true,"card_session_expiration_s":600,"challenge_enabled":true,"installments":{"max_count":1,"min_installment":500},"invoice_due_s":172800,"invoice_expiration_s":5097600,"lane":"lane-2","lookup_retry_s":5,"pix_expiration_s":600,"poll_interval_s":3},"type":"Start"})",
    R"({"approved_by":"sup-9","at":6,"operator_id":"op-1","reason":"r","type":"Cancel"})",
    R"({"amount":10,"approved_by":"sup-9","at":7,"operator_id":"op-1","reason":"r","type":"Reverse"})"};

TEST(JournalCodec, WritesTheBytesEarlierBuildsWrote) {
  const std::vector<Event> events = EveryEventFullyPopulated();
  ASSERT_EQ(events.size(), kRowsOfEveryEvent.size());
  for (std::size_t i = 0; i < events.size(); ++i) EXPECT_EQ(EventToJson(events[i]), kRowsOfEveryEvent[i]);
}

TEST(JournalCodec, ReadsRowsEarlierBuildsWrote) {
  std::vector<std::string> rows = kRowsOfEveryEvent;
  rows.insert(rows.end(), kRowsWithAddedFields.begin(), kRowsWithAddedFields.end());
  for (const std::string& row : rows) {
    StatusOr<Event> event = EventFromJson(row);
    ASSERT_TRUE(event.ok()) << row << ": " << event.status().message();
    EXPECT_EQ(EventToJson(*event), row);
  }
  StatusOr<Event> cancel = EventFromJson(kRowsWithAddedFields[1]);
  ASSERT_TRUE(cancel.ok());
  EXPECT_EQ(std::get<Cancel>(*cancel).approved_by, "sup-9");
  StatusOr<Event> start = EventFromJson(kRowsOfEveryEvent[0]);
  ASSERT_TRUE(start.ok());
  EXPECT_EQ(std::get<Start>(*start).settings.lane, "");  // a row from before lanes: no key, empty lane
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
  ASSERT_OK(back);
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
    ASSERT_THAT(e, Not(IsOk())) << b.text;
    EXPECT_THAT(e, StatusIs(StatusCode::kInvalidArgument)) << b.text;
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
    EXPECT_OK(e) << line;
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
