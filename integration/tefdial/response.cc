#include "integration/tefdial/response.h"

#include <cctype>
#include <cstdio>

#include "common/time.h"

namespace balcao::integration::tefdial {
namespace {

constexpr int kColumns = 40;

std::string Money(Cents cents) {
  char text[32];
  std::snprintf(text, sizeof text, "R$ %lld,%02lld", static_cast<long long>(cents / 100),
                static_cast<long long>(cents % 100));
  return text;
}

// "LEFT ..... RIGHT" in 40 columns.
std::string Row(const std::string& left, const std::string& right) {
  const int gap = kColumns - static_cast<int>(left.size()) - static_cast<int>(right.size());
  if (gap < 1) return (left + " " + right).substr(0, kColumns);
  return left + std::string(static_cast<std::size_t>(gap), ' ') + right;
}

std::string Centered(const std::string& text) {
  if (static_cast<int>(text.size()) >= kColumns) return text.substr(0, kColumns);
  return std::string(static_cast<std::size_t>((kColumns - static_cast<int>(text.size())) / 2), ' ') + text;
}

void Echo(IntPos& out, const Request& request) {
  out.Set(field::kCommand, CommandName(request.command));
  out.Set(field::kId, request.id);
  if (!request.fiscal_document.empty()) out.Set(field::kFiscalDocument, request.fiscal_document);
}

std::string Kind(const Approval& approval) {
  if (approval.method == "pix") return "PIX";
  if (approval.funding == "debit") return "DEBITO A VISTA";
  return approval.installments > 1 ? "CREDITO PARCELADO LOJA" : "CREDITO A VISTA";
}

// The store's name, and its CNPJ when configured (no empty "CNPJ" line).
std::vector<std::string> Header(const Merchant& merchant) {
  std::vector<std::string> lines = {Centered(merchant.name.substr(0, kColumns))};
  if (!merchant.tax_id.empty()) lines.push_back(Centered("CNPJ " + merchant.tax_id));
  return lines;
}

std::string ReferenceLabel(const Approval& a) {
  if (a.method != "pix") return "ID COMPRA";
  const bool end_to_end = a.authorization.size() == 32 && a.authorization[0] == 'E';
  return end_to_end ? "ID PIX E2E" : "ID DEPOSITO";
}

// The fields of every answer that says a sale's money moved (a CRT approved, a CNC done): the
// request echoed, the amount in reais (currency 0), status 0, the network, the sale's NSU, the
// receipt's date and time (`at`) and the copies to print. (Fields are written in number order,
// whatever the order they are set in.)
IntPos MoneyMoved(const Request& request, const TefSale& sale, const Merchant& merchant, UnixMicros at) {
  IntPos out;
  Echo(out, request);
  out.Set(field::kAmount, std::to_string(sale.amount));
  out.Set(field::kCurrency, "0");
  out.Set(field::kStatus, "0");
  out.Set(field::kNetwork, merchant.network);
  out.Set(field::kNsu, sale.nsu);
  out.Set(field::kReceiptDate, ReceiptDate(at));
  out.Set(field::kReceiptTime, ReceiptTime(at));
  out.Set(field::kCopies, "3");
  return out;
}

}  // namespace

std::string ReceiptDate(UnixMicros at) {
  const std::string wall = FormatDate(SaoPauloWallClock(at));  // "YYYY-MM-DD"
  return wall.substr(8, 2) + wall.substr(5, 2) + wall.substr(0, 4);
}

std::string ReceiptTime(UnixMicros at) {
  const std::string wall = FormatTimestamp(SaoPauloWallClock(at));  // "YYYY-MM-DDTHH:MM:SS..."
  return wall.substr(11, 2) + wall.substr(14, 2) + wall.substr(17, 2);
}

std::string BrandOf(const Approval& approval) {
  if (approval.method == "pix") return "PIX";
  if (!approval.brand.empty()) {  // the bank's record of the purchase (its `network`)
    std::string brand = approval.brand;
    for (char& c : brand) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return brand;
  }
  const std::string& m = approval.card_mask;  // else the BIN table
  auto starts = [&](const char* prefix) { return m.rfind(prefix, 0) == 0; };
  // Elo and Hipercard first: some of their ranges sit inside Visa's and Mastercard's.
  for (const char* elo : {"401178", "401179", "431274", "438935", "451416", "457393", "457631", "457632", "504175",
                          "506699", "5067", "509", "627780", "636297", "636368", "650", "6516", "6550"})
    if (starts(elo)) return "ELO";
  for (const char* hiper : {"606282", "384100", "384140", "384160", "637095", "637568"})
    if (starts(hiper)) return "HIPERCARD";
  if (starts("34") || starts("37")) return "AMEX";
  if (starts("4")) return "VISA";
  if (m.size() >= 2 && ((m[0] == '5' && m[1] >= '1' && m[1] <= '5') || (m[0] == '2' && m[1] >= '2' && m[1] <= '7')))
    return "MASTERCARD";
  return "";
}

std::vector<std::string> SaleReceipt(const TefSale& sale, const Merchant& merchant, const std::string& copy) {
  const Approval& a = sale.approval;
  const std::string date = ReceiptDate(a.at), time = ReceiptTime(a.at);
  std::vector<std::string> lines = Header(merchant);
  lines.push_back(Centered(copy));
  lines.push_back(Row(Kind(a), BrandOf(a)));
  if (!a.card_mask.empty()) lines.push_back(Row("CARTAO", a.card_mask));
  lines.push_back(Row(date.substr(0, 2) + "/" + date.substr(2, 2) + "/" + date.substr(4) + " " + time.substr(0, 2) +
                          ":" + time.substr(2, 2) + ":" + time.substr(4),
                      "NSU " + sale.nsu));
  // What the bank's record gives, named as what it is: the card purchase's id (the record has
  // no authorization code), the Pix end-to-end id, else the deposit's id.
  lines.push_back(Row(ReferenceLabel(a), a.authorization.substr(0, 30)));
  if (!sale.fiscal_document.empty()) lines.push_back(Row("DOC FISCAL", sale.fiscal_document));
  if (a.installments > 1) lines.push_back(Row("PARCELAS", std::to_string(a.installments)));
  lines.push_back(Row("VALOR", Money(sale.amount)));
  lines.push_back(Centered("TRANSACAO APROVADA"));
  return lines;
}

IntPos CrtResponse(const Request& crt, const TefSale& sale, const Merchant& merchant) {
  if (sale.phase == Phase::kRunning || sale.phase == Phase::kDeclined)
    return Refusal(crt, sale.message.empty() ? "TRANSACAO NEGADA" : sale.message);
  const Approval& a = sale.approval;
  IntPos out = MoneyMoved(crt, sale, merchant, a.at);
  if (!merchant.institution_cnpj.empty()) out.Set(field::kNetworkTaxId, merchant.institution_cnpj);
  out.Set(field::kAuthorization, a.authorization);
  out.Set(field::kControl, sale.sale_id);
  out.Set(field::kCardBrand, BrandOf(a));
  out.Set(field::kConfirmation, "2");
  out.Set(field::kOperation, "1");
  if (a.method == "card") {
    const bool debit = a.funding == "debit";
    out.Set(field::kTransactionType, debit ? "20" : a.installments > 1 ? "11" : "10");
    out.Set(field::kCardType, debit ? "2" : "1");
    out.Set(field::kFinancing, a.installments > 1 ? "3" : "1");
    if (a.installments > 1) {
      out.Set(field::kInstallmentKind, "0");
      out.Set(field::kInstallments, std::to_string(a.installments));
    }
    if (!a.card_mask.empty()) out.Set(field::kMaskedCard, a.card_mask);
  } else {
    out.Set(field::kCardType, "0");
    out.Set(field::kFinancing, "1");
  }
  std::vector<std::string> both = SaleReceipt(sale, merchant, "VIA CLIENTE");
  const std::vector<std::string> merchant_copy = SaleReceipt(sale, merchant, "VIA ESTABELECIMENTO");
  const std::vector<std::string> customer_copy = both;
  both.insert(both.end(), {"", "", "", "", ""});  // PayGo leaves 5 lines between the copies
  both.insert(both.end(), merchant_copy.begin(), merchant_copy.end());
  out.SetLines(field::kReceiptLines, field::kReceiptLine, both);
  out.SetLines(field::kCustomerLines, field::kCustomerLine, customer_copy);
  out.SetLines(field::kMerchantLines, field::kMerchantLine, merchant_copy);
  out.Set(field::kOperatorMessage, "TRANSACAO APROVADA");
  return out;
}

IntPos Refusal(const Request& request, const std::string& message, const std::string& status) {
  IntPos out;
  Echo(out, request);
  if (request.amount > 0) {
    out.Set(field::kAmount, std::to_string(request.amount));
    out.Set(field::kCurrency, "0");
  }
  out.Set(field::kStatus, status);
  out.Set(field::kReceiptLines, "0");
  out.Set(field::kOperatorMessage, message.substr(0, kColumns));
  return out;
}

IntPos CncResponse(const Request& cnc, const TefSale& sale, const Merchant& merchant, UnixMicros at) {
  IntPos out = MoneyMoved(cnc, sale, merchant, at);
  out.Set({25, 0}, sale.nsu);  // the original NSU
  out.Set({26, 0}, ReceiptDate(sale.approval.at).substr(0, 4) + ReceiptTime(sale.approval.at));
  out.Set(field::kControl, sale.sale_id + "-cnc");
  out.Set(field::kOperation, "51");
  out.Set(field::kConfirmation, "1");
  std::vector<std::string> lines = Header(merchant);
  lines.insert(lines.end(), {Centered("CANCELAMENTO"), Row(BrandOf(sale.approval), "NSU " + sale.nsu),
                             Row("VALOR CANCELADO", Money(sale.amount))});
  out.SetLines(field::kReceiptLines, field::kReceiptLine, lines);
  out.Set(field::kOperatorMessage, "CANCELAMENTO APROVADO");
  return out;
}

IntPos AdmResponse(const Request& adm, const TefSale* last, const Merchant& merchant) {
  IntPos out;
  Echo(out, adm);
  out.Set(field::kStatus, "0");
  out.Set(field::kOperation, "49");
  out.Set(field::kConfirmation, "1");
  if (last == nullptr) {
    out.Set(field::kReceiptLines, "0");
    out.Set(field::kOperatorMessage, "NENHUM COMPROVANTE PARA REIMPRIMIR");
    return out;
  }
  std::vector<std::string> lines = SaleReceipt(*last, merchant, "REIMPRESSAO");
  out.Set(field::kNetwork, merchant.network);
  out.Set(field::kNsu, last->nsu);
  out.SetLines(field::kReceiptLines, field::kReceiptLine, lines);
  out.Set(field::kOperatorMessage, "REIMPRESSAO DO ULTIMO COMPROVANTE");
  return out;
}

}  // namespace balcao::integration::tefdial
