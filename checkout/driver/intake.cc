#include "checkout/driver/intake.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

#include "checkout/driver/bank_calls.h"

namespace balcao::checkout {
namespace {

constexpr std::string_view kBrcodePrefix = "dynamic-brcode/";

IntakeResult Ignored(std::string reason, std::string sale_id = "") {
  return {IntakeOutcome::kIgnored, std::move(sale_id), std::move(reason)};
}
std::string TagValue(const std::optional<api::Strings>& tags, std::string_view prefix) {
  for (const std::string& tag : tags.value_or(api::Strings{})) {
    if (tag.size() > prefix.size() && tag.compare(0, prefix.size(), prefix) == 0) return tag.substr(prefix.size());
  }
  return "";
}
template <typename Model>
StatusOr<Model> EntityOf(const api::Event& event) {
  Model model;
  BALCAO_RETURN_IF_ERROR(api::ParseModel(event.log.entity_json, model));
  return model;
}

}  // namespace

std::string SaleIdFromTags(const std::vector<std::string>& tags) { return SaleOfTags(tags).sale_id; }

Intake::Intake(Driver& driver, api::Bank bank, const Clock& clock)
    : driver_(driver), bank_(std::move(bank)), clock_(clock) {}

StatusOr<IntakeResult> Intake::Take(const api::BankEvent& event) {
  BALCAO_ASSIGN_OR_RETURN(api::Event parsed, api::ParseEvent(api::ToJsonText(event)));
  return Take(parsed);
}

StatusOr<IntakeResult> Intake::Take(const api::Event& event) {
  if (applied_ == nullptr) return TakeNew(event);
  BALCAO_ASSIGN_OR_RETURN(std::optional<offline::AppliedEvent> seen, applied_->Find(event.id));
  if (seen) return IntakeResult{IntakeOutcome::kReplayed, seen->sale_id, "event " + event.id + " was taken before"};
  BALCAO_ASSIGN_OR_RETURN(IntakeResult taken, TakeNew(event));
  if (taken.outcome == IntakeOutcome::kApplied || taken.outcome == IntakeOutcome::kIgnored) {
    // After the sale took it, never before: recorded first, a crash would lose the event.
    BALCAO_RETURN_IF_ERROR(applied_->Record({event.id, taken.sale_id, Name(taken.outcome), event.created, 0}));
  }
  return taken;
}

StatusOr<IntakeResult> Intake::TakeNew(const api::Event& event) {
  const UnixMicros now = clock_.Now();
  const std::string& subscription = event.subscription;
  if (subscription == "deposit") {
    BALCAO_ASSIGN_OR_RETURN(api::Deposit deposit, EntityOf<api::Deposit>(event));
    const std::string uuid = TagValue(deposit.tags, kBrcodePrefix);
    if (uuid.empty()) return Ignored("deposit " + deposit.id.value_or("") + " pays no dynamic brcode");
    BALCAO_ASSIGN_OR_RETURN(TaggedSale tagged, SaleOfBrcode(uuid));
    if (tagged.sale_id.empty()) return Ignored("brcode " + uuid + " belongs to no sale");
    return FeedOwn(tagged, "brcode " + uuid, [&](const Sale&) -> Event {
      return DepositSeen{deposit.id.value_or(""), uuid, deposit.amount.value_or(0), now};
    });
  }
  if (subscription == "invoice") {
    BALCAO_ASSIGN_OR_RETURN(api::Invoice invoice, EntityOf<api::Invoice>(event));
    const TaggedSale tagged = SaleOfTags(invoice.tags.value_or(api::Strings{}));
    const std::string what = "invoice " + invoice.id.value_or("");
    if (tagged.sale_id.empty()) return Ignored(what + " belongs to no sale");
    return FeedOwn(tagged, what, [&](const Sale&) { return internal::InvoiceEvent(invoice, now); });
  }
  if (subscription == "merchant-purchase") {
    BALCAO_ASSIGN_OR_RETURN(api::MerchantPurchase purchase, EntityOf<api::MerchantPurchase>(event));
    const TaggedSale tagged = SaleOfTags(purchase.tags.value_or(api::Strings{}));
    const std::string what = "purchase " + purchase.id.value_or("");
    if (tagged.sale_id.empty()) return Ignored(what + " belongs to no sale");
    return FeedOwn(tagged, what, [&](const Sale& sale) { return internal::PurchaseEvent(sale, purchase, 0, now); });
  }
  return Ignored("subscription " + subscription + " is not followed by the checkout");
}

StatusOr<int> Intake::CatchUp(int page_limit) {
  const UnixMicros now = clock_.Now();
  const UnixMicros from = cursor_ != 0 ? cursor_ : now - first_window_days_ * 86400 * kMicrosPerSecond;
  // Every page first, then oldest first: an invoice's events in the order they happened.
  std::vector<api::BankEvent> events;
  api::ListParams params =
      api::ListParams().Filter("isDelivered", "false").Filter("after", FormatDate(from)).Limit(page_limit);
  do {
    BALCAO_ASSIGN_OR_RETURN(auto page, bank_.event().ListPage(params));
    events.insert(events.end(), page.items.begin(), page.items.end());
    params.Cursor(page.cursor);
  } while (!params.cursor.empty());
  int applied = 0, foreign = 0;
  UnixMicros newest = from, oldest_waiting = 0;
  for (auto event = events.rbegin(); event != events.rend(); ++event) {  // listed newest first
    const UnixMicros created = event->created ? event->created->micros : now;
    BALCAO_ASSIGN_OR_RETURN(IntakeResult taken, Take(*event));
    newest = std::max(newest, created);
    if (taken.outcome == IntakeOutcome::kForeign) {
      ++foreign;  // its lane takes it; this box never marks it delivered
      continue;
    }
    if (taken.outcome == IntakeOutcome::kNotYet) {  // read again next time
      if (oldest_waiting == 0 || created < oldest_waiting) oldest_waiting = created;
      continue;
    }
    applied += taken.outcome == IntakeOutcome::kApplied;
    api::BankEvent delivered;
    delivered.is_delivered = true;
    BALCAO_RETURN_IF_ERROR(bank_.event().Patch(event->id.value_or(""), delivered).status());
  }
  foreign_left_ = foreign;
  // Every undelivered event created before this run was listed: the next one starts here,
  // less the overlap, or at the oldest event this box could not take yet.
  cursor_ = std::max(from, std::max(now, newest) - kCatchUpOverlapMicros);
  if (oldest_waiting != 0) cursor_ = std::min(cursor_, oldest_waiting);
  return applied;
}

StatusOr<TaggedSale> Intake::SaleOfBrcode(const std::string& uuid) {
  if (auto known = brcode_sales_.find(uuid); known != brcode_sales_.end()) return known->second;
  BALCAO_ASSIGN_OR_RETURN(auto page, bank_.dynamic_brcode().ListPage(api::ListParams().Filter("uuids", uuid).Limit(1)));
  if (page.items.empty()) return TaggedSale{};
  TaggedSale tagged = SaleOfTags(page.items.front().tags.value_or(api::Strings{}));
  brcode_sales_[uuid] = tagged;  // tags never change: remembered, found or not
  return tagged;
}

StatusOr<IntakeResult> Intake::FeedOwn(const TaggedSale& tagged, const std::string& what,
                                       const std::function<Event(const Sale&)>& make) {
  if (!tagged.store.empty() && tagged.lane() != lane_)
    return IntakeResult{IntakeOutcome::kForeign, "", what + " is of lane " + tagged.lane()};
  BALCAO_ASSIGN_OR_RETURN(IntakeResult taken, Feed(tagged.sale_id, make));
  if (taken.outcome == IntakeOutcome::kIgnored && !taken.sale_id.empty()) {
    // Old layout, no journal here: the sale of another box of the account.
    return IntakeResult{IntakeOutcome::kForeign, "", what + ": " + taken.reason};
  }
  return taken;
}

StatusOr<IntakeResult> Intake::Feed(const std::string& sale_id, const std::function<Event(const Sale&)>& make) {
  auto sale = driver_.Get(sale_id);
  if (!sale.ok()) sale = driver_.Resume(sale_id);  // after a restart, or a sale closed earlier
  if (sale.status().code() == StatusCode::kNotFound) return Ignored("sale " + sale_id + " is not on this box", sale_id);
  if (!sale.ok()) return sale.status();
  auto fed = driver_.Feed(sale_id, make(*sale));
  if (fed.ok()) return IntakeResult{IntakeOutcome::kApplied, sale_id, ""};
  if (fed.status().code() == StatusCode::kFailedPrecondition) {
    return IntakeResult{IntakeOutcome::kNotYet, sale_id, fed.status().message()};
  }
  return fed.status();
}

}  // namespace balcao::checkout
