// The settlement's words in the owner's language (docs/settlement.md, "Languages"): pt-BR, the
// default of a Brazilian store's box, and en-US; an accountant's words, not the code's state
// names. Money is written the Brazilian way in both ("R$ 1.234,56": it is reais).
// Thread-safety: pure functions over constants.
#pragma once

#include <string>
#include <string_view>

#include "common/status.h"
#include "settlement/settlement.h"

namespace balcao::settlement {

// "pt-BR" or "en-US"; kInvalidArgument naming the rule otherwise.
StatusOr<Lang> ParseLang(std::string_view name);
const char* LangName(Lang lang);

// The text in `lang`.
inline std::string Say(Lang lang, std::string_view pt_br, std::string_view en_us) {
  return std::string(lang == Lang::kPtBr ? pt_br : en_us);
}

// A phrase in both languages, for what is decided before its reader's language is known (a
// payout's reason, chosen by the settlement, said by the report, the JSON and the printed slip).
struct Words {
  std::string pt_br, en_us;
  bool empty() const { return pt_br.empty() && en_us.empty(); }
};
inline std::string Say(Lang lang, const Words& words) { return lang == Lang::kPtBr ? words.pt_br : words.en_us; }

// "matched" -> "conferida" / "matched"; "pay-later-open" -> "fatura em aberto" / "invoice open".
std::string ClassWords(SaleClass cls, Lang lang);
// "credit" -> "crédito", "debit" -> "débito", "pix" -> "Pix", "invoice" -> "fatura".
std::string MethodWords(std::string_view method, Lang lang);
// "purchase" -> "compra no cartão", "deposit" -> "depósito Pix", "invoice" -> "fatura".
std::string KindWords(BankKind kind, Lang lang);
// The bank's status in words: "created" -> "em aberto" (an invoice), "paid" -> "paga"...
std::string StatusWords(const BankEntity& entity, Lang lang);

// "invoice 57... open, R$ 77,70, holds R$ 0,00, customer Maria (337.451.076-08)": the
// entity in the report's words.
std::string DescribeEntity(const BankEntity& entity, Lang lang = Lang::kEnUs);

}  // namespace balcao::settlement
