#include "terminal/internal/receipts.h"

namespace balcao::terminal {
namespace {

const checkout::Payment* PaymentOf(const checkout::Sale& sale) {
  if (const auto* paid = std::get_if<checkout::Paid>(&sale.state)) return &paid->payment;
  if (const auto* refunded = std::get_if<checkout::Refunded>(&sale.state)) return &refunded->payment;
  return nullptr;
}

}  // namespace

std::optional<printer::Document> ReceiptFor(const checkout::Sale& sale, const checkout::Print& print,
                                            const StoreIdentity& store, UnixMicros now, int installments) {
  const checkout::Payment* payment = PaymentOf(sale);
  switch (print.slip) {
    case checkout::Slip::kPixCode: {
      printer::PixCharge charge{store.merchant, now, print.amount, print.qr, 0, sale.id};
      if (const auto* pix = std::get_if<checkout::ShowingPix>(&sale.state)) charge.expires_at = pix->brcode.expires_at;
      return printer::PixChargeReceipt(charge, store.options);
    }
    case checkout::Slip::kInvoiceSlip: {
      printer::InvoiceSlip slip{store.merchant, now, print.reference, "", print.amount, "", "", print.qr, 200, 100};
      const checkout::InvoiceInfo* invoice = nullptr;
      if (const auto* shown = std::get_if<checkout::ShowingInvoice>(&sale.state)) invoice = &shown->invoice;
      if (const auto* later = std::get_if<checkout::PayLater>(&sale.state)) invoice = &later->invoice;
      if (invoice) {
        slip.link = invoice->link;
        slip.due_date = FormatDate(invoice->due);
      }
      return printer::InvoiceReceipt(slip, store.options);
    }
    case checkout::Slip::kProvisionalReceipt: {
      printer::OfflineSale provisional{store.merchant, now, print.amount, "invoice", print.reference};
      return printer::OfflineProvisionalReceipt(provisional, store.options);
    }
    case checkout::Slip::kRefundReceipt: {
      printer::Refund refund{store.merchant, now, print.amount};
      refund.method = payment ? checkout::Name(payment->method) : "pix";  // card, pix or invoice
      refund.reversal = true;
      refund.original_id = payment ? payment->kept.id : print.reference;
      refund.refund_id = print.reference;
      refund.card_number = print.card_mask;
      return printer::RefundReceipt(refund, store.options);
    }
    case checkout::Slip::kSaleReceipt: {
      if (payment && payment->method == checkout::Method::kCard) {
        printer::CardSale card{store.merchant,  now, print.amount, "credit", installments, "", print.card_mask,
                               print.reference, ""};
        return printer::CardSaleReceipt(card, printer::Copy::kCustomer, store.options);
      }
      printer::PixPaid paid{store.merchant, now, print.amount, print.reference, "", sale.id};
      return printer::PixPaidReceipt(paid, store.options);
    }
  }
  return std::nullopt;
}

}  // namespace balcao::terminal
