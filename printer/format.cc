#include "printer/format.h"

#include <cctype>
#include <cstdio>

#include "common/money.h"

namespace balcao::printer {
namespace {

struct LocalTime {
  int year;
  unsigned month, day;
  int hour, minute, second;
};

LocalTime ToBrasilia(UnixMicros t) {
  std::int64_t secs = t / kMicrosPerSecond;
  if (t % kMicrosPerSecond < 0) --secs;  // floor for times before 1970
  secs += kBrasiliaOffsetSeconds;
  std::int64_t days = secs / 86400;
  std::int64_t rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  LocalTime lt{};
  CivilFromDays(days, lt.year, lt.month, lt.day);
  lt.hour = static_cast<int>(rem / 3600);
  lt.minute = static_cast<int>(rem % 3600 / 60);
  lt.second = static_cast<int>(rem % 60);
  return lt;
}

}  // namespace

std::string FormatBrl(std::int64_t cents, Language lang) { return balcao::FormatBrl(cents, lang == Language::kPtBr); }

std::string FormatPercent(std::int64_t basis_points, Language lang) {
  return FormatHundredths(basis_points, lang == Language::kPtBr, false) + "%";
}

std::string FormatLocalDate(UnixMicros t, Language lang) {
  const LocalTime lt = ToBrasilia(t);
  char buf[32];
  if (lang == Language::kPtBr) {
    std::snprintf(buf, sizeof buf, "%02u/%02u/%04d", lt.day, lt.month, lt.year);
  } else {
    std::snprintf(buf, sizeof buf, "%02u/%02u/%04d", lt.month, lt.day, lt.year);
  }
  return buf;
}

std::string FormatLocalTime(UnixMicros t) {
  const LocalTime lt = ToBrasilia(t);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d:%02d", lt.hour, lt.minute);
  return buf;
}

std::string FormatLocalDateTime(UnixMicros t, Language lang) {
  const LocalTime lt = ToBrasilia(t);
  char buf[16];
  std::snprintf(buf, sizeof buf, " %02d:%02d:%02d", lt.hour, lt.minute, lt.second);
  return FormatLocalDate(t, lang) + buf;
}

MaskedPan MaskPan(std::string_view any) {
  std::string digits;
  for (char c : any) {
    if (std::isdigit(static_cast<unsigned char>(c))) digits.push_back(c);
  }
  MaskedPan m;
  if (digits.empty()) return m;
  if (digits.size() >= 10) {
    // A full PAN (or a 6+4 already masked): keep BIN and last 4, pad the middle so a full
    // PAN keeps its length.
    const size_t stars = digits.size() > 10 ? digits.size() - 10 : 6;
    m.text_ = digits.substr(0, 6) + std::string(stars, '*') + digits.substr(digits.size() - 4);
  } else {
    // Fewer digits than BIN+last4 means we cannot tell which are which: keep the last 4.
    const size_t keep = digits.size() < 4 ? digits.size() : 4;
    m.text_ = std::string(16 - keep, '*') + digits.substr(digits.size() - keep);
  }
  return m;
}

std::string FormatCnpj(std::string_view cnpj) {
  if (cnpj.size() != 14) return std::string(cnpj);
  for (char c : cnpj) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return std::string(cnpj);
  }
  std::string s(cnpj);
  return s.substr(0, 2) + "." + s.substr(2, 3) + "." + s.substr(5, 3) + "/" + s.substr(8, 4) + "-" + s.substr(12, 2);
}

int LongestDigitRun(std::string_view text) {
  int best = 0, run = 0;
  bool in_run = false;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      ++run;
      in_run = true;
      if (run > best) best = run;
    } else if (in_run && (c == ' ' || c == '-' || c == '.')) {
      continue;
    } else {
      run = 0;
      in_run = false;
    }
  }
  return best;
}

std::string CardNetworkOfBin(std::string_view digits) {
  std::string bin;
  for (char c : digits) {
    if (c < '0' || c > '9') break;
    bin.push_back(c);
  }
  if (bin.size() < 4) return "";
  auto starts = [&](std::string_view prefix) { return bin.compare(0, prefix.size(), prefix) == 0; };
  const int two = (bin[0] - '0') * 10 + (bin[1] - '0');
  const int four = two * 100 + (bin[2] - '0') * 10 + (bin[3] - '0');
  for (std::string_view elo : {"636368", "438935", "504175", "451416", "636297", "5067", "4576", "4011", "509"})
    if (starts(elo)) return "ELO";
  if (starts("6062") || starts("3841")) return "HIPERCARD";
  if (two == 34 || two == 37) return "AMEX";
  if (two == 36 || two == 38 || (four >= 3000 && four <= 3059)) return "DINERS";
  if (starts("6011") || two == 65) return "DISCOVER";
  if (starts("4")) return "VISA";
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "MASTERCARD";
  return "";
}

}  // namespace balcao::printer
