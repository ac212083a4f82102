#include "integration/tefdial/exchange.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "integration/tefdial/response.h"

namespace balcao::integration::tefdial {
namespace {

TefSale* Mutable(Exchange& exchange, const std::string& sale_id) {
  for (TefSale& sale : exchange.sales)
    if (!sale_id.empty() && sale.sale_id == sale_id) return &sale;
  return nullptr;
}
TefSale* MutableByKey(Exchange& exchange, const std::string& key) {
  for (auto it = exchange.sales.rbegin(); it != exchange.sales.rend(); ++it)
    if (it->key == key) return &*it;
  return nullptr;
}

Status Wrong(const TefSale& sale, const char* event) {
  return FailedPreconditionError(std::string(event) + " does not apply to TEF sale " + sale.sale_id + " (" +
                                 PhaseName(sale.phase) + ")");
}

}  // namespace

const char* PhaseName(Phase phase) {
  static constexpr std::array kNames{"running", "declined", "pending",    "confirmed",
                                     "undoing", "undone",   "cancelling", "cancelled"};
  return kNames[static_cast<std::size_t>(phase)];
}

const TefSale* Exchange::BySale(const std::string& sale_id) const {
  for (const TefSale& sale : sales)
    if (!sale_id.empty() && sale.sale_id == sale_id) return &sale;
  return nullptr;
}

const TefSale* Exchange::ByKey(const std::string& key) const {
  for (auto it = sales.rbegin(); it != sales.rend(); ++it)
    if (it->key == key) return &*it;
  return nullptr;
}

const TefSale* Exchange::ByNsu(const std::string& nsu) const {
  if (nsu.empty()) return nullptr;
  for (const TefSale& sale : sales)
    if (sale.nsu == nsu) return &sale;
  return nullptr;
}

const TefSale* Exchange::Named(const Request& request) const {
  if (const TefSale* sale = ByNsu(request.nsu)) return sale;
  return request.control.empty() ? nullptr : BySale(request.control);
}

const TefSale* Exchange::SameCrt(const Request& crt) const { return ByKey(RequestKey(crt)); }

const TefSale* Exchange::Open() const {
  for (const TefSale& sale : sales)
    if (sale.phase == Phase::kRunning || sale.phase == Phase::kPending) return &sale;
  return nullptr;
}

const TefSale* Exchange::LastApproved() const {
  for (auto it = sales.rbegin(); it != sales.rend(); ++it)
    if (!it->nsu.empty()) return &*it;
  return nullptr;
}

std::string NextNsu(const Exchange& exchange) {
  char nsu[16];
  std::snprintf(nsu, sizeof nsu, "%06d", exchange.last_nsu + 1);
  return nsu;
}

Status Apply(Exchange& exchange, const Event& event) {
  if (const auto* e = std::get_if<Answered>(&event)) {
    exchange.answers[e->request_key] = e->text;
    return OkStatus();
  }
  if (const auto* e = std::get_if<CrtOpened>(&event)) {
    if (const TefSale* same = exchange.ByKey(e->key); same != nullptr && same->phase == Phase::kRunning)
      return AlreadyExistsError("the CRT " + e->key + " runs already");
    TefSale sale;
    sale.key = e->key;
    sale.request_id = e->request_id;
    sale.fiscal_document = e->fiscal_document;
    sale.amount = e->amount;
    sale.response_name = e->response_name;
    sale.opened_at = e->at;
    exchange.sales.push_back(std::move(sale));
    return OkStatus();
  }
  if (const auto* e = std::get_if<SaleApproved>(&event)) {
    TefSale* sale = MutableByKey(exchange, e->key);
    if (sale == nullptr) return NotFoundError("no CRT " + e->key);
    if (sale->phase != Phase::kRunning) return Wrong(*sale, "SaleApproved");
    sale->phase = Phase::kPending;
    sale->sale_id = e->sale_id;
    sale->nsu = e->nsu;
    sale->approval = e->approval;
    exchange.last_nsu = std::max(exchange.last_nsu, std::atoi(e->nsu.c_str()));
    return OkStatus();
  }
  if (const auto* e = std::get_if<SaleDeclined>(&event)) {
    TefSale* sale = MutableByKey(exchange, e->key);
    if (sale == nullptr) return NotFoundError("no CRT " + e->key);
    if (sale->phase != Phase::kRunning) return Wrong(*sale, "SaleDeclined");
    sale->phase = Phase::kDeclined;
    sale->sale_id = e->sale_id;
    sale->message = e->message;
    sale->resolved_at = e->at;
    return OkStatus();
  }
  const std::string& id = std::visit(
      [](const auto& e) -> const std::string& {
        if constexpr (requires { e.sale_id; }) {
          return e.sale_id;
        } else {
          static const std::string kNone;
          return kNone;
        }
      },
      event);
  TefSale* sale = Mutable(exchange, id);
  if (sale == nullptr) return NotFoundError("no TEF sale " + id);
  if (const auto* e = std::get_if<Confirmed>(&event)) {
    if (sale->phase != Phase::kPending) return Wrong(*sale, "Confirmed");
    sale->phase = Phase::kConfirmed;
    sale->resolved_by = e->by;
    sale->resolved_at = e->at;
  } else if (const auto* e = std::get_if<UndoStarted>(&event)) {
    if (sale->phase != Phase::kPending) return Wrong(*sale, "UndoStarted");
    sale->phase = Phase::kUndoing;
    sale->resolved_by = e->by;
    sale->resolved_at = e->at;
  } else if (std::holds_alternative<Undone>(event)) {
    if (sale->phase != Phase::kUndoing) return Wrong(*sale, "Undone");
    sale->phase = Phase::kUndone;
  } else if (const auto* e = std::get_if<CancelStarted>(&event)) {
    if (sale->phase != Phase::kConfirmed) return Wrong(*sale, "CancelStarted");
    sale->phase = Phase::kCancelling;
    sale->resolved_by = "cnc";
    sale->resolved_at = e->at;
    sale->cnc_key = e->request_key;
    sale->cnc_request_id = e->request_id;
    sale->cnc_response_name = e->response_name;
  } else if (std::holds_alternative<Cancelled>(event)) {
    if (sale->phase != Phase::kCancelling) return Wrong(*sale, "Cancelled");
    sale->phase = Phase::kCancelled;
  }
  return OkStatus();
}

Decision Decide(const Exchange& exchange, const Request& request) {
  const std::string key = RequestKey(request);
  if (auto it = exchange.answers.find(key); it != exchange.answers.end())
    return Decision{Verdict::kRepeat, "", it->second, "the same request again"};
  switch (request.command) {
    case Command::kAtv:
      return Decision{Verdict::kStatusOnly, "", "", "active"};
    case Command::kAdm:
      return Decision{Verdict::kAdm, "", "", "administrative menu"};
    case Command::kCrt: {
      if (const TefSale* same = exchange.SameCrt(request); same != nullptr && same->phase == Phase::kRunning)
        return Decision{Verdict::kWait, same->sale_id, "", "the same CRT while its sale runs", same->key};
      if (const TefSale* open = exchange.Open()) {
        if (open->phase == Phase::kRunning)
          return Decision{Verdict::kRefuse, open->sale_id, "", "OUTRA TRANSACAO EM ANDAMENTO"};
        return Decision{Verdict::kRefuse, open->sale_id, "", "PENDENTE NSU " + open->nsu + ": ENVIE CNF OU NCN"};
      }
      return Decision{Verdict::kStart, "", "", "a new sale"};
    }
    case Command::kCnf:
    case Command::kNcn: {
      const bool confirm = request.command == Command::kCnf;
      const TefSale* sale = exchange.Named(request);
      if (sale == nullptr) return Decision{Verdict::kStatusOnly, "", "", "no such sale (NSU or control unknown)"};
      if (sale->phase == Phase::kPending)
        return Decision{confirm ? Verdict::kConfirm : Verdict::kUndo, sale->sale_id, "", ""};
      return Decision{Verdict::kStatusOnly, sale->sale_id, "",
                      std::string("already ") + PhaseName(sale->phase) + ": nothing changes"};
    }
    case Command::kCnc: {
      const TefSale* sale = exchange.ByNsu(request.nsu);
      if (sale == nullptr || sale->amount != request.amount)
        return Decision{Verdict::kRefuse, "", "", "TRANSACAO NAO ENCONTRADA"};
      if ((!request.receipt_date.empty() && request.receipt_date != ReceiptDate(sale->approval.at)) ||
          (!request.receipt_time.empty() && request.receipt_time != ReceiptTime(sale->approval.at)))
        return Decision{Verdict::kRefuse, sale->sale_id, "", "DATA/HORA NAO CONFERE COM A TRANSACAO"};
      if (sale->phase == Phase::kConfirmed) return Decision{Verdict::kCancel, sale->sale_id, "", ""};
      if (sale->phase == Phase::kCancelling || sale->phase == Phase::kCancelled)
        return Decision{Verdict::kRefuse, sale->sale_id, "", "TRANSACAO JA CANCELADA"};
      if (sale->phase == Phase::kPending)
        return Decision{Verdict::kRefuse, sale->sale_id, "", "TRANSACAO PENDENTE: USE NCN"};
      return Decision{Verdict::kRefuse, sale->sale_id, "", "TRANSACAO DESFEITA"};
    }
  }
  return Decision{};
}

std::vector<std::string> Overdue(const Exchange& exchange, UnixMicros now, std::int64_t after_s) {
  std::vector<std::string> ids;
  for (const TefSale& sale : exchange.sales)
    if (sale.phase == Phase::kPending && now - sale.approval.at >= after_s * kMicrosPerSecond)
      ids.push_back(sale.sale_id);
  return ids;
}

}  // namespace balcao::integration::tefdial
