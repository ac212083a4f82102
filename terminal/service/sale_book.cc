#include "terminal/service/sale_book.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "common/qr.h"
#include "terminal/internal/receipts.h"

namespace balcao::terminal::service {
namespace {

using checkout::Sale;
using nlohmann::json;

// What the bank took back of the sale's money outside Balcão, and when the box saw it last.
SaleBook::LoweredAtBank LoweredOf(const Sale& sale) {
  SaleBook::LoweredAtBank lowered{sale.id};
  for (const checkout::Money& line : sale.ledger) {
    lowered.amount += line.bank_lowered;
    lowered.seen_at = std::max(lowered.seen_at, line.bank_lowered_at);
  }
  return lowered;
}

}  // namespace

std::string StoreDay(UnixMicros at) { return BusinessDayOf(at); }

std::string QrSvg(const std::string& text) {
  const StatusOr<QrMatrix> qr = EncodeQr(text, QrLevel::kM);
  if (!qr.ok()) return "";  // empty or too long: no QR to show
  const int width = qr->size, quiet = kQrQuietModules, size = width + 2 * quiet;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << size << ' ' << size
      << "\" shape-rendering=\"crispEdges\"><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><path fill=\"#000\" "
         "d=\"";
  for (int y = 0; y < width; ++y) {
    for (int x = 0; x < width; ++x) {
      if (qr->dark(x, y)) svg << 'M' << x + quiet << ',' << y + quiet << "h1v1h-1z";
    }
  }
  svg << "\"/></svg>";
  return svg.str();
}

SaleBook::SaleBook(std::string index_path) : index_path_(std::move(index_path)) {}

Status SaleBook::Load() {
  std::ifstream in(index_path_);
  if (!in) return OkStatus();
  std::string line;
  std::lock_guard<std::mutex> lock(mu_);
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    long long at = 0, amount = 0;
    std::string id;
    if (fields >> at >> id >> amount) entries_[id] = Entry{amount, at};
  }
  return OkStatus();
}

Status SaleBook::Add(const std::string& sale_id, checkout::Cents amount, UnixMicros opened_at) {
  const std::string line =
      std::to_string(opened_at) + " " + sale_id + " " + std::to_string(static_cast<long long>(amount)) + "\n";
  const int fd = ::open(index_path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return FailedPreconditionError("cannot open " + index_path_);
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!written) return FailedPreconditionError("cannot write " + index_path_);
  std::lock_guard<std::mutex> lock(mu_);
  entries_[sale_id] = Entry{amount, opened_at};
  return OkStatus();
}

bool SaleBook::Knows(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.count(sale_id) > 0;
}

bool SaleBook::HasCopy(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sale_id);
  return it != entries_.end() && it->second.sale != nullptr;
}

bool SaleBook::HasView(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sale_id);
  return it != entries_.end() && (it->second.sale != nullptr || it->second.ended.has_value());
}

std::optional<checkout::Sale> SaleBook::Copy(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sale_id);
  if (it == entries_.end() || !it->second.sale) return std::nullopt;
  return *it->second.sale;
}

void SaleBook::Put(const checkout::Sale& sale) {
  // The driver's thread puts every sale it ticked, changed or not: only a change moves its version.
  Change(sale.id, [&](Entry& entry) {
    if (entry.sale && *entry.sale == sale) return false;
    if (entry.opened_at == 0) entry.amount = sale.amount;
    if (entry.sale)
      *entry.sale = sale;
    else
      entry.sale = std::make_unique<checkout::Sale>(sale);
    entry.ended.reset();
    if (LoweredAtBank lowered = LoweredOf(sale); lowered.amount > 0)
      lowered_[sale.id] = std::move(lowered);
    else
      lowered_.erase(sale.id);
    if (checkout::IsTerminal(sale.state)) NoteEndedLocked(sale.id, entry);
    return true;
  });
}

