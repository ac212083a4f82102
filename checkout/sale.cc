// Sale accessors, names, tags, effect descriptions and the table's Markdown rendering.
#include <algorithm>
#include <string>
#include <variant>

#include "checkout/checkout.h"
#include "checkout/internal/rules.h"

namespace balcao::checkout {
namespace {

template <typename V>
struct KindNames;
template <typename... Ts>
struct KindNames<std::variant<Ts...>> {
  static constexpr const char* kAll[] = {Ts::kName...};
};

template <typename V>
const char* NameAt(int index) {
  constexpr int kCount = static_cast<int>(std::variant_size_v<V>);
  if (index == kAnyState) return "(any)";
  if (index == kSameState) return "(same)";
  return index >= 0 && index < kCount ? KindNames<V>::kAll[index] : "?";
}

}  // namespace

const char* StateName(int index) { return NameAt<State>(index); }
const char* EventName(int index) { return NameAt<Event>(index); }

bool IsTerminal(const State& state) {
  return std::holds_alternative<Paid>(state) || std::holds_alternative<Refunded>(state) ||
         std::holds_alternative<Voided>(state);
}

UnixMicros TimeOf(const Event& event) {
  return std::visit([](const auto& e) { return e.at; }, event);
}

std::string LaneRoot(std::string_view store_id, std::string_view terminal_id) {
  return std::string(kStoreTagPrefix) + std::string(store_id) + std::string(kLaneTagInfix) + std::string(terminal_id);
}
std::string SaleTag(std::string_view lane, std::string_view sale_id) {
  return lane.empty() ? SaleTag(sale_id) : std::string(lane) + "/" + SaleTag(sale_id);
}
std::string AttemptTag(std::string_view lane, std::string_view sale_id, int attempt) {
  return SaleTag(lane, sale_id) + "/a" + std::to_string(attempt);
}
std::string SaleTag(std::string_view sale_id) { return "sale/" + std::string(sale_id); }
std::string AttemptTag(std::string_view sale_id, int attempt) {
  return SaleTag(sale_id) + "/a" + std::to_string(attempt);
}
std::vector<std::string> EntityTags(std::string_view lane, std::string_view sale_id, int attempt) {
  if (lane.empty()) return {SaleTag(sale_id), AttemptTag(sale_id, attempt)};
  const std::string root(lane);
  return {root.substr(0, root.find(kLaneTagInfix)), root, SaleTag(lane, sale_id), AttemptTag(lane, sale_id, attempt)};
}

std::string LaneIdRule(std::string_view id) {
  const auto allowed = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; };
  if (id.empty() || id.size() > 24 || id.front() == '-' || !std::all_of(id.begin(), id.end(), allowed))
    return "1 to 24 of a-z, 0-9 and '-', not starting with '-'";
  return "";
}

TaggedSale SaleOfTags(const std::vector<std::string>& tags) {
  constexpr std::string_view kSale = "sale/";
  TaggedSale legacy;
  for (const std::string& tag : tags) {
    std::string_view rest(tag);
    if (rest.starts_with(kSale) && rest.size() > kSale.size() && legacy.sale_id.empty()) {
      rest.remove_prefix(kSale.size());
      legacy.sale_id = std::string(rest.substr(0, rest.find('/')));  // sale/<id>/a<n> names the same sale
      continue;
    }
    if (!rest.starts_with(kStoreTagPrefix)) continue;
    rest.remove_prefix(kStoreTagPrefix.size());
    const auto lane_at = rest.find(kLaneTagInfix);
    if (lane_at == std::string_view::npos) continue;
    TaggedSale found;
    found.store = std::string(rest.substr(0, lane_at));
    rest.remove_prefix(lane_at + kLaneTagInfix.size());
    const auto sale_at = rest.find("/" + std::string(kSale));
    if (sale_at == std::string_view::npos) continue;
    found.terminal = std::string(rest.substr(0, sale_at));
    rest.remove_prefix(sale_at + 1 + kSale.size());
    found.sale_id = std::string(rest.substr(0, rest.find('/')));
    if (!found.store.empty() && !found.terminal.empty() && !found.sale_id.empty()) return found;
  }
  return legacy;
}

