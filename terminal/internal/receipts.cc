#include "terminal/internal/receipts.h"

#include <cctype>

#include "printer/format.h"

namespace balcao::terminal {
namespace {

const checkout::Payment* PaymentOf(const checkout::Sale& sale) {
  if (const auto* paid = std::get_if<checkout::Paid>(&sale.state)) return &paid->payment;
  if (const auto* refunded = std::get_if<checkout::Refunded>(&sale.state)) return &refunded->payment;
  if (const auto* reversing = std::get_if<checkout::Reversing>(&sale.state)) return &reversing->payment;
  return nullptr;
}

const checkout::InvoiceInfo* InvoiceOf(const checkout::Sale& sale) {
  if (const auto* shown = std::get_if<checkout::ShowingInvoice>(&sale.state)) return &shown->invoice;
  if (const auto* later = std::get_if<checkout::PayLater>(&sale.state)) return &later->invoice;
  return nullptr;
}

// The network as printed: the bank's as it is, the BIN table's said so.
std::string NetworkShown(const CardTerms& card, printer::Language language) {
  if (card.network.empty() || card.network_from_bank) return card.network;
  return card.network + (language == printer::Language::kPtBr ? " (pelo BIN)" : " (by BIN)");
}

printer::CardSale CardSaleOf(const checkout::Print& print, const StoreIdentity& store, UnixMicros now,
                             const CardTerms& card, const std::string& mask) {
  // The bank's purchase record has no authorization code (API documents, part 2, "Merchant
  // Purchase": its fields are not shown; the sandbox's carry none): the line is left out and
  // the purchase is named by its id.
  return printer::CardSale{store.merchant,
                           now,
                           print.amount,
                           checkout::Name(card.funding),
                           card.installments,
                           NetworkShown(card, store.options.language),
                           mask,
                           print.reference,
                           "",
                           card.keyed};
}

}  // namespace

CardTerms WithBankNetwork(CardTerms terms, const std::string& bank_network) {
  if (bank_network.empty()) return terms;
  terms.network.clear();
  for (char c : bank_network) terms.network += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  terms.network_from_bank = true;
  return terms;
}

CardTerms CardTermsOf(const std::vector<checkout::Event>& events) {
  CardTerms terms;
  auto take = [&terms](const auto& card) {
    terms.funding = card.funding;
    terms.installments = card.installments < 1 ? 1 : card.installments;
    terms.card_mask = card.card_mask;
    terms.network = printer::CardNetworkOfBin(card.card_mask);
  };
  for (const checkout::Event& event : events) {
    if (const auto* card = std::get_if<checkout::SubmitCard>(&event)) {
      take(*card);
      terms.keyed = true;
    }
    if (const auto* held = std::get_if<checkout::CardHeldOffline>(&event)) {  // sealed while offline: keyed too
      take(*held);
      terms.keyed = true;
    }
    // Paid on the customer's phone: the purchase says what was chosen there (the box saw no card).
    if (const auto* seen = std::get_if<checkout::PurchaseSeen>(&event);
        seen && seen->installments > 0 && !seen->card_mask.empty() && checkout::IsCharged(seen->status)) {
      terms.funding = seen->funding;
      terms.installments = seen->installments;
      if (terms.card_mask.empty()) terms.card_mask = seen->card_mask;
      if (terms.network.empty() && !seen->card_network.empty()) terms = WithBankNetwork(terms, seen->card_network);
    }
  }
  return terms;
}

std::optional<printer::Document> ReceiptFor(const checkout::Sale& sale, const checkout::Print& print,
                                            const StoreIdentity& store, UnixMicros now, const CardTerms& card) {
  const checkout::Payment* payment = PaymentOf(sale);
  const std::string mask = print.card_mask.empty() ? card.card_mask : print.card_mask;
  switch (print.slip) {
    case checkout::Slip::kPixCode: {
      printer::PixCharge charge{store.merchant, now, print.amount, print.qr, 0, sale.id};
      if (const auto* pix = std::get_if<checkout::ShowingPix>(&sale.state)) charge.expires_at = pix->brcode.expires_at;
      return printer::PixChargeReceipt(charge, store.options);
    }
    case checkout::Slip::kInvoiceSlip: {
      printer::InvoiceSlip slip{store.merchant, now, print.reference, "", print.amount, "", "", print.qr, 200, 100};
      if (const checkout::InvoiceInfo* invoice = InvoiceOf(sale)) {
        slip.link = invoice->link;
        slip.due_date = FormatDate(invoice->due);
      }
      return printer::InvoiceReceipt(slip, store.options);
    }
    case checkout::Slip::kProvisionalReceipt: {
      // A queued invoice, or a card sealed while offline (the print carries its mask).
      printer::OfflineSale provisional{store.merchant, now, print.amount, "invoice", print.reference};
      if (!print.card_mask.empty()) {
        provisional.method = checkout::Name(card.funding);
        provisional.card_number = print.card_mask;
        provisional.network = NetworkShown(card, store.options.language);
      }
      return printer::OfflineProvisionalReceipt(provisional, store.options);
    }
    case checkout::Slip::kRefundReceipt: {
      printer::Refund refund{store.merchant, now, print.amount};
      // The original method as the customer knows it: débito/crédito for a card.
      if (payment == nullptr) {
        refund.method = "pix";
      } else if (payment->method == checkout::Method::kCard) {
        refund.method = checkout::Name(card.funding);
        refund.network = NetworkShown(card, store.options.language);
        refund.card_number = mask;
      } else {
        refund.method = checkout::Name(payment->method);
      }
      refund.reversal = true;
      refund.original_id = payment ? payment->kept.id : print.reference;
      refund.refund_id = print.reference;
      return printer::RefundReceipt(refund, store.options);
    }
    case checkout::Slip::kSaleReceipt: {
      if (payment && payment->method == checkout::Method::kCard) {
        const printer::CardSale receipt = CardSaleOf(print, store, now, card, mask);
        if (store.merchant_copy) return printer::CardSaleReceipts(receipt, store.options);
        return printer::CardSaleReceipt(receipt, printer::Copy::kCustomer, store.options);
      }
      if (payment && payment->method == checkout::Method::kInvoice) {
        const printer::InvoicePaid paid{store.merchant, now, print.reference, print.amount, ""};
        return printer::InvoicePaidReceipt(paid, store.options);
      }
      // The bank's API gives a deposit no end-to-end id: the receipt prints the deposit's id, so labelled.
      printer::PixPaid paid{store.merchant, now, print.amount, "", "", sale.id, print.reference};
      return printer::PixPaidReceipt(paid, store.options);
    }
  }
  return std::nullopt;
}

RegisterCopies RegisterCopiesFor(const checkout::Sale& sale, const checkout::Print& print, const StoreIdentity& store,
                                 UnixMicros now, const CardTerms& card) {
  const checkout::Payment* payment = PaymentOf(sale);
  if (print.slip == checkout::Slip::kSaleReceipt && payment && payment->method == checkout::Method::kCard) {
    const printer::CardSale receipt =
        CardSaleOf(print, store, now, card, print.card_mask.empty() ? card.card_mask : print.card_mask);
    printer::ReceiptOptions customer = store.options;
    customer.drawer_kick = false;
    return {printer::CardSaleReceipt(receipt, printer::Copy::kMerchant, store.options),
            printer::CardSaleReceipt(receipt, printer::Copy::kCustomer, customer)};
  }
  std::optional<printer::Document> one = ReceiptFor(sale, print, store, now, card);
  return {one, one};
}

std::optional<checkout::Print> ReprintOf(const checkout::Sale& sale, const CardTerms& card) {
  const checkout::Money* line = sale.payment_line();
  if (const auto* paid = std::get_if<checkout::Paid>(&sale.state)) {
    const checkout::Cents amount = line ? line->received : sale.amount;
    const std::string mask = paid->payment.method == checkout::Method::kCard ? card.card_mask : "";
    return checkout::Print{checkout::Slip::kSaleReceipt, amount, paid->payment.kept.id, "", mask};
  }
  if (const auto* refunded = std::get_if<checkout::Refunded>(&sale.state)) {
    const checkout::Cents amount = line ? line->returned : sale.amount;
    return checkout::Print{checkout::Slip::kRefundReceipt, amount, refunded->payment.kept.id, "", ""};
  }
  if (const checkout::InvoiceInfo* invoice = InvoiceOf(sale))
    return checkout::Print{checkout::Slip::kInvoiceSlip, sale.amount, invoice->id, invoice->brcode, ""};
  if (const auto* held = std::get_if<checkout::CardHeld>(&sale.state))
    return checkout::Print{checkout::Slip::kProvisionalReceipt, sale.amount, sale.id, "", held->card_mask};
  return std::nullopt;
}

}  // namespace balcao::terminal
