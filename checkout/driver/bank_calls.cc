#include "checkout/driver/bank_calls.h"

#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "checkout/driver/driver.h"
#include "checkout/driver/purchase_customer.h"
#include "common/card_digits.h"

namespace balcao::checkout::internal {
namespace {

// The bank refused the request for its Access-Time, before doing anything with it (the client
// has already corrected its clock from that answer and sent it once more): like a request that
// never left, it is safe to send again, and nothing about the customer or the card is implied.
bool ClockRefused(const Status& s) {
  return s.HasErrorCode("invalidAccessTime") || s.HasErrorCode("expiredAccessTime");
}

Failure Classify(const Status& s) {
  if (ClockRefused(s)) return Failure::kNotSent;
  if (s.delivery() == Delivery::kNotSent || s.code() == StatusCode::kUnavailable) return Failure::kNotSent;
  if (s.delivery() == Delivery::kOutcomeUnknown || s.code() == StatusCode::kDeadlineExceeded ||
      s.code() == StatusCode::kInternal || s.code() == StatusCode::kUnknown) {
    return Failure::kOutcomeUnknown;  // docs/style.md S3: a write that may have happened
  }
  return Failure::kRejected;
}
// The message is journaled: a 16-digit bank id in it ("PATCH /v2/deposit/4503...") passes
// Luhn one time in ten, and the journal's card scanner would then refuse the event, leaving
// the sale without the answer it waits for. Card-like runs are masked to 6+4 first.
Event Failed(Call call, const Status& s, UnixMicros now) {
  std::string message = ClockRefused(s) ? std::string(kClockRefusedPrefix) + s.message() : s.message();
  MaskCardNumbers(message);
  return CallFailed{call, Classify(s), std::move(message), now};
}
template <typename T>
T Or(const std::optional<T>& v, T fallback = T{}) {
  return v ? *v : fallback;
}
int AttemptFromTags(const Sale& sale, const std::optional<api::Strings>& tags, int fallback) {
  const std::string prefix = SaleTag(sale.settings.lane, sale.id) + "/a";
  for (const std::string& tag : Or(tags)) {
    if (tag.rfind(prefix, 0) == 0) return std::atoi(tag.c_str() + prefix.size());
  }
  return fallback;
}
UnixMicros Expiry(const std::optional<api::Timestamp>& created, const std::optional<std::int64_t>& seconds,
                  UnixMicros now, std::int64_t default_s) {
  return (created ? created->micros : now) + Or(seconds, default_s) * kMicrosPerSecond;
}

Event SessionEvent(const Sale& sale, const api::MerchantSession& s, int attempt, UnixMicros now) {
  return SessionCreated{attempt, Or(s.id), Or(s.uuid),
                        Expiry(s.created, s.expiration, now, sale.settings.card_session_expiration_s), now};
}
}  // namespace

Event PurchaseEvent(const Sale& sale, const api::MerchantPurchase& p, int attempt, UnixMicros now) {
  PurchaseStatus status = PurchaseStatus::kCreated;
  ParseName(Or(p.status), status);
  PurchaseSeen seen{AttemptFromTags(sale, p.tags, attempt),
                    Or(p.id),
                    status,
                    Or(p.amount, std::int64_t{0}),
                    Or(p.challenge_url),
                    "",
                    now};
  const std::string ending = Or(p.card_ending);
  if (ending.size() == 4) seen.card_mask = "**** " + ending;
  seen.card_network = Or(p.network);
  if (seen.card_network == "unknown") seen.card_network.clear();
  seen.installments = static_cast<int>(Or(p.installment_count, std::int64_t{0}));
  if (Or(p.funding_type) == "debit") seen.funding = FundingType::kDebit;
  return seen;
}
namespace {

Event BrcodeEvent(const Sale& sale, const api::DynamicBrcode& b, int attempt, UnixMicros now) {
  return BrcodeCreated{attempt, Or(b.uuid), Or(b.id),
                       Expiry(b.created, b.expiration, now, sale.settings.pix_expiration_s), now};
}
std::vector<std::string> Funding(const std::vector<FundingType>& types) {
  std::vector<std::string> names;
  for (FundingType t : types) names.push_back(Name(t));
  return names;
}

}  // namespace

Event InvoiceCreatedEvent(const api::Invoice& i, int attempt, UnixMicros now) {
  return InvoiceCreated{attempt, Or(i.id), Or(i.brcode), Or(i.link), i.due ? i.due->micros : 0, now};
}
Event InvoiceEvent(const api::Invoice& i, UnixMicros now) {
  InvoiceStatus status = InvoiceStatus::kCreated;
  ParseName(Or(i.status), status);
  return InvoiceSeen{Or(i.id), status, Or(i.amount, std::int64_t{0}), now};
}
api::Invoice InvoiceToCreate(const CreateInvoice& c) {
  api::Invoice i;
  i.amount = c.amount;
  i.name = c.customer.name;
  i.tax_id = c.customer.tax_id;
  i.due = api::Timestamp::At(c.due);
  i.expiration = c.expiration_s;
  i.tags = c.tags;
  return i;
}
api::Invoice CancelChange() {
  api::Invoice change;
  change.status = "canceled";
  return change;
}
api::MerchantPurchase PurchaseChange(const ReduceAmount& c) {
  api::MerchantPurchase change;
  change.status = c.cancel_authorization ? "canceled" : "reversed";
  change.amount = c.new_amount;
  return change;
}
api::Deposit DepositChange(const ReduceAmount& c) {
  api::Deposit change;
  change.amount = c.new_amount;
  return change;
}
api::Invoice InvoiceChange(const ReduceAmount& c) {
  api::Invoice change;
  change.amount = c.new_amount;
  return change;
}

namespace {

// What every bank call needs besides its own request: the bank, the sale it is for and the
// time of its answer; `card`/`browser` are the card held for a CreatePurchase (null when no
// longer in memory).
struct CallContext {
  const api::Bank& bank;
  const Sale& sale;
  UnixMicros now;
  const CardData* card;
  const BrowserData* browser;
};

// POST /v2/merchant-session
Event Execute(const CreateSession& c, const CallContext& ctx) {
  api::MerchantSession s;
  s.allowed_funding_types = Funding(c.funding_types);
  std::vector<api::AllowedInstallment> installments;
  for (const AllowedInstallment& a : c.installments) installments.push_back({a.total_amount, a.count});
  s.allowed_installments = installments;
  s.expiration = c.expiration_s;
  s.challenge_mode = c.challenge_enabled ? "enabled" : "disabled";
  s.tags = c.tags;
  auto made = ctx.bank.merchant_session().CreateOne(s);
  if (!made.ok()) return Failed(Call::kCreateSession, made.status(), ctx.now);
  return SessionEvent(ctx.sale, *made, c.attempt, ctx.now);
}

// The device the customer paid from, for the issuer's 3-D Secure risk check. timezoneOffset
// is in hours, signed as JavaScript's getTimezoneOffset(): UTC-3 is 3.
api::RawJson DeviceMetadata(const BrowserData& browser) {
  nlohmann::json metadata = {
      {"userAgent", browser.user_agent}, {"userIp", browser.user_ip}, {"language", browser.language}};
  if (browser.timezone_offset_minutes % 60 == 0) {
    metadata["timezoneOffset"] = browser.timezone_offset_minutes / 60;
  } else {
    metadata["timezoneOffset"] = browser.timezone_offset_minutes / 60.0;
  }
  if (!browser.screen.empty()) metadata["extraData"] = {{"screen", browser.screen}};
  return api::RawJson{metadata.dump()};
}

api::MerchantPurchase PurchaseToCreate(const CreatePurchase& c, const CardData& card, const BrowserData& browser) {
  api::MerchantPurchase p = checkout::PurchaseCustomer(card, browser);
  p.amount = c.amount;
  p.installment_count = c.installments;
  p.card_number = card.number;
  p.card_security_code = card.security_code;
  p.card_expiration = card.expiration;
  p.holder_name = card.holder_name;
  p.funding_type = Name(c.funding);
  return p;
}

// POST /v2/merchant-session/{uuid}/purchase
Event Execute(const CreatePurchase& c, const CallContext& ctx) {
  if (!ctx.card) {
    return CallFailed{Call::kCreatePurchase, Failure::kRejected, "the card is no longer in memory: enter it again",
                      ctx.now};
  }
  auto made = ctx.bank.CreateSessionPurchase(c.session_uuid, PurchaseToCreate(c, *ctx.card, *ctx.browser));
  if (!made.ok()) return Failed(Call::kCreatePurchase, made.status(), ctx.now);
  return PurchaseEvent(ctx.sale, *made, c.attempt, ctx.now);
}

// GET /v2/merchant-purchase/{id}
Event Execute(const GetPurchase& c, const CallContext& ctx) {
  auto got = ctx.bank.merchant_purchase().Get(c.purchase_id);
  if (!got.ok()) return Failed(Call::kPoll, got.status(), ctx.now);
  return PurchaseEvent(ctx.sale, *got, c.attempt, ctx.now);
}

// POST /v2/dynamic-brcode
Event Execute(const CreateBrcode& c, const CallContext& ctx) {
  api::DynamicBrcode b;
  b.amount = c.amount;
  b.expiration = c.expiration_s;
  b.tags = c.tags;
  auto made = ctx.bank.dynamic_brcode().CreateOne(b);
  if (!made.ok()) return Failed(Call::kCreateBrcode, made.status(), ctx.now);
  return BrcodeEvent(ctx.sale, *made, c.attempt, ctx.now);
}

// GET /v2/deposit?tags=dynamic-brcode/<uuid>
Event Execute(const FindDeposit& c, const CallContext& ctx) {
  auto page = ctx.bank.deposit().ListPage(api::ListParams().Filter("tags", c.tag).Limit(10));
  if (!page.ok()) return Failed(Call::kPoll, page.status(), ctx.now);
  for (const api::Deposit& d : page->items) {
    return DepositSeen{Or(d.id), c.tag.substr(c.tag.find('/') + 1), Or(d.amount, std::int64_t{0}), ctx.now};
  }
  return NothingFound{EntityKind::kDeposit, c.attempt, ctx.now};
}

// POST /v2/invoice
Event Execute(const CreateInvoice& c, const CallContext& ctx) {
  auto made = ctx.bank.invoice().CreateOne(InvoiceToCreate(c));
  if (!made.ok()) return Failed(Call::kCreateInvoice, made.status(), ctx.now);
  return InvoiceCreatedEvent(*made, c.attempt, ctx.now);
}

// GET /v2/invoice/{id}
Event Execute(const GetInvoice& c, const CallContext& ctx) {
  auto got = ctx.bank.invoice().Get(c.invoice_id);
  if (!got.ok()) return Failed(Call::kPoll, got.status(), ctx.now);
  return InvoiceEvent(*got, ctx.now);
}

// GET /v2/<kind>?tags=<attempt tag>: the first entity found is the attempt's.
Event Execute(const FindByTag& c, const CallContext& ctx) {
  const api::ListParams by_tag = api::ListParams().Filter("tags", c.tag).Limit(10);
  auto first = [&](auto&& page, auto&& to_event) -> Event {
    if (!page.ok()) return Failed(Call::kLookup, page.status(), ctx.now);
    if (page->items.empty()) return NothingFound{c.kind, c.attempt, ctx.now};
    return to_event(page->items.front());
  };
  switch (c.kind) {
    case EntityKind::kSession:
      return first(ctx.bank.merchant_session().ListPage(by_tag),
                   [&](const auto& s) { return SessionEvent(ctx.sale, s, c.attempt, ctx.now); });
    case EntityKind::kPurchase:
      return first(ctx.bank.merchant_purchase().ListPage(by_tag),
                   [&](const auto& p) { return PurchaseEvent(ctx.sale, p, c.attempt, ctx.now); });
    case EntityKind::kBrcode:
      return first(ctx.bank.dynamic_brcode().ListPage(by_tag),
                   [&](const auto& b) { return BrcodeEvent(ctx.sale, b, c.attempt, ctx.now); });
    case EntityKind::kInvoice:
      return first(ctx.bank.invoice().ListPage(by_tag),
                   [&](const auto& i) { return InvoiceCreatedEvent(i, c.attempt, ctx.now); });
    case EntityKind::kDeposit:
      break;
  }
  return CallFailed{Call::kLookup, Failure::kRejected, "no lookup for deposits by attempt", ctx.now};
}

// PATCH /v2/invoice/{id} {"status":"canceled"}
Event Execute(const CancelInvoice& c, const CallContext& ctx) {
  auto done = ctx.bank.invoice().Patch(c.invoice_id, CancelChange());
  if (!done.ok() && Classify(done.status()) == Failure::kRejected) {
    // A cancel re-sent after a lost answer or a crash meets an invoice already
    // canceled (or paid, or expired meanwhile) and is refused: the invoice read back
    // is the answer, so the sale ends as the bank has it, with the operator's reason.
    auto read = ctx.bank.invoice().Get(c.invoice_id);
    if (read.ok() && !IsOpen(std::get<InvoiceSeen>(InvoiceEvent(*read, ctx.now)).status)) {
      return InvoiceEvent(*read, ctx.now);
    }
  }
  if (!done.ok()) return Failed(Call::kCancelInvoice, done.status(), ctx.now);
  return InvoiceEvent(*done, ctx.now);
}

// The amount of a purchase, deposit or invoice the bank answered with; `absent` when the
// answer has none.
template <typename Entity>
StatusOr<std::int64_t> AmountOf(const StatusOr<Entity>& answer, std::int64_t absent) {
  if (!answer.ok()) return answer.status();
  return Or(answer->amount, absent);
}
// The PATCH down to the target; the entity's amount after it.
StatusOr<std::int64_t> PatchAmount(const api::Bank& bank, const ReduceAmount& c) {
  if (c.kind == EntityKind::kPurchase) {
    // The bank captures an approved purchase by itself (docs/checkout.md, "Refunds"): the sale
    // may not know it yet. A captured (confirmed) purchase is reversed, not canceled, so the
    // bank is asked first and the PATCH is one it takes.
    ReduceAmount change = c;
    if (c.cancel_authorization) {
      auto purchase = bank.merchant_purchase().Get(c.entity_id);
      if (purchase.ok() && purchase->status.value_or("") == "confirmed") change.cancel_authorization = false;
    }
    return AmountOf(bank.merchant_purchase().Patch(c.entity_id, PurchaseChange(change)), c.new_amount);
  }
  if (c.kind == EntityKind::kDeposit)
    return AmountOf(bank.deposit().Patch(c.entity_id, DepositChange(c)), c.new_amount);
  return AmountOf(bank.invoice().Patch(c.entity_id, InvoiceChange(c)), c.new_amount);
}
// The entity's amount as the bank has it now; -1 when it gives none.
StatusOr<std::int64_t> ReadAmount(const api::Bank& bank, const ReduceAmount& c) {
  if (c.kind == EntityKind::kPurchase) return AmountOf(bank.merchant_purchase().Get(c.entity_id), std::int64_t{-1});
  if (c.kind == EntityKind::kDeposit) return AmountOf(bank.deposit().Get(c.entity_id), std::int64_t{-1});
  return AmountOf(bank.invoice().Get(c.entity_id), std::int64_t{-1});
}

// PATCH of a purchase, deposit or invoice down to `new_amount`.
Event Execute(const ReduceAmount& c, const CallContext& ctx) {
  const Call kind = c.late_money ? Call::kLateReturn : Call::kReversal;
  StatusOr<std::int64_t> amount = PatchAmount(ctx.bank, c);
  if (!amount.ok() && Classify(amount.status()) == Failure::kRejected) {
    // A PATCH re-sent after a lost answer or a crash finds the reduction already
    // made, and the bank refuses it (the amount is no longer above the target). The
    // entity read back is the answer when it is already at (or below) the target.
    StatusOr<std::int64_t> read = ReadAmount(ctx.bank, c);
    if (read.ok() && *read >= 0 && *read <= c.new_amount) amount = *read;
  }
  if (!amount.ok()) return Failed(kind, amount.status(), ctx.now);
  return Reversed{c.entity_id, *amount, ctx.now};
}

}  // namespace

Event ExecuteBankCall(const api::Bank& bank, const Sale& sale, const BankCall& call, UnixMicros now,
                      const CardData* held_card, const BrowserData* held_browser) {
  const CallContext ctx{bank, sale, now, held_card, held_browser};
  return std::visit([&ctx](const auto& c) { return Execute(c, ctx); }, call);
}

}  // namespace balcao::checkout::internal

namespace balcao::checkout {

api::MerchantPurchase PurchaseCustomer(const CardData& card, const BrowserData& browser) {
  api::MerchantPurchase p;
  // Only what the customer gave, never a default: the issuer's risk check must see this customer.
  auto given = [](std::optional<std::string>& field, const std::string& value) {
    if (!value.empty()) field = value;
  };
  given(p.holder_email, card.holder_email);
  given(p.holder_phone, card.holder_phone);
  given(p.billing_street_line1, card.billing.street_line1);
  // The complement may be empty, but belongs to an address that was given.
  if (!card.billing.street_line1.empty()) p.billing_street_line2 = card.billing.street_line2;
  given(p.billing_city, card.billing.city);
  given(p.billing_state_code, card.billing.state_code);
  given(p.billing_zip_code, card.billing.zip_code);
  given(p.billing_country_code, card.billing.country_code);
  if (!browser.empty()) p.metadata = internal::DeviceMetadata(browser);
  return p;
}

}  // namespace balcao::checkout
