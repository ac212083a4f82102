// What a cash register gets to print (terminal/internal/receipts.h, pure): a card sale's
// merchant copy and customer copy apart, each whole; the brand as the bank recorded it, else
// the BIN table's and said so; no authorization line the bank's record cannot fill; a Pix
// receipt that labels the deposit's id as what it is.
#include <gtest/gtest.h>

#include <string>

#include "printer/profile.h"
#include "printer/render.h"
#include "terminal/internal/receipts.h"
#include "tests/checkout/scenarios.h"

namespace balcao::terminal {
namespace {

namespace ct = checkout::testing;

std::string Text(const std::optional<printer::Document>& doc) {
  EXPECT_TRUE(doc.has_value());
  return doc ? printer::RenderText(*doc, *printer::FindProfile("80mm")) : "";
}

int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(RegisterCopies, ACardSaleGivesTheMerchantsCopyAndTheCustomersApart) {
  const checkout::Sale sale = ct::Drive(ct::PathTo("Paid", checkout::Method::kCard));
  const checkout::Print print{checkout::Slip::kSaleReceipt, sale.amount, "5656565656565656", "", "401178******1111"};
  StoreIdentity store;
  store.merchant.name = "LOJA BALCAO";
  CardTerms terms;
  terms.card_mask = "401178******1111";
  const RegisterCopies copies = RegisterCopiesFor(sale, print, store, ct::kT0, WithBankNetwork(terms, "visa"));
  const std::string merchant = Text(copies.merchant), customer = Text(copies.customer);
  EXPECT_EQ(Count(merchant, "VIA DO ESTABELECIMENTO"), 1) << merchant;
  EXPECT_EQ(Count(merchant, "VIA DO CLIENTE"), 0) << merchant;
  EXPECT_EQ(Count(customer, "VIA DO CLIENTE"), 1) << customer;
  EXPECT_EQ(Count(customer, "VIA DO ESTABELECIMENTO"), 0) << customer;
  for (const std::string& copy : {merchant, customer}) {
    EXPECT_NE(copy.find("VISA"), std::string::npos) << "the bank's network (401178 is an Elo BIN): " << copy;
    EXPECT_EQ(copy.find("pelo BIN"), std::string::npos) << copy;
    EXPECT_EQ(copy.find("Autoriza"), std::string::npos) << "the bank's record has no authorization code: " << copy;
    EXPECT_NE(copy.find("5656565656565656"), std::string::npos) << "the purchase, named as such: " << copy;
  }
  terms.network = "ELO";  // the BIN table's, the bank gave none
  const std::string by_bin = Text(RegisterCopiesFor(sale, print, store, ct::kT0, terms).customer);
  EXPECT_NE(by_bin.find("ELO (pelo BIN)"), std::string::npos) << by_bin;
}

TEST(RegisterCopies, APixReceiptNamesTheDepositAndIsOneCopy) {
  const checkout::Sale sale = ct::Drive(ct::PathTo("Paid", checkout::Method::kPix));
  const checkout::Print print{checkout::Slip::kSaleReceipt, sale.amount, "4242424242424242", "", ""};
  const RegisterCopies copies = RegisterCopiesFor(sale, print, StoreIdentity{}, ct::kT0);
  const std::string text = Text(copies.customer);
  EXPECT_EQ(text, Text(copies.merchant));
  EXPECT_EQ(Count(text, "PIX RECEBIDO"), 1) << text;
  EXPECT_NE(text.find("Depósito"), std::string::npos) << text;
  EXPECT_EQ(text.find("ID da transação"), std::string::npos) << "no end-to-end id is known: " << text;
}

}  // namespace
}  // namespace balcao::terminal