std::string BrcodeDepositTag(std::string_view uuid) { return "dynamic-brcode/" + std::string(uuid); }

const Money* Sale::payment_line() const {
  for (const Money& m : ledger) {
    if (m.role == MoneyRole::kPayment) return &m;
  }
  return nullptr;
}
Cents Sale::collected() const {
  const Money* line = payment_line();
  return line ? line->net() : 0;
}
Cents Sale::late_outstanding() const {
  Cents sum = 0;
  for (const Money& m : ledger) {
    if (m.role == MoneyRole::kLate) sum += m.net();
  }
  return sum;
}
const Money* Sale::FindMoney(const std::string& entity_id) const {
  for (const Money& m : ledger) {
    if (m.ref.id == entity_id) return &m;
  }
  return nullptr;
}
bool Sale::Knows(EntityKind kind, const std::string& entity_id) const {
  for (const EntityRef& ref : created) {
    if (ref.kind == kind && ref.id == entity_id) return true;
  }
  return false;
}

int Sale::AttemptOf(EntityKind kind, const std::string& entity_id) const {
  for (const EntityRef& ref : created) {
    if (ref.kind == kind && ref.id == entity_id) return ref.attempt;
  }
  return 0;
}

std::string Describe(const Effect& effect) {
  return std::visit(
      [](const auto& e) -> std::string {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, BankCall>) {
          return std::visit(
              [](const auto& call) -> std::string {
                using C = std::decay_t<decltype(call)>;
                if constexpr (std::is_same_v<C, FindByTag>) {
                  return std::string(C::kName) + "(" + Name(call.kind) + ")";
                } else {
                  return C::kName;
                }
              },
              e);
        } else if constexpr (std::is_same_v<E, Show>) {
          return std::string("Show(") + Name(e.screen) + ")";
        } else if constexpr (std::is_same_v<E, Print>) {
          return std::string("Print(") + Name(e.slip) + ")";
        } else if constexpr (std::is_same_v<E, SetTimer> || std::is_same_v<E, CancelTimer>) {
          return std::string(E::kName) + "(" + Name(e.timer) + ")";
        } else {
          return std::string(E::kName);
        }
      },
      effect);
}

std::string RenderTableMarkdown() {
  std::string md = "| # | state | event | guard | next state | effects |\n|---|---|---|---|---|---|\n";
  const std::vector<RowInfo>& rows = Rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const RowInfo& r = rows[i];
    md += "| " + std::to_string(i) + " | " + StateName(r.from) + " | " + EventName(r.on) + " | " + r.guard + " | " +
          StateName(r.to) + " | " + r.effects + " |\n";
  }
  return md;
}

namespace internal {

void Out::Display(Screen screen, std::string message, std::string qr, std::string link, UnixMicros deadline) {
  effects.emplace_back(Show{screen, std::move(message), std::move(qr), std::move(link), deadline});
}
void Out::Flag(std::string entity_id, Cents amount, std::string reason) {
  effects.emplace_back(FlagOperator{std::move(entity_id), amount, std::move(reason)});
}
void Out::Remember(const EntityRef& ref) {
  if (!sale.Knows(ref.kind, ref.id)) sale.created.push_back(ref);
}
Money& Out::Receive(const EntityRef& ref, Cents amount, MoneyRole role) {
  Remember(ref);
  sale.ledger.push_back(Money{ref, amount, 0, role, role == MoneyRole::kLate, false});
  return sale.ledger.back();
}
Money* Out::Line(const std::string& entity_id) {
  for (Money& m : sale.ledger) {
    if (m.ref.id == entity_id) return &m;
  }
  return nullptr;
}

}  // namespace internal
}  // namespace balcao::checkout
