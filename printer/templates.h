// Receipt templates: the standard Brazilian layouts (card sale copies, Pix charge and
// paid, invoice and invoice paid, refund/reversal, offline provisional receipt, store-and-forward decline
// notice, end-of-day summary, QR slip)
// built as Documents from plain data. Pure: no I/O, no clock (times come in the data).
// Never printed: security code, expiry, full card number (MaskPan keeps at most 6+4), and
// the layout masks any Luhn-valid 13-19 digit run that reaches a text field by mistake.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/time.h"
#include "printer/format.h"
#include "printer/receipt.h"

namespace balcao::printer {

struct Merchant {
  std::string name;         // trade name, printed large
  std::string legal_name;   // razão social (optional)
  std::string cnpj;         // 14 characters, formatted on print
  std::string address;      // street, number
  std::string city;         // "São Paulo - SP"
  std::string terminal_id;  // POS/terminal identifier
};

struct ReceiptOptions {
  Language language = Language::kPtBr;
  bool cut = true;           // end with a cut
  bool drawer_kick = false;  // open the cash drawer before printing
  bool duplicate = false;    // a reprint: marked "2ª VIA" under the header
};

enum class Copy { kMerchant, kCustomer };

struct CardSale {
  Merchant merchant;
  UnixMicros at = 0;
  std::int64_t amount_cents = 0;
  std::string funding;  // "credit" or "debit"
  int installments = 1;
  std::string network;      // "VISA", "MASTERCARD", "ELO"...
  std::string card_number;  // anything: masked to 6+4 at most before printing
  std::string purchase_id;
  std::string authorization_code;  // may be empty
  // Typed on the touchscreen (the exception, card.keyed_entry) rather than on the customer's
  // own phone: the receipt says "DIGITADO".
  bool keyed = false;
};
// One copy.
Document CardSaleReceipt(const CardSale& sale, Copy copy, const ReceiptOptions& options = {});
// Merchant copy, cut, customer copy (each ends with a cut when options.cut).
Document CardSaleReceipts(const CardSale& sale, const ReceiptOptions& options = {});

struct PixCharge {
  Merchant merchant;
  UnixMicros at = 0;
  std::int64_t amount_cents = 0;
  std::string br_code;  // the "copia e cola" payload, printed as QR and as text
  UnixMicros expires_at = 0;
  std::string txid;
};
Document PixChargeReceipt(const PixCharge& charge, const ReceiptOptions& options = {});

struct PixPaid {
  Merchant merchant;
  UnixMicros at = 0;
  std::int64_t amount_cents = 0;
  std::string end_to_end_id;
  std::string payer_name;  // optional
  std::string txid;        // optional
  std::string deposit_id;  // optional: the bank's deposit that paid it (printed as such)
};
Document PixPaidReceipt(const PixPaid& paid, const ReceiptOptions& options = {});

struct InvoiceSlip {
  Merchant merchant;
  UnixMicros at = 0;
  std::string invoice_id;
  std::string customer_name;
  std::int64_t amount_cents = 0;
  std::string due_date;          // "YYYY-MM-DD"
  std::string link;              // URL to pay online
  std::string br_code;           // Pix "copia e cola" of the invoice
  std::int64_t fine_bp = 0;      // fine after due date, basis points of the amount (200 = 2%)
  std::int64_t interest_bp = 0;  // interest per month after due date, basis points
};
Document InvoiceReceipt(const InvoiceSlip& invoice, const ReceiptOptions& options = {});

// A paid invoice: what the customer gets once the bank says the invoice was paid (the
// amount may include the fine and interest of a late payment).
struct InvoicePaid {
  Merchant merchant;
  UnixMicros at = 0;
  std::string invoice_id;
  std::int64_t amount_cents = 0;
  std::string customer_name;  // optional
};
Document InvoicePaidReceipt(const InvoicePaid& paid, const ReceiptOptions& options = {});

struct Refund {
  Merchant merchant;
  UnixMicros at = 0;
  std::int64_t amount_cents = 0;
  std::string method;       // the original method: "credit", "debit", "card", "pix" or "invoice"
  bool reversal = false;    // same-day reversal (estorno) rather than refund (devolução)
  std::string original_id;  // purchase id or end-to-end id of the original payment
  // The refund's own id at the bank; printed only when it is another entity's (the bank gives
  // money back by lowering the payment itself: the same id, said once).
  std::string refund_id;
  std::string card_number;  // optional; masked
  std::string network;      // optional
  std::string reason;       // optional
};
Document RefundReceipt(const Refund& refund, const ReceiptOptions& options = {});

struct OfflineSale {
  Merchant merchant;
  UnixMicros at = 0;
  std::int64_t amount_cents = 0;
  std::string method;       // "card" or "pix"
  std::string sale_id;      // local id, also printed as a CODE128 barcode
  std::string card_number;  // optional; masked
  std::string network;      // optional
};
Document OfflineProvisionalReceipt(const OfflineSale& sale, const ReceiptOptions& options = {});

// A store-and-forward card sale the bank declined (or that was declined locally, e.g. too
// old) after the customer left with a provisional receipt: the merchant must collect
// the amount another way. Printed for the merchant when the outcome is reported.
struct ForwardedDecline {
  Merchant merchant;
  UnixMicros at = 0;  // when the decision was known
  std::int64_t amount_cents = 0;
  std::string sale_id;
  std::string card_number;  // anything: masked to 6+4 at most
  std::string network;      // optional
  std::string reason;       // the bank's code or the local rule
  bool declined_locally = false;
};
Document ForwardedDeclineNotice(const ForwardedDecline& decline, const ReceiptOptions& options = {});

struct MethodTotal {
  std::string method;  // "credit", "debit", "pix", "invoice", ...
  int count = 0;
  std::int64_t amount_cents = 0;
};
struct DaySummary {
  Merchant merchant;
  UnixMicros at = 0;         // when printed
  std::string business_day;  // "YYYY-MM-DD"
  std::vector<MethodTotal> totals;
  int refund_count = 0;
  std::int64_t refunds_cents = 0;
  int pending_offline = 0;  // sales still waiting to reach the bank
  // Money received after a sale moved on and given back to the payer this day: not revenue,
  // so printed beside the totals, not in them.
  int late_returned_count = 0;
  std::int64_t late_returned_cents = 0;
  // The night's payout to the merchant's account: "sent", "found" (sent by an earlier run),
  // "withheld" (the day does not reconcile), "nothing", "dry-run"; "" or "off" prints nothing.
  std::string payout_status;
  std::int64_t payout_cents = 0;
  // The card receivables of the day: net cents by due date ("YYYY-MM-DD"), earliest first.
  std::vector<std::pair<std::string, std::int64_t>> receivables;
  // The settlement's one line (settlement::Difference): what the bank holds against what the
  // journal collected, and the items the operator must look at. Printed when `checked`.
  bool checked = false;
  std::int64_t bank_cents = 0;
  std::int64_t journal_cents = 0;
  int to_look_at = 0;
  // Why the payout was withheld, one line per lane ("lane caixa-3: ..."); printed under it.
  std::vector<std::string> withheld_for;
};
Document DaySummaryReceipt(const DaySummary& summary, const ReceiptOptions& options = {});

// A titled QR (3-D Secure challenge link, payment link, `balcao print qr`).
struct QrSlip {
  std::string title;
  std::string data;
  std::string caption;  // optional, printed below
  UnixMicros at = 0;    // optional (0 = no date line)
};
Document QrSlipReceipt(const QrSlip& slip, const ReceiptOptions& options = {});

// A printer test page: code table self-test for Portuguese, styles, a QR.
Document TestPage(const std::string& profile_name, const std::string& code_table_name,
                  const ReceiptOptions& options = {});

}  // namespace balcao::printer
