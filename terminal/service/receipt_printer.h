// The sales' receipts (docs/terminal.md, "Receipts"): each Print effect of a sale rendered for
// the printer's profile, its text kept in the sale's view, its ESC/POS bytes queued as a print
// job for the spooler; a cash register's sale prints what nexo.print says (the register prints
// the rest); any sale of today printed again as "2ª VIA". The card's brand is the network the
// bank recorded for the purchase, else the BIN table's.
// Owns: the printer's spooler (its own thread) and the purchases' networks. Calls: the sales (a
// sale, its copy), the journal (card terms), the print jobs, the bank (purchase networks).
// Thread-safety: the driver's thread, but for Start/Stop.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "checkout/checkout.h"
#include "common/status.h"
#include "offline/journal.h"
#include "offline/print_jobs.h"
#include "offline/spooler.h"
#include "printer/profile.h"
#include "printer/receipt.h"
#include "terminal/internal/receipts.h"
#include "terminal/service/config.h"
#include "terminal/service/purchase_networks.h"
#include "terminal/service/sales.h"

namespace balcao::terminal::service {

class ReceiptPrinter {
 public:
  // `store`: the merchant of the config on this box's terminal id (what the receipts name);
  // `printer_target`: where the print jobs go (printer/transport.h).
  ReceiptPrinter(SaleDesk& sales, offline::Journal& journal, offline::PrintJobs& print_jobs, const api::Bank& bank,
                 const printer::PrinterProfile& profile, StoreIdentity store, std::string printer_target,
                 std::string nexo_print);
  ReceiptPrinter(const ReceiptPrinter&) = delete;
  ReceiptPrinter& operator=(const ReceiptPrinter&) = delete;

  void Start() { spooler_->Start(); }
  void Stop() { spooler_->Stop(); }

  // A sale's Print effect; `register_sale`: a cash register's, which prints the receipts it
  // received (the box prints what nexo.print says).
  void OnPrint(const std::string& sale_id, const checkout::Print& print, bool register_sale, UnixMicros now);
  // Renders `doc`, keeps its text for the sale's view and queues its bytes for the printer.
  Status PrintReceipt(const std::string& sale_id, const std::string& kind, const printer::Document& doc);
  // Prints again what a sale of today printed last (sale, refund or invoice slip), marked
  // "2ª VIA". kNotFound for a sale not of today; kFailedPrecondition when it has nothing to print.
  StatusOr<checkout::Sale> Reprint(const std::string& sale_id);
  // The sale's card terms from its journal, with the network the bank recorded for its purchase
  // when it gave one; else the BIN table's, marked as such.
  CardTerms CardTermsFor(const std::string& sale_id, const checkout::Sale& sale);
  // `doc` as the text lines a cash register gets (placeholders for what the printer draws).
  std::vector<std::string> TextLines(const printer::Document& doc) const;
  const StoreIdentity& store() const { return store_; }

 private:
  SaleDesk& sales_;
  offline::Journal& journal_;
  offline::PrintJobs& print_jobs_;
  const printer::PrinterProfile& profile_;
  const StoreIdentity store_;
  const std::string printer_target_;
  const std::string nexo_print_;  // nexo.print: all, customer or none
  PurchaseNetworks networks_;
  std::unique_ptr<offline::Spooler> spooler_;
};

}  // namespace balcao::terminal::service
