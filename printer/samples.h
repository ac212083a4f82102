// Sample receipts of every kind, for `balcao print sample`, the tests and the benchmark.
// The data is fictitious; callers override the parts they check (card number, BR Code).
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "printer/receipt.h"
#include "printer/templates.h"

namespace balcao::printer {

struct SampleInputs {
  Language language = Language::kPtBr;
  // Empty: a dynamic BR Code for the sample's merchant and amount, built by
  // balcao::formats::BuildDynamicBrCode.
  std::string br_code;
  std::string card_number = "5162923788410096";  // fictitious, Luhn-valid
  UnixMicros at = 1795279655000000;              // 2026-11-21T16:47:35Z (13:47:35 in Brasília)
  Merchant merchant = {"Padaria São João", "Panificadora São João Ltda.",
                       "12345678000195",   "Rua da Consolação, 1234",
                       "São Paulo - SP",   "BALCAO-01"};
};

// "card", "pix", "pix-paid", "invoice", "refund", "offline", "declined", "summary", "qr" (a 3-D Secure
// challenge link) and "test".
const std::vector<std::string>& SampleKinds();
StatusOr<Document> SampleDocument(const std::string& kind, const SampleInputs& inputs = {});

}  // namespace balcao::printer
