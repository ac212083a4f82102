#include "terminal/service/sale_view.h"

#include <nlohmann/json.hpp>

#include "terminal/internal/receipts.h"
#include "terminal/service/sale_book.h"

namespace balcao::terminal::service {
namespace {

using checkout::Sale;
using nlohmann::json;

template <typename T>
const T* As(const Sale& sale) {
  return std::get_if<T>(&sale.state);
}

}  // namespace

Screen ScreenOf(const Sale& sale) {
  namespace co = checkout;
  Screen s;
  if (const auto* choosing = As<co::ChoosingMethod>(sale)) {
    // Back at the choice because the bank could not be reached or refused the box's clock is
    // not a decline: nothing was asked of the customer's bank (the notice says which).
    const bool not_refused = choosing->notice.find("the bank cannot be reached") != std::string::npos ||
                             choosing->notice.find("relógio do caixa") != std::string::npos;
    s.status = sale.attempts > 0 && !choosing->notice.empty() && !not_refused ? "declined" : "choosing";
    s.message = choosing->notice;
    if (choosing->last_method) s.method = co::Name(*choosing->last_method);
  } else if (const auto* awaiting = As<co::AwaitingCard>(sale)) {
    s.status = "enter-card";
    s.method = "card";
    s.message = awaiting->notice;
    // The customer's phone page for this session (GET /api/sales/{id}/phone-link: the full URL).
    s.link = "/pay/" + awaiting->session.uuid;
    s.deadline = awaiting->session.expires_at;
  } else if (const auto* challenge = As<co::Challenge>(sale)) {
    s.status = "challenge";
    s.method = "card";
    // The phone that made the purchase opened the bank's page itself: nothing to scan then.
    if (!challenge->on_phone) s.qr = s.link = challenge->challenge_url;
    s.card_mask = challenge->card_mask;
    s.deadline = challenge->session.expires_at;
  } else if (const auto* pix = As<co::ShowingPix>(sale)) {
    s.status = "pix";
    s.method = "pix";
    s.qr = pix->brcode.text;
    s.deadline = pix->brcode.expires_at;
  } else if (const auto* invoice = As<co::ShowingInvoice>(sale)) {
    s.status = "invoice";
    s.method = "invoice";
    s.qr = invoice->invoice.brcode.empty() ? invoice->invoice.link : invoice->invoice.brcode;
    s.link = invoice->invoice.link;
  } else if (const auto* later = As<co::PayLater>(sale)) {
    s.status = "pay-later";
    s.method = "invoice";
    s.qr = later->invoice.brcode.empty() ? later->invoice.link : later->invoice.brcode;
    s.link = later->invoice.link;
  } else if (const auto* held = As<co::CardHeld>(sale)) {
    s.status = "provisional";
    s.method = "card";
    s.card_mask = held->card_mask;
    s.message = "sem conexão com o banco: venda de cartão provisória, enviada ao banco quando a conexão voltar";
  } else if (As<co::InvoiceQueued>(sale)) {
    s.status = "queued";
    s.method = "invoice";
    s.message = "sem conexão com o banco: o boleto foi enfileirado e será emitido quando a conexão voltar";
  } else if (const auto* canceling = As<co::CancelingInvoice>(sale)) {
    s.status = "canceling";
    s.method = "invoice";
    if (!canceling->queued_key.empty()) s.message = "cancelamento pedido, na fila até o banco responder";
  } else if (const auto* paid = As<co::Paid>(sale)) {
    s.status = "paid";
    s.method = co::Name(paid->payment.method);
  } else if (const auto* reversing = As<co::Reversing>(sale)) {
    s.status = "refunding";
    s.method = co::Name(reversing->payment.method);
    if (!reversing->queued_key.empty()) s.message = "estorno pedido, na fila até o banco responder";
  } else if (const auto* refunded = As<co::Refunded>(sale)) {
    s.status = "refunded";
    s.method = co::Name(refunded->payment.method);
  } else if (const auto* voided = As<co::Voided>(sale)) {
    s.status = "voided";
    s.message = voided->reason;
  } else if (const auto* charging = As<co::Charging>(sale)) {
    s.method = "card";
    s.card_mask = charging->card_mask;
  }
  return s;
}

SaleRow RowOf(const Sale& sale) {
  const Screen screen = ScreenOf(sale);
  SaleRow row;
  row.state = checkout::StateName(static_cast<int>(sale.state.index()));
  row.status = screen.status;
  row.method = screen.method;
  row.message = screen.message;
  row.has_qr = !screen.qr.empty();
  row.link = screen.link;
  row.deadline = screen.deadline;
  if (const auto* pix = As<checkout::ShowingPix>(sale)) row.pix_code = pix->brcode.text;
  // The invoice is a Pix charge with a due date: its copia-e-cola code and the date, on screen.
  const checkout::InvoiceInfo* invoice = nullptr;
  if (const auto* showing = As<checkout::ShowingInvoice>(sale)) invoice = &showing->invoice;
  if (const auto* later = As<checkout::PayLater>(sale)) invoice = &later->invoice;
  if (invoice != nullptr) {
    row.pix_code = invoice->brcode;
    row.due = invoice->due;
  }
  row.collected = sale.collected();
  const checkout::Money* payment = sale.payment_line();
  row.returned = payment != nullptr ? payment->returned : 0;
  for (const checkout::Money& line : sale.ledger) row.bank_reversed += line.bank_lowered;
  if (As<checkout::Paid>(sale) && payment != nullptr) row.payment_id = payment->ref.id;
  for (const checkout::EntityRef& ref : sale.created)
    row.bank_ids += (row.bank_ids.empty() ? "" : "\n") + std::string(checkout::Name(ref.kind)) + "/" + ref.id;
  row.reprint = ReprintOf(sale, {}).has_value();
  return row;
}

SaleRow EndedRow(const Sale& sale) {
  SaleRow row = RowOf(sale);
  row.has_qr = false;
  row.link = {};
  row.pix_code = {};
  row.deadline = row.due = 0;
  row.message.shrink_to_fit();
  row.bank_ids.shrink_to_fit();
  return row;
}

std::string ViewText(const std::string& id, const SaleRow& row, const BookFacts& book) {
  const std::string status = row.status;
  const bool paid = status == "paid";
  json bank_ids = json::array();
  for (std::size_t at = 0; at < row.bank_ids.size();) {
    const std::size_t end = std::min(row.bank_ids.find('\n', at), row.bank_ids.size());
    bank_ids.push_back(row.bank_ids.substr(at, end - at));
    at = end + 1;
  }
  json view = {{"id", id},
               {"amount", book.amount},
               {"opened_at", FormatTimestamp(book.opened_at)},
               {"day", StoreDay(book.opened_at)},
               {"state", row.state},
               {"status", status},
               {"method", row.method},
               {"message", row.message.empty() ? book.message : row.message},
               {"has_qr", row.has_qr},
               {"link", row.link},
               {"deadline_ms", row.deadline / 1000},
               {"collected", row.collected},
               {"installments", book.installments},
               {"bank_ids", bank_ids},
               {"flags", book.flags},
               {"receipts", book.receipts},
               {"returned", row.returned},
               {"bank_reversed", row.bank_reversed},
               // A cash register's sale: the screen names the register and offers no amount editing.
               {"register", book.register_name},
               {"reversal_requested", book.reversal_requested}};
  if (status == "pix" || status == "invoice" || status == "pay-later") view["pix_code"] = row.pix_code;
  if (status == "invoice" || status == "pay-later") view["due_ms"] = row.due / 1000;
  if (!row.payment_id.empty()) view["payment_id"] = row.payment_id;
  view["can"] = {{"cancel", status == "choosing" || status == "declined" || status == "enter-card" || status == "pix" ||
                                status == "invoice" || status == "pay-later" || status == "queued"},
                 {"refund", paid && row.collected > 0},
                 {"keep_open", status == "invoice"},
                 {"print", status == "pix" || status == "invoice" || status == "pay-later" || status == "queued" ||
                               status == "provisional"},
                 {"retry", status == "declined" && !row.method.empty() && row.method != "invoice"},
                 {"fallback", status == "declined"},
                 {"reprint", row.reprint}};
  return view.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace balcao::terminal::service
