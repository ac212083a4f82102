#include "printer/samples.h"

#include "api/formats/brcode.h"

namespace balcao::printer {

const std::vector<std::string>& SampleKinds() {
  static const std::vector<std::string> kinds = {"card",    "pix",      "pix-paid", "invoice", "refund",
                                                 "offline", "declined", "summary",  "qr",      "test"};
  return kinds;
}

StatusOr<Document> SampleDocument(const std::string& kind, const SampleInputs& inputs) {
  SampleInputs in = inputs;
  if (in.br_code.empty() && (kind == "pix" || kind == "invoice")) {
    formats::DynamicBrCodeSpec spec;
    spec.url = "pix.balcao.example/qr/v2/9d36b84fc70b478fb95c12729b90ca25";
    spec.merchant_name = in.merchant.name;
    spec.merchant_city = "SAO PAULO";
    spec.amount_cents = kind == "pix" ? 4590 : 250000;
    BALCAO_ASSIGN_OR_RETURN(in.br_code, formats::BuildDynamicBrCode(spec));
  }
  ReceiptOptions options;
  options.language = in.language;
  const Merchant& m = in.merchant;
  constexpr UnixMicros kMinute = 60 * kMicrosPerSecond;
  if (kind == "card") {
    return CardSaleReceipts({m, in.at, 123456, "credit", 3, "MASTERCARD", in.card_number, "PUR-8f3a2c71", "A1B2C3"},
                            options);
  }
  if (kind == "pix")
    return PixChargeReceipt({m, in.at, 4590, in.br_code, in.at + 30 * kMinute, "TX7a1b2c3d4e5f"}, options);
  if (kind == "pix-paid") {
    return PixPaidReceipt(
        {m, in.at, 4590, "E12345678202611211527abcdef12345", "Maria José da Conceição", "TX7a1b2c3d4e5f"}, options);
  }
  if (kind == "invoice") {
    return InvoiceReceipt({m, in.at, "INV-2026-0042", "João Araújo", 250000, "2026-12-10",
                           "https://pague.balcao.example/i/INV-2026-0042", in.br_code, 200, 100},
                          options);
  }
  if (kind == "refund") {
    return RefundReceipt(
        {m, in.at, 15000, "card", false, "PUR-8f3a2c71", "REF-19c0", in.card_number, "VISA", "Produto devolvido"},
        options);
  }
  if (kind == "offline") {
    return OfflineProvisionalReceipt({m, in.at, 2990, "card", "V0042", in.card_number, "ELO"}, options);
  }
  if (kind == "declined") {
    return ForwardedDeclineNotice({m, in.at, 2990, "V0042", in.card_number, "ELO", "51 insufficient funds", false},
                                  options);
  }
  if (kind == "summary") {
    return DaySummaryReceipt(
        {m,
         in.at,
         "2026-11-21",
         {{"credit", 42, 1234567}, {"debit", 17, 345600}, {"pix", 63, 987650}, {"invoice", 2, 500000}},
         3,
         45000,
         1,
         1,
         1990},
        options);
  }
  if (kind == "qr") {
    return QrSlipReceipt({in.language == Language::kPtBr ? "Autenticação 3-D Secure" : "3-D Secure authentication",
                          "https://acs.issuer.example/challenge?creq=eyJ0aHJlZURTU2VydmVyVHJhbnNJRCI6IjhhODgwZGMwLWQy"
                          "ZDItNDA2Ny1iY2IxLWIwOGQxNjkwYjI2ZSIsImFjc1RyYW5zSUQiOiJkN2M0NWY5OSIsIm1lc3NhZ2VUeXBlIjoi"
                          "Q1JlcSIsIm1lc3NhZ2VWZXJzaW9uIjoiMi4yLjAifQ",
                          in.language == Language::kPtBr ? "Escaneie para confirmar a compra no app do banco"
                                                         : "Scan to confirm the purchase in your bank app",
                          in.at},
                         options);
  }
  if (kind == "test") return TestPage("sample", "", options);
  return InvalidArgumentError(
      "sample kind '" + kind +
      "' is not one of card, pix, pix-paid, invoice, refund, offline, declined, summary, qr, test");
}

}  // namespace balcao::printer
