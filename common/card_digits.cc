// The card-like digit run scanner (see card_digits.h).
#include "common/card_digits.h"

#include <cctype>

namespace balcao {
namespace {

constexpr std::size_t kMinDigits = 13;
constexpr std::size_t kMaxDigits = 19;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

}  // namespace

bool PassesLuhn(std::string_view digits) {
  if (digits.empty()) return false;
  int sum = 0;
  bool double_it = false;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (!IsDigit(*it)) return false;
    int d = *it - '0';
    if (double_it) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double_it = !double_it;
  }
  return sum % 10 == 0;
}

std::vector<CardDigitRun> FindCardNumbers(std::string_view text, const CardScanOptions& options) {
  std::vector<CardDigitRun> found;
  std::size_t i = 0;
  while (i < text.size()) {
    // A run starts at a digit that follows neither a digit nor (unless asked) a letter.
    if (!IsDigit(text[i]) || (i > 0 && (options.include_glued ? IsDigit(text[i - 1]) : IsAlnum(text[i - 1])))) {
      ++i;
      continue;
    }
    // The run: digits, with single ' ' or '-' between groups. Only the first
    // kMaxDigits are kept: a longer run is not a card number anyway.
    char digits[kMaxDigits];
    std::size_t count = 0;
    std::size_t j = i;
    std::size_t last_digit = i;
    while (j < text.size()) {
      if (IsDigit(text[j])) {
        if (count < kMaxDigits) digits[count] = text[j];
        ++count;
        last_digit = j++;
      } else if ((text[j] == ' ' || text[j] == '-') && j + 1 < text.size() && IsDigit(text[j + 1])) {
        ++j;
      } else {
        break;
      }
    }
    const bool glued = j < text.size() && IsAlnum(text[j]);
    if ((options.include_glued || !glued) && count >= kMinDigits && count <= kMaxDigits && digits[0] >= '2' &&
        digits[0] <= '6' && PassesLuhn(std::string_view(digits, count)))
      found.push_back({i, last_digit + 1});
    i = j + 1;
  }
  return found;
}

int MaskCardNumbers(std::string& text) {
  const std::vector<CardDigitRun> runs = FindCardNumbers(text, {.include_glued = true});
  for (const CardDigitRun& run : runs) {
    std::size_t total = 0;
    for (std::size_t k = run.begin; k < run.end; ++k) total += IsDigit(text[k]) ? 1 : 0;
    std::size_t index = 0;
    for (std::size_t k = run.begin; k < run.end; ++k) {
      if (!IsDigit(text[k])) continue;
      if (index >= 6 && index + 4 < total) text[k] = '*';
      ++index;
    }
  }
  return static_cast<int>(runs.size());
}

}  // namespace balcao
