// 3-D Secure browser data limits: docs/formats.md, "3-D Secure browser data".
#include "api/formats/threeds_browser.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>

#include "api/formats/internal/digits.h"

namespace balcao::formats {
namespace {

constexpr std::array<int, 8> kColorDepths = {1, 4, 8, 15, 16, 24, 32, 48};

void CheckLength(const char* field, const std::string& value, std::size_t max, const char* suffix,
                 std::vector<std::string>& errors) {
  if (value.empty() || value.size() > max) {
    errors.push_back(std::string(field) + " must be 1-" + std::to_string(max) + " chars" + suffix);
  }
}

bool IsIp(const std::string& ip) {
  if (ip.size() > 45 || ip.find('\0') != std::string::npos) return false;
  unsigned char buf[16];
  return inet_pton(AF_INET, ip.c_str(), buf) == 1 || inet_pton(AF_INET6, ip.c_str(), buf) == 1;
}

bool IsScreenSize(const std::string& s) { return !s.empty() && s.size() <= 6 && s[0] != '0' && internal::AllDigits(s); }

// 1-5 chars of signed minutes, within the offsets that exist (UTC-12 .. UTC+14).
bool IsTz(const std::string& tz) {
  std::string_view digits = tz;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
  if (tz.size() > 5 || digits.empty() || digits.size() > 4 || !internal::AllDigits(digits)) return false;
  std::int64_t minutes = internal::ParseDigits(digits) * (tz[0] == '-' ? -1 : 1);
  return minutes >= -840 && minutes <= 720;
}

}  // namespace

std::vector<std::string> ValidateThreeDsBrowserData(const ThreeDsBrowserData& d) {
  std::vector<std::string> errors;
  CheckLength("browserAcceptHeader", d.accept_header, 2048, "", errors);
  if (!IsIp(d.ip)) errors.push_back("browserIP must be an IPv4 or IPv6 address of at most 45 chars");
  CheckLength("browserLanguage", d.language, 8, " (2.1/2.2)", errors);
  const std::string& depth = d.color_depth;
  bool depth_ok =
      !depth.empty() && depth.size() <= 2 && depth[0] != '0' && internal::AllDigits(depth) &&
      std::find(kColorDepths.begin(), kColorDepths.end(), internal::ParseDigits(depth)) != kColorDepths.end();
  if (!depth_ok) errors.push_back("browserColorDepth must be one of 1,4,8,15,16,24,32,48");
  if (!IsScreenSize(d.screen_height)) errors.push_back("browserScreenHeight must be 1-6 digits without a leading zero");
  if (!IsScreenSize(d.screen_width)) errors.push_back("browserScreenWidth must be 1-6 digits without a leading zero");
  if (!IsTz(d.tz)) errors.push_back("browserTZ must be 1-5 chars of signed minutes between -840 and 720");
  CheckLength("browserUserAgent", d.user_agent, 2048, "", errors);
  return errors;
}

std::string ThreeDsColorDepth(int bits_per_pixel) {
  int best = kColorDepths.front();
  for (int depth : kColorDepths) {
    if (depth <= bits_per_pixel) best = depth;
  }
  return std::to_string(best);
}

std::string ThreeDsBrowserTz(int utc_offset_minutes) { return std::to_string(-utc_offset_minutes); }

}  // namespace balcao::formats
