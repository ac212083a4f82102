// What the touchscreen shows of a sale (docs/terminal.md, "JSON API"): the screen it is on,
// and its view as the web app reads it. Pure: no I/O and no locks (the sale book holds them).
#pragma once

#include <string>
#include <vector>

#include "checkout/checkout.h"
#include "common/time.h"

namespace balcao::terminal::service {

// The screen a sale is on, and what that screen shows.
struct Screen {
  const char* status = "working";  // the web app's screen: "pix", "paid", "declined"...
  std::string message;
  std::string qr;
  std::string link;
  UnixMicros deadline = 0;
  std::string method;
  std::string card_mask;
};
Screen ScreenOf(const checkout::Sale& sale);

// A sale's view as fields, all taken from the sale itself. Once an ended sale's copy is let go
// (SaleBook, "Memory stays flat") its row is all the book keeps of it: a few hundred bytes
// where the view as text took about a kilobyte.
struct SaleRow {
  const char* state = "";  // checkout::StateName
  const char* status = "working";
  std::string method;
  std::string message;  // the screen's own (a decline, a queue notice), else ""
  bool has_qr = false;
  std::string link;
  UnixMicros deadline = 0;
  std::string pix_code;  // the Pix's or the invoice's copia-e-cola (status pix, invoice, pay-later)
  UnixMicros due = 0;    // an invoice's due date
  checkout::Cents collected = 0;
  checkout::Cents returned = 0;       // what went back of the payment (a partial refund leaves it paid)
  checkout::Cents bank_reversed = 0;  // taken back at the bank outside Balcão: "estornado no banco"
  std::string payment_id;             // a paid sale's payment
  std::string bank_ids;               // "kind/id" of each entity the sale made, '\n'-separated
  bool reprint = false;               // a receipt can be printed again
};
SaleRow RowOf(const checkout::Sale& sale);
// The row of an ended sale, as kept: nothing the screen of an ended sale does not show.
SaleRow EndedRow(const checkout::Sale& sale);

// What the book adds to the sale's own row.
struct BookFacts {
  checkout::Cents amount = 0;
  UnixMicros opened_at = 0;
  const std::string& message;  // the last message the counter was told
  const std::vector<std::string>& flags;
  const std::vector<std::string>& receipts;
  int installments = 1;
  const std::string& register_name;  // a cash register's sale: its name; "" for the touchscreen's
  checkout::Cents reversal_requested = 0;
};
// The view as JSON text (without "version": the book adds it with its lock held).
std::string ViewText(const std::string& id, const SaleRow& row, const BookFacts& book);

}  // namespace balcao::terminal::service
