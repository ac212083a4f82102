// The response files this box writes (resp/IntPos.001): a CRT's outcome with everything a PDV
// prints and puts in the NFC-e payment group, a refusal, a CNC's outcome, and ADM's reprint.
// Fields and their sources: docs/integration.md, "The message table". Receipts are at most 40
// columns (field 029-xxx is A..40). Pure. Thread-safety: plain values.
#pragma once

#include <string>

#include "integration/tefdial/exchange.h"
#include "integration/tefdial/intpos.h"
#include "integration/tefdial/request.h"

namespace balcao::integration::tefdial {

// Who is on the receipts, and the name in 010-000 (A..8).
struct Merchant {
  std::string name;
  std::string tax_id;  // CNPJ, printed on the receipt
  std::string network = "BALCAO";
  std::string institution_cnpj;  // 010-001 (the NFC-e's card/CNPJ) when configured; "" leaves it out
};

// "DDMMAAAA" and "HHMMSS" of `at` in Brasília time (UTC-3, no DST since 2019): the store's
// clock, which the PDV compares with its own.
std::string ReceiptDate(UnixMicros at);
std::string ReceiptTime(UnixMicros at);
// The card brand by the first digits of the mask ("VISA", "MASTERCARD", "ELO", "AMEX",
// "HIPERCARD"), "" when unknown; "PIX" for a Pix sale.
std::string BrandOf(const Approval& approval);

// The receipt of an approved sale: `copy` is "VIA CLIENTE" or "VIA ESTABELECIMENTO".
std::vector<std::string> SaleReceipt(const TefSale& sale, const Merchant& merchant, const std::string& copy);

// The CRT's answer once the sale is pending (approved) or declined.
IntPos CrtResponse(const Request& crt, const TefSale& sale, const Merchant& merchant);
// 009-000 = `status` (not "0") and 030-000 = `message`, echoing what the request had.
IntPos Refusal(const Request& request, const std::string& message, const std::string& status = "1");
// The CNC's answer once the money went back (or its return is queued).
IntPos CncResponse(const Request& cnc, const TefSale& sale, const Merchant& merchant, UnixMicros at);
// ADM: the last approved sale's receipt again, or a message that there is none.
IntPos AdmResponse(const Request& adm, const TefSale* last, const Merchant& merchant);

}  // namespace balcao::integration::tefdial
