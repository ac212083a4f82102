// Card-like digit runs in free text: 13-19 digits (single spaces or dashes between
// groups allowed) that start like a card (2-6: the card industries) and pass Luhn.
// The one scanner behind the offline store's refusal of card data (offline/card_scan.h)
// and the log's last-line-of-defense masking (common/log.h).
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace balcao {

// Luhn check over a string of digits (false when empty or for any non-digit).
bool PassesLuhn(std::string_view digits);

// Where a card-like run sits in the text: [begin, end) from its first to its last digit.
struct CardDigitRun {
  std::size_t begin = 0;
  std::size_t end = 0;
};

struct CardScanOptions {
  // A run glued to letters ("E2E...", a BR Code's "5802BR") is a bank id, not a card
  // number typed by anyone: the storage scanner exempts it. The log masks it anyway,
  // because there a false positive costs a few digits of an id and a miss leaks a card.
  bool include_glued = false;
};

// Every card-like run, in order. Allocation-free unless one is found.
std::vector<CardDigitRun> FindCardNumbers(std::string_view text, const CardScanOptions& options = {});

// Replaces the digits of every card-like run (glued ones included) but the first 6 and
// the last 4 with '*', in place; separators stay. Returns how many runs were masked.
int MaskCardNumbers(std::string& text);

}  // namespace balcao