void SaleBook::OnChange(std::function<void(const std::string&)> changed) { on_change_ = std::move(changed); }

std::uint64_t SaleBook::Version(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sale_id);
  return it == entries_.end() ? 0 : it->second.version;
}

void SaleBook::Change(const std::string& sale_id, const std::function<bool(Entry&)>& edit) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    Entry& entry = entries_[sale_id];
    if (!edit(entry)) return;
    entry.version = ++last_version_;
  }
  if (on_change_) on_change_(sale_id);  // unlocked: the watcher reads the book again
}

void SaleBook::NoteEndedLocked(const std::string& id, Entry& entry) {
  if (entry.among_ended) return;
  entry.among_ended = true;
  ended_order_.push_back(id);
  while (ended_order_.size() > kFullCopiesKept) {
    const std::string oldest_id = std::move(ended_order_.front());
    ended_order_.pop_front();
    Entry& oldest = entries_[oldest_id];
    oldest.among_ended = false;
    // Opened again since (a refund under way), or a cash register's (its receipts answer it): kept.
    if (!oldest.sale || !checkout::IsTerminal(oldest.sale->state) || !oldest.register_name.empty()) continue;
    oldest.ended = EndedRow(*oldest.sale);
    oldest.sale.reset();
    oldest.receipts = {};
  }
}

void SaleBook::SetMessage(const std::string& sale_id, const std::string& message) {
  Change(sale_id, [&](Entry& entry) { return std::exchange(entry.message, message) != message; });
}

void SaleBook::AddFlag(const std::string& sale_id, const std::string& flag) {
  Change(sale_id, [&](Entry& entry) {
    entry.flags.push_back(flag);
    return true;
  });
}

void SaleBook::AddReceipt(const std::string& sale_id, const std::string& text) {
  Change(sale_id, [&](Entry& entry) {
    entry.receipts.push_back(text);
    return true;
  });
}

void SaleBook::SetInstallments(const std::string& sale_id, int installments) {
  Change(sale_id, [&](Entry& entry) { return std::exchange(entry.installments, installments) != installments; });
}

int SaleBook::Installments(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sale_id);
  return it == entries_.end() ? 1 : it->second.installments;
}

void SaleBook::SetRegister(const std::string& sale_id, const std::string& register_name) {
  Change(sale_id, [&](Entry& entry) { return std::exchange(entry.register_name, register_name) != register_name; });
}

void SaleBook::SetReversalRequested(const std::string& sale_id, checkout::Cents amount) {
  Change(sale_id, [&](Entry& entry) { return std::exchange(entry.reversal_requested, amount) != amount; });
}

std::vector<std::string> SaleBook::Receipts(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sale_id);
  return it == entries_.end() ? std::vector<std::string>{} : it->second.receipts;
}

std::string SaleBook::ViewLocked(const std::string& id, const Entry& entry, bool with_receipts) const {
  static const std::vector<std::string> kNone;
  if (!entry.sale && !entry.ended) return "";
  const BookFacts facts{entry.amount,
                        entry.opened_at,
                        entry.message,
                        entry.flags,
                        with_receipts && entry.sale ? entry.receipts : kNone,
                        entry.installments,
                        entry.register_name,
                        entry.reversal_requested};
  return ViewText(id, entry.sale ? RowOf(*entry.sale) : *entry.ended, facts);
}

std::optional<std::string> SaleBook::ViewJson(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sale_id);
  if (it == entries_.end() || (!it->second.sale && !it->second.ended)) return std::nullopt;
  // The version read with the view it belongs to, under the same lock.
  const std::string view = ViewLocked(sale_id, it->second);
  const std::string version = "{\"version\":" + std::to_string(it->second.version);
  return view.size() > 2 ? version + "," + view.substr(1) : version + "}";
}

std::string SaleBook::QrText(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sale_id);
  if (it == entries_.end() || !it->second.sale) return "";
  return ScreenOf(*it->second.sale).qr;
}

