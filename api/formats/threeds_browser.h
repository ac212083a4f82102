// EMV 3-D Secure 2.x browser data (docs/formats.md, "3-D Secure browser data"): the limits
// an AReq's browser fields must meet, and helpers that produce conforming values (colour
// depth, time-zone sign).
// Verify against the EMVCo version you certify on (limits here are those of 2.1/2.2).
// Pure functions and value types; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace balcao::formats {

struct ThreeDsBrowserData {
  std::string accept_header;               // browserAcceptHeader: the HTTP Accept header, 1-2048
  std::string ip;                          // browserIP: IPv4 dotted quad or IPv6, <= 45 chars
  bool java_enabled = false;               // browserJavaEnabled
  std::optional<bool> javascript_enabled;  // browserJavascriptEnabled (2.2+)
  std::string language;                    // browserLanguage: BCP 47, 1-8 chars
  std::string color_depth;                 // browserColorDepth: 1,4,8,15,16,24,32,48
  std::string screen_height;               // browserScreenHeight: ^[1-9][0-9]{0,5}$
  std::string screen_width;                // browserScreenWidth: same
  std::string tz;                          // browserTZ: minutes, positive west of UTC ("180" = UTC-3)
  std::string user_agent;                  // browserUserAgent: 1-2048
};

// Every rule broken, each naming the field: "browserColorDepth must be one of 1,4,8,15,16,24,32,48".
// Empty when the data may be sent.
std::vector<std::string> ValidateThreeDsBrowserData(const ThreeDsBrowserData& data);

// A screen's colour depth as an allowed value: the largest listed value not above it
// (30 -> "24"); depths below 1 give "1".
std::string ThreeDsColorDepth(int bits_per_pixel);

// browserTZ from a UTC offset in minutes (UTC-3 = -180 -> "180"; UTC+2 = 120 -> "-120"),
// the sign convention of JavaScript's getTimezoneOffset().
std::string ThreeDsBrowserTz(int utc_offset_minutes);

}  // namespace balcao::formats
