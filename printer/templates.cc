#include "printer/templates.h"

#include <utility>

namespace balcao::printer {
namespace {

// One text in both languages; templates read as the receipt does.
struct Tr {
  const char* pt;
  const char* en;
  std::string in(Language l) const { return l == Language::kPtBr ? pt : en; }
};

class Builder {
 public:
  explicit Builder(const ReceiptOptions& o) : lang_(o.language), options_(o) {
    if (o.drawer_kick) doc_.DrawerKick();
  }
  std::string T(Tr tr) const { return tr.in(lang_); }
  std::string Money(std::int64_t cents) const { return FormatBrl(cents, lang_); }
  std::string When(UnixMicros t) const { return FormatLocalDateTime(t, lang_); }
  Language lang() const { return lang_; }
  Document& doc() { return doc_; }

  void Header(const Merchant& m) {
    doc_.Text(m.name, kLarge, Align::kCenter);
    if (!m.legal_name.empty()) doc_.Text(m.legal_name, {}, Align::kCenter);
    if (!m.cnpj.empty()) doc_.Text("CNPJ " + FormatCnpj(m.cnpj), {}, Align::kCenter);
    if (!m.address.empty()) doc_.Text(m.address, {}, Align::kCenter);
    if (!m.city.empty()) doc_.Text(m.city, {}, Align::kCenter);
    doc_.Rule();
    if (options_.duplicate) doc_.Text(T({"2ª VIA", "DUPLICATE"}), kTall, Align::kCenter);
  }
  void Title(const std::string& title) { doc_.Text(title, kBold, Align::kCenter).Feed(); }
  void Field(Tr label, const std::string& value) {
    if (!value.empty()) doc_.Columns(T(label), value);
  }
  void Total(Tr label, std::int64_t cents) {
    doc_.Rule().Columns(Span{T(label), kTall}, Span{Money(cents), kTall}).Rule();
  }
  void Note(const std::string& text) { doc_.Text(text, {}, Align::kCenter); }
  void Terminal(const Merchant& m, UnixMicros at) {
    Field({"Terminal", "Terminal"}, m.terminal_id);
    Field({"Data/hora", "Date/time"}, When(at));
  }
  // Ends one slip: a feed and, when asked, a cut.
  Document Finish() {
    doc_.Feed();
    if (options_.cut) doc_.Cut();
    return std::move(doc_);
  }

