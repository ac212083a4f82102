// The protocol's values, read and written alike: category and error-condition names, amounts
// as the JSON text of a number, times. The requests are read in message_request.cc, the
// answers built in message_answers.cc, the protected envelope in message_protected.cc.
#include "integration/nexo/message.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace balcao::integration::nexo {

const char* CategoryName(Category category) {
  switch (category) {
    case Category::kPayment:
      return "Payment";
    case Category::kTransactionStatus:
      return "TransactionStatus";
    case Category::kAbort:
      return "Abort";
    case Category::kReversal:
      return "Reversal";
  }
  return "";
}

StatusOr<Cents> ParseAmount(std::string_view text, std::string_view field) {
  const std::string rule = std::string(field) + ": a decimal amount in BRL from 0.01, at most two decimals (\"12.34\")";
  const std::size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  auto digits = [](std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (!digits(whole) || whole.size() > 9 ||
      (dot != std::string_view::npos && (!digits(fraction) || fraction.size() > 2)))
    return InvalidArgumentError(rule);
  Cents cents = 0;
  for (char c : whole) cents = cents * 10 + (c - '0');
  cents *= 100;
  if (!fraction.empty()) cents += (fraction[0] - '0') * 10 + (fraction.size() > 1 ? fraction[1] - '0' : 0);
  if (cents < 1) return InvalidArgumentError(rule);
  return cents;
}

std::string FormatAmount(Cents cents) {
  char text[32];
  std::snprintf(text, sizeof text, "%lld.%02lld", static_cast<long long>(cents / 100),
                static_cast<long long>(cents % 100));
  return text;
}

std::string IsoTime(std::int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[96];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(unix_ms % 1000));
  return text;
}

const char* ErrorConditionOf(Result result) {
  switch (result) {
    case Result::kApproved:
      return "";
    case Result::kRefused:
      return "Refusal";
    case Result::kAborted:
      return "Aborted";
    case Result::kBusy:
      return "Busy";
    case Result::kNotAllowed:
      return "NotAllowed";
    case Result::kUnavailable:
      return "UnavailableService";
    case Result::kInProgress:
      return "InProgress";
    case Result::kNotFound:
      return "NotFound";
    case Result::kInvalid:
      return "MessageFormat";
  }
  return "";
}

}  // namespace balcao::integration::nexo
