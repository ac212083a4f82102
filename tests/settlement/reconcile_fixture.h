// The settlement rules' tests' inputs, built by hand: a sale's journal event by event (the
// journal's form, replayed), bank entities as the bank would show them, a business day or a
// later night of them, and the findings and totals read back from a report.
// Thread-safety: one test thread.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "checkout/journal_codec.h"
#include "settlement/settlement.h"

namespace balcao::settlement::fixture {

inline constexpr UnixMicros kT0 = 1'763'700'000'000'000;  // 2025-11-21, during the business day
inline constexpr UnixMicros kNow = kT0 + 12 * 3600 * kMicrosPerSecond;
inline constexpr UnixMicros kDay = 86400 * kMicrosPerSecond;

// A sale's journal, event by event, each a second after the previous one.
class SaleBuilder {
 public:
  SaleBuilder(std::string id, Cents amount) : id_(std::move(id)) {
    Add(checkout::Start{id_, amount, checkout::Settings{}, 0});
  }
  SaleBuilder& Add(checkout::Event event) {
    std::visit([&](auto& e) { e.at = base_ + static_cast<UnixMicros>(events_.size()) * kMicrosPerSecond; }, event);
    events_.push_back(std::move(event));
    return *this;
  }
  SaleBuilder& CardPaid(const std::string& purchase, Cents amount) {
    Add(checkout::ChooseMethod{checkout::Method::kCard});
    Add(checkout::SessionCreated{1, "session-" + id_, "uuid-" + id_, kT0 + 3600 * kMicrosPerSecond});
    Add(checkout::SubmitCard{"ref-1", "424242******4242", checkout::FundingType::kCredit, 1});
    return Add(checkout::PurchaseSeen{1, purchase, checkout::PurchaseStatus::kApproved, amount});
  }
  SaleBuilder& PixShown(const std::string& uuid) {
    Add(checkout::ChooseMethod{checkout::Method::kPix});
    return Add(checkout::BrcodeCreated{1, uuid, "000201pix", kT0 + 600 * kMicrosPerSecond});
  }
  SaleBuilder& PixPaid(const std::string& uuid, const std::string& deposit, Cents amount) {
    PixShown(uuid);
    return Add(checkout::DepositSeen{deposit, uuid, amount});
  }
  SaleBuilder& PayLater(const std::string& invoice, UnixMicros due) {
    Add(checkout::ChooseMethod{checkout::Method::kInvoice, checkout::Customer{"Maria da Silva", "337.451.076-08"}});
    Add(checkout::InvoiceCreated{1, invoice, "000201inv", "https://bank/invoice/" + invoice, due});
    return Add(checkout::KeepOpen{});
  }
  // The events added from now on happen `days` business days after the sale's.
  SaleBuilder& DaysLater(int days) {
    base_ = kT0 + days * kDay;
    return *this;
  }
  JournalSale Build(bool in_day = true) const {
    JournalSale s{checkout::Replay(events_), kT0, in_day};
    s.events = events_;
    EXPECT_EQ(s.sale.id, id_) << "the journal of " << id_ << " did not start";
    return s;
  }

 private:
  std::string id_;
  UnixMicros base_ = kT0;
  std::vector<checkout::Event> events_;
};

inline BankEntity Purchase(const std::string& sale, const std::string& id, const std::string& status, Cents amount,
                           Cents ledger_in, Cents ledger_out = 0, const std::string& funding = "credit") {
  BankEntity e{BankKind::kPurchase, id, sale, status, amount, funding};
  e.ledger_in = ledger_in;
  e.ledger_out = ledger_out;
  return e;
}
inline BankEntity Deposit(const std::string& sale, const std::string& id, const std::string& uuid, Cents amount,
                          Cents ledger_in, Cents ledger_out = 0) {
  BankEntity e{BankKind::kDeposit, id, sale, "created", amount};
  e.brcode_uuid = uuid;
  e.ledger_in = ledger_in;
  e.ledger_out = ledger_out;
  return e;
}
inline BankEntity Invoice(const std::string& sale, const std::string& id, const std::string& status, Cents amount,
                          Cents ledger_in) {
  BankEntity e{BankKind::kInvoice, id, sale, status, amount};
  e.ledger_in = ledger_in;
  return e;
}

inline DayInput Day(std::vector<JournalSale> sales, std::vector<BankEntity> bank) {
  DayInput in;
  in.day = "2025-11-21";
  in.now = kNow;
  for (const JournalSale& s : sales) in.journaled.insert(s.sale.id);
  in.sales = std::move(sales);
  in.bank = std::move(bank);
  return in;
}

// The element of `items` whose `key` is `value`; a failure of the test (and an empty element)
// when there is none.
template <typename T>
const T& Only(const std::vector<T>& items, std::string T::*key, const std::string& value, const char* what) {
  for (const T& item : items) {
    if (item.*key == value) return item;
  }
  ADD_FAILURE() << "no " << what << " for " << value;
  static const T none;
  return none;
}
inline const SaleFinding& Finding(const Report& r, const std::string& id) {
  return Only(r.sales, &SaleFinding::sale_id, id, "finding");
}
inline const MethodTotal& Total(const Report& r, const std::string& method) {
  return Only(r.totals, &MethodTotal::method, method, "total");
}

// Night `n` after the sale's day (0: its own night).
inline DayInput Night(int n, std::vector<JournalSale> sales, std::vector<BankEntity> bank) {
  DayInput in = Day(std::move(sales), std::move(bank));
  in.day = BusinessDayOf(kT0 + n * kDay);
  in.now = kNow + n * kDay;
  return in;
}
// What the store keeps of the sale's findings of earlier nights (offline::SaleMark): the night
// that counted its payment, and what the last one counted of its returns.
inline JournalSale Carry(JournalSale sale, const std::vector<SaleFinding>& nights) {
  sale.in_day = false;
  for (const SaleFinding& f : nights) {
    sale.counted_before = sale.counted_before || f.counted;
    sale.refunds_counted = f.refunds_counted;
    sale.late_returned_counted = f.late_returned_counted;
  }
  return sale;
}

}  // namespace balcao::settlement::fixture
