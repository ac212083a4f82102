// Wiring between the checkout and the printer: turns a sale's Print effect into the
// receipt document the customer or the merchant gets, and a sale of the day into its
// reprint ("2ª VIA"). Card data never reaches here: the sale only carries the 6+4 mask the
// checkout kept, and the card's terms come from the sale's journal (CardTermsOf).
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "checkout/checkout.h"
#include "common/time.h"
#include "printer/receipt.h"
#include "printer/templates.h"

namespace balcao::terminal {

struct StoreIdentity {
  printer::Merchant merchant;
  printer::ReceiptOptions options;
  // Card sales: the merchant's copy (VIA DO ESTABELECIMENTO) before the customer's; false
  // prints the customer's copy only (`receipt.card_copies` "customer").
  bool merchant_copy = true;
};

// What the customer chose at the card reader for the sale's last card attempt.
struct CardTerms {
  checkout::FundingType funding = checkout::FundingType::kCredit;
  int installments = 1;
  std::string card_mask;  // first 6 + last 4 at most
  // "VISA"...: the purchase's own `network` at the bank when known (network_from_bank), else
  // from the BIN of the mask (printed as such: "VISA (pelo BIN)"); "" when neither names one.
  std::string network;
  bool network_from_bank = false;
  bool keyed = false;  // typed on the touchscreen (SubmitCard), not on the customer's phone
};
// `terms` with the network the bank recorded for the purchase, when it gave one ("visa" -> "VISA").
CardTerms WithBankNetwork(CardTerms terms, const std::string& bank_network);
// From the sale's journaled events (the last SubmitCard); the defaults when it has none.
CardTerms CardTermsOf(const std::vector<checkout::Event>& events);

// The document for `print` in `sale` at time `now`; nullopt for slips with nothing to show.
// Card slips take funding, installments and network from `card`, and the mask from the
// print (else from `card`).
std::optional<printer::Document> ReceiptFor(const checkout::Sale& sale, const checkout::Print& print,
                                            const StoreIdentity& store, UnixMicros now, const CardTerms& card = {});

// What a cash register gets for a receipt: the merchant's copy (nexo CashierReceipt) and the
// customer's (CustomerReceipt), each whole and alone. A card sale's copies are VIA DO
// ESTABELECIMENTO and VIA DO CLIENTE; a slip with one copy (Pix, invoice, refund) is both.
struct RegisterCopies {
  std::optional<printer::Document> merchant;
  std::optional<printer::Document> customer;
};
RegisterCopies RegisterCopiesFor(const checkout::Sale& sale, const checkout::Print& print, const StoreIdentity& store,
                                 UnixMicros now, const CardTerms& card = {});

// What a reprint of the sale prints: the sale receipt of a paid sale, the refund receipt of a
// refunded one, the invoice slip of an invoice still open; nullopt when the sale printed
// nothing that can be printed again (canceled, still being paid).
std::optional<checkout::Print> ReprintOf(const checkout::Sale& sale, const CardTerms& card);

}  // namespace balcao::terminal
