#include "terminal/service/receipt_printer.h"

#include <algorithm>
#include <sstream>

#include "common/log.h"
#include "printer/render.h"
#include "terminal/internal/sale_events.h"

namespace balcao::terminal::service {

ReceiptPrinter::ReceiptPrinter(SaleDesk& sales, offline::Journal& journal, offline::PrintJobs& print_jobs,
                               const api::Bank& bank, const printer::PrinterProfile& profile, StoreIdentity store,
                               std::string printer_target, std::string nexo_print)
    : sales_(sales),
      journal_(journal),
      print_jobs_(print_jobs),
      profile_(profile),
      store_(std::move(store)),
      printer_target_(std::move(printer_target)),
      nexo_print_(std::move(nexo_print)),
      networks_(bank),
      spooler_(std::make_unique<offline::Spooler>(print_jobs)) {}

void ReceiptPrinter::OnPrint(const std::string& sale_id, const checkout::Print& print, bool register_sale,
                             UnixMicros now) {
  auto sale = sales_.driver().Get(sale_id);
  if (!sale.ok()) return;
  auto doc = ReceiptFor(*sale, print, store_, now, CardTermsFor(sale_id, *sale));
  if (!doc) return;
  // A cash register prints the receipts it received; the box prints what nexo.print says.
  if (register_sale) {
    const bool customer_slip = print.slip == checkout::Slip::kSaleReceipt || print.slip == checkout::Slip::kPixCode ||
                               print.slip == checkout::Slip::kRefundReceipt;
    if (nexo_print_ == "none" || (nexo_print_ == "customer" && !customer_slip)) {
      sales_.book().AddReceipt(sale_id, printer::RenderText(*doc, profile_, {.placeholders = true}));
      return;
    }
  }
  PrintReceipt(sale_id, checkout::Name(print.slip), *doc).IgnoreError();  // logged where it failed
}

Status ReceiptPrinter::PrintReceipt(const std::string& sale_id, const std::string& kind, const printer::Document& doc) {
  sales_.book().AddReceipt(sale_id, printer::RenderText(doc, profile_, {.placeholders = true}));
  auto bytes = printer::RenderEscPos(doc, profile_);
  if (!bytes.ok()) {
    logging::Error("serve", "receipt not rendered", {{"sale", sale_id}, {"reason", bytes.status().message()}});
    return bytes.status();
  }
  auto job = print_jobs_.Enqueue(sale_id, kind, printer_target_, *bytes, printer::OpensDrawer(doc, profile_));
  if (!job.ok()) {
    logging::Error("serve", "receipt not queued", {{"sale", sale_id}, {"reason", job.status().message()}});
    return job.status();
  }
  return OkStatus();
}

StatusOr<checkout::Sale> ReceiptPrinter::Reprint(const std::string& sale_id) {
  const UnixMicros now = SystemClock::Instance().Now();
  const std::vector<std::string> today = sales_.book().IdsOfDay(StoreDay(now));
  if (std::find(today.begin(), today.end(), sale_id) == today.end())
    return NotFoundError("no sale " + sale_id + " of today (" + StoreDay(now) + ") on this box");
  sales_.EnsureCopy(sale_id);
  std::optional<checkout::Sale> sale = sales_.book().Copy(sale_id);
  if (!sale) return NotFoundError("no sale " + sale_id + " on this box");
  const CardTerms card = CardTermsFor(sale_id, *sale);
  const std::optional<checkout::Print> print = ReprintOf(*sale, card);
  if (!print)
    return FailedPreconditionError(std::string("the sale has no receipt to print again (it is ") +
                                   checkout::StateName(static_cast<int>(sale->state.index())) + ")");
  StoreIdentity store = store_;
  store.options.duplicate = true;
  store.options.drawer_kick = false;
  const std::optional<printer::Document> doc = ReceiptFor(*sale, *print, store, now, card);
  if (!doc) return FailedPreconditionError("the sale has no receipt to print again");
  BALCAO_RETURN_IF_ERROR(PrintReceipt(sale_id, std::string("reprint-") + checkout::Name(print->slip), *doc));
  logging::Info("serve", "receipt reprinted", {{"sale", sale_id}, {"slip", checkout::Name(print->slip)}});
  return *sale;
}

CardTerms ReceiptPrinter::CardTermsFor(const std::string& sale_id, const checkout::Sale& sale) {
  CardTerms terms = ReadCardTerms(journal_, sale_id);
  const checkout::Money* line = sale.payment_line();
  if (line == nullptr || line->ref.kind != checkout::EntityKind::kPurchase) return terms;
  return WithBankNetwork(std::move(terms), networks_.Of(line->ref.id));
}

std::vector<std::string> ReceiptPrinter::TextLines(const printer::Document& doc) const {
  std::vector<std::string> lines;
  std::istringstream in(printer::RenderText(doc, profile_, {.placeholders = true}));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace balcao::terminal::service
