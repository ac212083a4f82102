// Card sales while the bank is unreachable (docs/terminal.md, "Offline card sales"): opt-in per
// store (`offline_cards.enabled`). The card is sealed in the store-and-forward
// (offline/sealed_cards.h) before the sale is told (CardHeldOffline); once the bank answers
// again, the sealed cards are forwarded and their outcomes fed to their sales (CardForwarded):
// paid with its receipt, or voided with a flag and a printed decline notice.
// Owns: the sealed cards, the authorizer that forwards them, when they are looked at next.
// Calls: the sales, the journal (card terms), the receipts (the decline notice), the bank
// (through the gateway), whether it can be reached.
// Thread-safety: the driver's thread.
#pragma once

#include <memory>
#include <string>

#include "checkout/checkout.h"
#include "common/status.h"
#include "offline/card_forwarder.h"
#include "offline/journal.h"
#include "offline/sealed_cards.h"
#include "terminal/service/bank_reach.h"
#include "terminal/service/receipt_printer.h"
#include "terminal/service/sales.h"

namespace balcao::terminal::service {

class OfflineCards {
 public:
  // nullptr when `config.offline_cards` is not enabled. Makes the key-encryption key file once
  // (never inside the data dir `data_dir`: a copy of the data dir alone must open no card).
  static StatusOr<std::unique_ptr<OfflineCards>> Open(const ServeConfig& config, const std::string& data_dir,
                                                      offline::Store& store, BankReach& reach, SaleDesk& sales,
                                                      offline::Journal& journal, ReceiptPrinter& receipts);
  OfflineCards(const OfflineCards&) = delete;
  OfflineCards& operator=(const OfflineCards&) = delete;

  offline::SealedCards& sealed() { return *sealed_; }
  // Whether a card for this sale is taken offline now: the bank is unreachable and the sale is
  // at the method choice.
  bool TakesCardsOffline(const std::string& sale_id) const;
  // Seals the card (within the store-and-forward's caps: kOutOfRange naming the limit; a full disk
  // is kResourceExhausted) and tells the sale (CardHeldOffline); the caller wipes `card`. The
  // sale's tags and the customer's details and device (`browser`) are sealed with it, for its forward.
  StatusOr<checkout::Sale> HoldCardOffline(const std::string& sale_id, checkout::CardData& card,
                                           const checkout::BrowserData& browser, checkout::FundingType funding,
                                           int installments);
  // Every few seconds: forwards the sealed cards (while online) and feeds their outcomes.
  void ForwardHeldCards();
  // The next ForwardHeldCards looks at once (a supervisor acted on the queue).
  void ForwardSoon() { next_forward_ = 0; }

 private:
  OfflineCards(const ServeConfig& config, BankReach& reach, SaleDesk& sales, offline::Journal& journal,
               ReceiptPrinter& receipts)
      : config_(config), reach_(reach), sales_(sales), journal_(journal), receipts_(receipts) {}

  const ServeConfig& config_;
  BankReach& reach_;
  SaleDesk& sales_;
  offline::Journal& journal_;
  ReceiptPrinter& receipts_;
  std::unique_ptr<offline::SealedCards> sealed_;
  std::unique_ptr<offline::BankCardAuthorizer> authorizer_;
  UnixMicros next_forward_ = 0;
};

}  // namespace balcao::terminal::service
