#include "settlement/words.h"

#include <map>

#include "common/money.h"

namespace balcao::settlement {

StatusOr<Lang> ParseLang(std::string_view name) {
  if (name == "pt-BR") return Lang::kPtBr;
  if (name == "en-US") return Lang::kEnUs;
  return InvalidArgumentError("language: pt-BR or en-US, got '" + std::string(name) + "'");
}

const char* LangName(Lang lang) { return lang == Lang::kPtBr ? "pt-BR" : "en-US"; }

std::string ClassWords(SaleClass cls, Lang lang) {
  switch (cls) {
    case SaleClass::kMatched:
      return Say(lang, "conferida", "matched");
    case SaleClass::kRefunded:
      return Say(lang, "devolvida", "refunded");
    case SaleClass::kVoided:
      return Say(lang, "sem cobrança", "not charged");
    case SaleClass::kPayLaterClosed:
      return Say(lang, "fatura quitada", "invoice settled");
    case SaleClass::kPayLaterOpen:
      return Say(lang, "fatura em aberto", "invoice open");
    case SaleClass::kPayLaterOverdue:
      return Say(lang, "fatura vencida", "invoice overdue");
    case SaleClass::kLateMoney:
      return Say(lang, "pagamento a devolver", "payment to give back");
    case SaleClass::kUnfinished:
      return Say(lang, "não concluída", "unfinished");
    case SaleClass::kDiscrepancy:
      return Say(lang, "divergência", "discrepancy");
  }
  return "";
}

std::string MethodWords(std::string_view method, Lang lang) {
  if (method == "credit") return Say(lang, "crédito", "credit");
  if (method == "debit") return Say(lang, "débito", "debit");
  if (method == "pix") return "Pix";
  if (method == "invoice") return Say(lang, "fatura", "invoice");
  if (method == "total") return "total";
  return method.empty() ? "-" : std::string(method);
}

std::string KindWords(BankKind kind, Lang lang) {
  switch (kind) {
    case BankKind::kPurchase:
      return Say(lang, "compra no cartão", "card purchase");
    case BankKind::kDeposit:
      return Say(lang, "depósito Pix", "Pix deposit");
    case BankKind::kInvoice:
      return Say(lang, "fatura", "invoice");
  }
  return "";
}

std::string StatusWords(const BankEntity& e, Lang lang) {
  static const std::map<std::string, std::pair<const char*, const char*>> kWords = {
      {"created", {"em aberto", "open"}},       {"paid", {"paga", "paid"}},
      {"canceled", {"cancelada", "canceled"}},  {"overdue", {"vencida", "overdue"}},
      {"expired", {"expirada", "expired"}},     {"voided", {"anulada", "voided"}},
      {"void", {"estornado", "reversed"}},      {"approved", {"aprovada, não capturada", "approved, not captured"}},
      {"confirmed", {"capturada", "captured"}}, {"denied", {"recusada", "declined"}},
      {"reversed", {"estornada", "reversed"}},
  };
  if (e.kind == BankKind::kDeposit && e.status == "created") return Say(lang, "recebido", "received");
  auto it = kWords.find(e.status);
  if (it == kWords.end()) return e.status;
  return lang == Lang::kPtBr ? it->second.first : it->second.second;
}

std::string DescribeEntity(const BankEntity& e, Lang lang) {
  std::string text = KindWords(e.kind, lang) + " " + e.id + " " + StatusWords(e, lang) + ", " + FormatBrl(e.amount);
  if (HeldBy(e) != e.amount) text += Say(lang, ", vale ", ", holds ") + FormatBrl(HeldBy(e));
  if (!e.party.empty())
    text += (e.kind == BankKind::kDeposit ? Say(lang, ", pago por ", ", paid by ")
                                          : Say(lang, ", cliente ", ", customer ")) +
            e.party;
  return text;
}

}  // namespace balcao::settlement