 private:
  Language lang_;
  ReceiptOptions options_;
  Document doc_;
};

std::string MethodName(const std::string& method, Language l) {
  static const std::pair<const char*, Tr> kNames[] = {
      {"credit", {"Crédito", "Credit"}},  {"debit", {"Débito", "Debit"}}, {"pix", {"Pix", "Pix"}},
      {"invoice", {"Fatura", "Invoice"}}, {"card", {"Cartão", "Card"}},   {"cash", {"Dinheiro", "Cash"}}};
  for (const auto& [key, tr] : kNames) {
    if (method == key) return tr.in(l);
  }
  return method;
}

// "3x R$ 33,33" or, when the split is uneven, "1x R$ 33,34 + 2x R$ 33,33".
std::string Installments(const Builder& b, std::int64_t amount, int n) {
  const std::int64_t each = amount / n;
  const std::int64_t first = amount - each * (n - 1);
  if (first == each) return std::to_string(n) + "x " + b.Money(each);
  return "1x " + b.Money(first) + " + " + std::to_string(n - 1) + "x " + b.Money(each);
}

std::string DueDate(const std::string& iso, Language l) {
  // "YYYY-MM-DD" -> "DD/MM/YYYY" (pt-BR) or "MM/DD/YYYY"; anything else verbatim.
  if (iso.size() != 10 || iso[4] != '-' || iso[7] != '-') return iso;
  const std::string y = iso.substr(0, 4), m = iso.substr(5, 2), d = iso.substr(8, 2);
  return l == Language::kPtBr ? d + "/" + m + "/" + y : m + "/" + d + "/" + y;
}

void CardLines(Builder& b, const std::string& network, const std::string& card_number) {
  b.Field({"Bandeira", "Network"}, network);
  const MaskedPan pan = MaskPan(card_number);
  b.Field({"Cartão", "Card"}, pan.str());
}

void CopyAndPaste(Builder& b, const std::string& br_code) {
  b.doc().Text(b.T({"Pix Copia e Cola:", "Pix copy and paste:"}), kBold).Code(br_code);
}

// The night's money out: the payout to the merchant's account and the card receivables.
void PayoutLines(Builder& b, const DaySummary& s) {
  if (!s.payout_status.empty() && s.payout_status != "off") {
    b.doc().Rule();
    const std::string label = b.T({"Repasse à conta", "Payout to the account"});
    if (s.payout_status == "sent" || s.payout_status == "found") {
      b.doc().Columns(label, b.Money(s.payout_cents));
    } else if (s.payout_status == "withheld") {
      b.doc().Columns(label, b.T({"RETIDO", "WITHHELD"}));
      b.Note(b.T({"O dia não fechou: nada foi repassado", "The day does not reconcile: nothing was paid out"}));
      for (const std::string& why : s.withheld_for) b.Note(why);
    } else if (s.payout_status == "dry-run") {
      b.doc().Columns(label + b.T({" (simulação)", " (dry run)"}), b.Money(s.payout_cents));
    } else {
      b.doc().Columns(label, b.Money(0));
    }
  }
  if (!s.receivables.empty()) {
    b.doc().Rule().Text(b.T({"Cartões a receber", "Card receivables"}), kBold);
    for (const auto& [due, cents] : s.receivables) b.doc().Columns(DueDate(due, b.lang()), b.Money(cents));
  }
}

}  // namespace

Document CardSaleReceipt(const CardSale& s, Copy copy, const ReceiptOptions& options) {
  Builder b(options);
  b.Header(s.merchant);
  b.Title(copy == Copy::kMerchant ? b.T({"VIA DO ESTABELECIMENTO", "MERCHANT COPY"})
                                  : b.T({"VIA DO CLIENTE", "CUSTOMER COPY"}));
  std::string kind;
  if (s.funding == "debit") {
    kind = b.T({"DÉBITO", "DEBIT"});
  } else if (s.installments > 1) {
    kind = b.T({"CRÉDITO PARCELADO", "CREDIT IN INSTALLMENTS"});
  } else {
    kind = b.T({"CRÉDITO À VISTA", "CREDIT"});
  }
  b.doc().Text(kind, kBold, Align::kCenter);
  if (s.keyed) b.doc().Text(b.T({"CARTÃO DIGITADO", "KEYED CARD"}), kBold, Align::kCenter);
  b.Terminal(s.merchant, s.at);
  CardLines(b, s.network, s.card_number);
  if (s.installments > 1) b.Field({"Parcelas", "Installments"}, Installments(b, s.amount_cents, s.installments));
  b.Field({"Autorização", "Authorization"}, s.authorization_code);
  b.Field({"Compra", "Purchase"}, s.purchase_id);
  b.Total({"VALOR", "AMOUNT"}, s.amount_cents);
  if (copy == Copy::kMerchant) {
    b.Note(b.T({"Transação autorizada", "Transaction approved"}));
  } else {
    b.Note(b.T({"Guarde este comprovante", "Keep this receipt"}));
  }
  return b.Finish();
}

Document CardSaleReceipts(const CardSale& sale, const ReceiptOptions& options) {
  ReceiptOptions second = options;
  second.drawer_kick = false;
  Document d = CardSaleReceipt(sale, Copy::kMerchant, options);
  d.Append(CardSaleReceipt(sale, Copy::kCustomer, second));
  return d;
}

Document PixChargeReceipt(const PixCharge& c, const ReceiptOptions& options) {
  Builder b(options);
  b.Header(c.merchant);
  b.Title(b.T({"PAGUE COM PIX", "PAY WITH PIX"}));
  b.Terminal(c.merchant, c.at);
  b.Total({"VALOR", "AMOUNT"}, c.amount_cents);
  b.Note(b.T({"Escaneie o QR Code no app do seu banco", "Scan the QR code in your bank app"}));
  b.doc().Qr(c.br_code);
  if (c.expires_at != 0) b.Note(b.T({"Válido até ", "Valid until "}) + b.When(c.expires_at));
  b.Field({"Identificador", "Reference"}, c.txid);
  CopyAndPaste(b, c.br_code);
  return b.Finish();
}

Document PixPaidReceipt(const PixPaid& p, const ReceiptOptions& options) {
  Builder b(options);
  b.Header(p.merchant);
  b.Title(b.T({"PIX RECEBIDO", "PIX RECEIVED"}));
  b.Terminal(p.merchant, p.at);
  b.Field({"Pagador", "Payer"}, p.payer_name);
  b.Field({"Identificador", "Reference"}, p.txid);
  b.Field({"ID da transação", "End-to-end ID"}, p.end_to_end_id);
  b.Field({"Depósito", "Deposit"}, p.deposit_id);
  b.Total({"VALOR", "AMOUNT"}, p.amount_cents);
  b.Note(b.T({"Pagamento confirmado", "Payment confirmed"}));
  return b.Finish();
}

Document InvoiceReceipt(const InvoiceSlip& inv, const ReceiptOptions& options) {
  Builder b(options);
  b.Header(inv.merchant);
  b.Title(b.T({"FATURA", "INVOICE"}));
  b.Field({"Fatura", "Invoice"}, inv.invoice_id);
  b.Field({"Cliente", "Customer"}, inv.customer_name);
  b.Field({"Emissão", "Issued"}, b.When(inv.at));
  b.Field({"Vencimento", "Due date"}, DueDate(inv.due_date, b.lang()));
  b.Total({"VALOR", "AMOUNT"}, inv.amount_cents);
  if (inv.fine_bp > 0) {
    b.Field({"Multa após vencimento", "Fine after due date"}, FormatPercent(inv.fine_bp, b.lang()));
  }
  if (inv.interest_bp > 0) {
    b.Field({"Juros ao mês", "Interest per month"}, FormatPercent(inv.interest_bp, b.lang()));
  }
  if (!inv.br_code.empty()) {
    b.doc().Feed();
    b.Note(b.T({"Pague com Pix", "Pay with Pix"}));
    b.doc().Qr(inv.br_code);
  }
  if (!inv.link.empty()) b.doc().Text(b.T({"Pague online:", "Pay online:"}), kBold).Text(inv.link);
  if (!inv.br_code.empty()) CopyAndPaste(b, inv.br_code);
  return b.Finish();
}

Document InvoicePaidReceipt(const InvoicePaid& p, const ReceiptOptions& options) {
  Builder b(options);
  b.Header(p.merchant);
  b.Title(b.T({"FATURA PAGA", "INVOICE PAID"}));
  b.Terminal(p.merchant, p.at);
  b.Field({"Fatura", "Invoice"}, p.invoice_id);
  b.Field({"Cliente", "Customer"}, p.customer_name);
  b.Total({"VALOR PAGO", "AMOUNT PAID"}, p.amount_cents);
  b.Note(b.T({"Pagamento confirmado", "Payment confirmed"}));
  return b.Finish();
}

Document RefundReceipt(const Refund& r, const ReceiptOptions& options) {
  Builder b(options);
  b.Header(r.merchant);
  b.Title(r.reversal ? b.T({"ESTORNO", "REVERSAL"}) : b.T({"DEVOLUÇÃO", "REFUND"}));
  b.Terminal(r.merchant, r.at);
  b.Field({"Forma", "Method"}, MethodName(r.method, b.lang()));
  CardLines(b, r.network, r.card_number);
  b.Field({"Pagamento original", "Original payment"}, r.original_id);
  if (r.refund_id != r.original_id) b.Field({"Devolução", "Refund"}, r.refund_id);
  b.Field({"Motivo", "Reason"}, r.reason);
  b.Total({"VALOR DEVOLVIDO", "AMOUNT REFUNDED"}, r.amount_cents);
  b.Note(b.T({"O crédito pode levar alguns dias", "The credit may take a few days"}));
  return b.Finish();
}

Document OfflineProvisionalReceipt(const OfflineSale& s, const ReceiptOptions& options) {
  Builder b(options);
  b.Header(s.merchant);
  b.Title(b.T({"COMPROVANTE PROVISÓRIO", "PROVISIONAL RECEIPT"}));
  b.doc().Text(b.T({"PAGAMENTO PENDENTE", "PAYMENT PENDING"}), kLarge, Align::kCenter);
  b.doc().Text(
      b.T({"Sem conexão com o banco. Esta venda será enviada assim que a conexão voltar; "
           "não é comprovante de pagamento aprovado.",
           "No connection to the bank. This sale will be sent as soon as the connection is back; "
           "it is not proof of an approved payment."}));
  b.Terminal(s.merchant, s.at);
  b.Field({"Forma", "Method"}, MethodName(s.method, b.lang()));
  CardLines(b, s.network, s.card_number);
  b.Field({"Venda", "Sale"}, s.sale_id);
  b.Total({"VALOR", "AMOUNT"}, s.amount_cents);
  if (!s.sale_id.empty()) b.doc().Barcode(s.sale_id);
  return b.Finish();
}

Document ForwardedDeclineNotice(const ForwardedDecline& d, const ReceiptOptions& options) {
  Builder b(options);
  b.Header(d.merchant);
  b.Title(b.T({"VENDA NÃO AUTORIZADA", "SALE NOT AUTHORIZED"}));
  b.doc().Text(d.declined_locally ? b.T({"Recusada no terminal depois que o cliente saiu: cobrar de outra forma.",
                                         "Declined by the terminal after the customer left: collect another way."})
                                  : b.T({"Recusada pelo banco depois que o cliente saiu: cobrar de outra forma.",
                                         "Declined by the bank after the customer left: collect another way."}));
  b.Terminal(d.merchant, d.at);
  CardLines(b, d.network, d.card_number);
  b.Field({"Venda", "Sale"}, d.sale_id);
  if (!d.reason.empty()) b.Field({"Motivo", "Reason"}, d.reason);
  b.Total({"NÃO RECEBIDO", "NOT RECEIVED"}, d.amount_cents);
  if (!d.sale_id.empty()) b.doc().Barcode(d.sale_id);
  return b.Finish();
}

Document DaySummaryReceipt(const DaySummary& s, const ReceiptOptions& options) {
  Builder b(options);
  b.Header(s.merchant);
  b.Title(b.T({"FECHAMENTO DO DIA", "END OF DAY SUMMARY"}));
  b.Field({"Dia", "Day"}, DueDate(s.business_day, b.lang()));
  b.Terminal(s.merchant, s.at);
  b.doc().Rule();
  std::int64_t total = 0;
  int count = 0;
  for (const MethodTotal& t : s.totals) {
    b.doc().Columns(MethodName(t.method, b.lang()) + " (" + std::to_string(t.count) + ")", b.Money(t.amount_cents));
    total += t.amount_cents;
    count += t.count;
  }
  b.doc().Rule().Columns(b.T({"Total", "Total"}) + " (" + std::to_string(count) + ")", b.Money(total), kBold);
  if (s.refund_count > 0 || s.refunds_cents != 0) {
    b.doc().Columns(b.T({"Devoluções", "Refunds"}) + " (" + std::to_string(s.refund_count) + ")",
                    b.Money(-s.refunds_cents));
  }
  b.Total({"LÍQUIDO", "NET"}, total - s.refunds_cents);
  if (s.checked) {
    b.doc().Rule();
    b.doc().Columns(b.T({"No banco", "At the bank"}), b.Money(s.bank_cents));
    b.doc().Columns(b.T({"No diário do caixa", "In the till's journal"}), b.Money(s.journal_cents));
    b.doc().Columns(b.T({"Diferença", "Difference"}), b.Money(s.bank_cents - s.journal_cents), kBold);
    b.Note(s.to_look_at == 0 ? b.T({"Nada a verificar", "Nothing to look at"})
                             : std::to_string(s.to_look_at) +
                                   b.T({" item(ns) a verificar no relatório", " item(s) to look at in the report"}));
  }
  if (s.late_returned_count > 0) {
    b.doc().Columns(
        b.T({"Devolvido a pagadores", "Given back to payers"}) + " (" + std::to_string(s.late_returned_count) + ")",
        b.Money(s.late_returned_cents));
    b.Note(b.T({"Pagamentos tardios devolvidos: fora do total", "Late payments given back: not in the totals"}));
  }
  if (s.pending_offline > 0) {
    b.Note(std::to_string(s.pending_offline) +
           b.T({" venda(s) pendente(s) de envio ao banco", " sale(s) still to be sent to the bank"}));
  }
  PayoutLines(b, s);
  return b.Finish();
}

Document QrSlipReceipt(const QrSlip& slip, const ReceiptOptions& options) {
  Builder b(options);
  if (!slip.title.empty()) b.Title(slip.title);
  if (slip.at != 0) b.Note(b.When(slip.at));
  b.doc().Qr(slip.data);
  if (!slip.caption.empty()) b.Note(slip.caption);
  return b.Finish();
}

Document TestPage(const std::string& profile_name, const std::string& code_table_name, const ReceiptOptions& options) {
  Builder b(options);
  b.Title(b.T({"TESTE DE IMPRESSORA", "PRINTER TEST"}));
  b.Field({"Perfil", "Profile"}, profile_name);
  b.Field({"Tabela", "Code table"}, code_table_name);
  b.doc().Rule();
  b.doc().Text("áàâãéêíóôõúüç ÁÀÂÃÉÊÍÓÔÕÚÜÇ ªº°");
  b.doc().Text("Ação, coração, órgão, pão, São João");
  b.doc().Rule();
  b.doc().Text(b.T({"Negrito", "Bold"}), kBold);
  b.doc().Text(b.T({"Sublinhado", "Underline"}), TextStyle{.underline = true});
  b.doc().Text(b.T({"Invertido", "Inverted"}), TextStyle{.invert = true});
  b.doc().Text(b.T({"Alto", "Tall"}), kTall);
  b.doc().Text(b.T({"Grande", "Large"}), kLarge);
  b.doc().Text(b.T({"Direita", "Right"}), {}, Align::kRight);
  b.doc().Columns(b.T({"Coluna", "Column"}), FormatBrl(123456, b.lang()));
  b.doc().Rule(true);
  b.doc().Qr("https://balcao.example/teste");
  b.doc().Barcode("BALCAO-TESTE");
  return b.Finish();
}

}  // namespace balcao::printer
