// Rules for opening a sale, choosing (or re-choosing) the method, and money that arrives
// for an earlier attempt while nothing else is in flight.
#include <string>

#include "checkout/internal/rules.h"

namespace balcao::checkout::internal {
namespace {

bool ValidSaleId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

}  // namespace

bool CardAttemptOfThisSale(const Sale& sale, int attempt) {
  for (const EntityRef& ref : sale.created) {
    if (ref.kind == EntityKind::kSession && ref.attempt == attempt) return true;
  }
  return false;
}

Verdict ValidCustomer(const Customer& customer) {
  if (customer.name.find_first_not_of(' ') == std::string::npos) return "customer name is required";
  int digits = 0;
  for (char c : customer.tax_id) {
    if (c >= '0' && c <= '9') {
      ++digits;
    } else if (c != '.' && c != '-' && c != '/' && c != ' ') {
      return "customer tax id may hold only digits and . - /";
    }
  }
  return Require(digits == 11 || digits == 14, "customer tax id must be a CPF (11) or CNPJ (14 digits)");
}

Verdict ValidStart(const Sale&, const NotStarted&, const Start& ev) {
  const Settings& s = ev.settings;
  if (!ValidSaleId(ev.sale_id)) return "sale id must be 1-64 chars of [a-z0-9-]";
  if (ev.amount <= 0) return "amount must be positive cents";
  if (s.installments.max_count < 1 || s.installments.max_count > 12) {
    return "installments.max_count must be 1 to 12";
  }
  if (s.installments.min_installment < 0) return "installments.min_installment must be >= 0";
  if (!s.allow_credit && !s.allow_debit) return "settings allow neither credit nor debit";
  if (s.card_session_expiration_s <= 0 || s.pix_expiration_s <= 0 || s.invoice_expiration_s <= 0) {
    return "expirations must be positive seconds";
  }
  if (s.invoice_due_s < 0) return "invoice_due_s must be >= 0";
  return Require(s.poll_interval_s > 0 && s.lookup_retry_s > 0, "poll_interval_s and lookup_retry_s must be positive");
}

ChoosingMethod Open(Out& o, const NotStarted&, const Start& ev) {
  o.sale.id = ev.sale_id;
  o.sale.amount = ev.amount;
  o.sale.settings = ev.settings;
  o.Display(Screen::kChooseMethod);
  return ChoosingMethod{};
}

Verdict MethodIsCard(const Sale&, const ChoosingMethod&, const ChooseMethod& ev) {
  return Require(ev.method == Method::kCard, "method is not card");
}
Verdict MethodIsPix(const Sale&, const ChoosingMethod&, const ChooseMethod& ev) {
  return Require(ev.method == Method::kPix, "method is not pix");
}
Verdict MethodIsInvoice(const Sale&, const ChoosingMethod&, const ChooseMethod& ev) {
  if (ev.method != Method::kInvoice) return "method is not invoice";
  return ValidCustomer(ev.customer);
}
Verdict LastWasCard(const Sale&, const ChoosingMethod& st, const Retry&) {
  return Require(st.last_method == Method::kCard, "previous attempt was not card");
}
Verdict LastWasPix(const Sale&, const ChoosingMethod& st, const Retry&) {
  return Require(st.last_method == Method::kPix, "previous attempt was not pix");
}
Verdict AfterFailedAttempt(const Sale&, const ChoosingMethod& st, const FallbackToInvoice& ev) {
  if (!st.last_method) return "no failed attempt to fall back from";
  return ValidCustomer(ev.customer);
}

CreateSession MakeCreateSession(const Sale& sale, int attempt) {
  CreateSession call;
  call.attempt = attempt;
  call.tags = EntityTags(sale.settings.lane, sale.id, attempt);
  if (sale.settings.allow_credit) call.funding_types.push_back(FundingType::kCredit);
  if (sale.settings.allow_debit) call.funding_types.push_back(FundingType::kDebit);
  const InstallmentPolicy& policy = sale.settings.installments;
  for (int n = 1; n <= policy.max_count; ++n) {
    if (n == 1 || sale.amount / n >= policy.min_installment) {
      call.installments.push_back({sale.amount, n});
    }
  }
  call.expiration_s = sale.settings.card_session_expiration_s;
  call.challenge_enabled = sale.settings.challenge_enabled;
  return call;
}
}  // namespace balcao::checkout::internal
namespace balcao::checkout {
CreateSession SessionTerms(const Sale& sale, int attempt) { return internal::MakeCreateSession(sale, attempt); }
}  // namespace balcao::checkout
namespace balcao::checkout::internal {
CreateBrcode MakeCreateBrcode(const Sale& sale, int attempt) {
  return CreateBrcode{attempt, EntityTags(sale.settings.lane, sale.id, attempt), sale.amount,
                      sale.settings.pix_expiration_s};
}
CreateInvoice MakeCreateInvoice(const Sale& sale, int attempt, const Customer& customer, UnixMicros at) {
  return CreateInvoice{
      attempt,  EntityTags(sale.settings.lane, sale.id, attempt),    sale.amount,
      customer, at + sale.settings.invoice_due_s * kMicrosPerSecond, sale.settings.invoice_expiration_s};
}

ChoosingMethod BackToChoice(Out& o, Method method, std::string notice) {
  o.Display(Screen::kChooseMethod, notice);
  return ChoosingMethod{std::move(notice), method};
}

// Nothing else is in flight, so money for an earlier attempt is simply the payment.
Verdict LateChargeOfThisSale(const Sale& sale, const ChoosingMethod&, const PurchaseSeen& ev) {
  return Require(CardAttemptOfThisSale(sale, ev.attempt) && IsCharged(ev.status) && !sale.FindMoney(ev.purchase_id),
                 "not a new charge of this sale");
}
Paid TakeLateCharge(Out& o, const ChoosingMethod&, const PurchaseSeen& ev) { return EnterCardPaid(o, ev, ""); }
Verdict LateDepositOfThisSale(const Sale& sale, const ChoosingMethod&, const DepositSeen& ev) {
  return Require(
      sale.Knows(EntityKind::kBrcode, ev.brcode_uuid) && ev.amount == sale.amount && !sale.FindMoney(ev.deposit_id),
      "not a new deposit of the sale amount for this sale's brcode");
}
Paid TakeLateDeposit(Out& o, const ChoosingMethod&, const DepositSeen& ev) { return EnterPixPaid(o, ev); }

}  // namespace balcao::checkout::internal
