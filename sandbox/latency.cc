#include "sandbox/latency.h"

#include <charconv>
#include <random>

namespace balcao::sandbox {
namespace {

constexpr long long kMaxMillis = 60'000;

// "50ms", "50" (ms), "2s": a whole number of milliseconds, at most a minute.
bool ParseDuration(std::string_view text, long long& millis) {
  long long scale = 1;
  if (text.ends_with("ms")) {
    text.remove_suffix(2);
  } else if (text.ends_with("s")) {
    text.remove_suffix(1);
    scale = 1000;
  }
  if (text.empty()) return false;
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0 || value > kMaxMillis) return false;
  millis = value * scale;
  return millis <= kMaxMillis;
}

}  // namespace

std::chrono::milliseconds Latency::Draw() const {
  if (jitter.count() == 0) return base;
  thread_local std::mt19937_64 engine{std::random_device{}()};
  std::uniform_int_distribution<long long> spread(base.count() - jitter.count(), base.count() + jitter.count());
  return std::chrono::milliseconds(spread(engine));
}

std::string Latency::ToString() const {
  std::string text = std::to_string(base.count());
  if (jitter.count() > 0) text += "±" + std::to_string(jitter.count());
  return text + "ms";
}

StatusOr<Latency> ParseLatency(std::string_view text) {
  const auto refuse = [&] {
    return InvalidArgumentError("latency '" + std::string(text) +
                                "' must be a delay such as 50ms, 1s or 60±20ms (whole milliseconds, at most 60 s, "
                                "the ± part not larger than the delay)");
  };
  std::string_view base_text = text, jitter_text;
  for (std::string_view separator : {std::string_view("±"), std::string_view("+-")}) {
    if (const std::size_t at = text.find(separator); at != std::string_view::npos) {
      base_text = text.substr(0, at);
      jitter_text = text.substr(at + separator.size());
      break;
    }
  }
  long long base = 0, jitter = 0;
  // The base may carry its own unit ("60ms±20ms") or take the jitter's ("60±20ms": ms).
  if (!ParseDuration(base_text, base)) return refuse();
  if (!jitter_text.empty() || text.size() != base_text.size()) {
    if (!ParseDuration(jitter_text, jitter) || jitter > base) return refuse();
  }
  Latency latency;
  latency.base = std::chrono::milliseconds(base);
  latency.jitter = std::chrono::milliseconds(jitter);
  return latency;
}

}  // namespace balcao::sandbox