std::optional<checkout::Sale> SaleBook::AwaitingPhone(const std::string& uuid) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [id, entry] : entries_) {
    if (!entry.sale) continue;
    const auto* awaiting = std::get_if<checkout::AwaitingCard>(&entry.sale->state);
    if (awaiting && awaiting->session.uuid == uuid) return *entry.sale;
  }
  return std::nullopt;
}

std::optional<checkout::CardSession> SaleBook::OpenCardSession(const std::string& sale_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(sale_id);
  if (it == entries_.end() || !it->second.sale) return std::nullopt;
  const auto* awaiting = std::get_if<checkout::AwaitingCard>(&it->second.sale->state);
  if (!awaiting) return std::nullopt;
  return awaiting->session;
}

std::vector<std::string> SaleBook::IdsOfDay(const std::string& day) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::pair<UnixMicros, std::string>> found;
  for (const auto& [id, entry] : entries_)
    if (entry.opened_at != 0 && StoreDay(entry.opened_at) == day) found.emplace_back(entry.opened_at, id);
  std::sort(found.begin(), found.end());
  std::vector<std::string> ids;
  for (auto& [at, id] : found) ids.push_back(std::move(id));
  return ids;
}

std::string SaleBook::DayJson(const std::string& day) const {
  const std::vector<std::string> ids = IdsOfDay(day);
  std::lock_guard<std::mutex> lock(mu_);
  std::string sales;  // the views, as text
  std::size_t count = 0;
  checkout::Cents collected = 0;
  int paid = 0;
  for (auto it = ids.rbegin(); it != ids.rend(); ++it) {  // newest first
    const Entry& entry = entries_.at(*it);
    if (!entry.sale && !entry.ended) continue;
    sales += (count++ == 0 ? "" : ",") + ViewLocked(*it, entry, false);
    collected += entry.sale ? entry.sale->collected() : entry.ended->collected;
    if (std::string(entry.sale ? ScreenOf(*entry.sale).status : entry.ended->status) == "paid") ++paid;
  }
  const json totals = {{"count", count}, {"paid", paid}, {"collected", collected}};
  return "{\"day\":" + json(day).dump() + ",\"sales\":[" + sales + "],\"totals\":" + totals.dump() + "}";
}

std::vector<SaleBook::Tally> SaleBook::TallyOfDay(const std::string& day) const {
  const std::vector<std::string> ids = IdsOfDay(day);
  std::lock_guard<std::mutex> lock(mu_);
  std::map<std::pair<std::string, std::string>, Tally> tallies;
  for (const std::string& id : ids) {
    const Entry& entry = entries_.at(id);
    if (!entry.sale && !entry.ended) continue;
    const Screen screen = entry.sale ? ScreenOf(*entry.sale) : Screen{};
    const std::string method = entry.sale ? screen.method : entry.ended->method;
    const std::string status = entry.sale ? std::string(screen.status) : entry.ended->status;
    Tally& tally = tallies[{method, status}];
    tally.method = method;
    tally.status = status;
    ++tally.sales;
    tally.collected += entry.sale ? entry.sale->collected() : entry.ended->collected;
  }
  std::vector<Tally> out;
  for (auto& [key, tally] : tallies) out.push_back(std::move(tally));
  return out;
}

std::vector<std::string> SaleBook::Unsettled() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> ids;
  for (const auto& [id, entry] : entries_)
    if (entry.sale && !checkout::IsTerminal(entry.sale->state) &&
        !std::holds_alternative<checkout::PayLater>(entry.sale->state))
      ids.push_back(id);
  return ids;
}

std::vector<SaleBook::LoweredAtBank> SaleBook::LoweredAtBankSales() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<LoweredAtBank> sales;
  for (const auto& [id, lowered] : lowered_) sales.push_back(lowered);
  return sales;
}

}  // namespace balcao::terminal::service
