#include "printer/internal/code128.h"

#include <string>

namespace balcao::printer::internal {
namespace {

// Symbol values 0-106 (106 = stop), as bar/space widths.
constexpr const char* kPatterns[107] = {
    "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312",  "132212", "221213", "221312",
    "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211",  "221132", "221231", "213212",
    "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",  "212123", "212321", "232121",
    "111323", "131123", "131321", "112313", "132113", "132311", "211313", "231113",  "231311", "112133", "112331",
    "132131", "113123", "113321", "133121", "313121", "211331", "231131", "213113",  "213311", "213131", "311123",
    "311321", "331121", "312113", "312311", "332111", "314111", "221411", "431111",  "111224", "111422", "121124",
    "121421", "141122", "141221", "112214", "112412", "122114", "122411", "142112",  "142211", "241211", "221114",
    "413111", "241112", "134111", "111242", "121142", "121241", "114212", "124112",  "124211", "411212", "421112",
    "421211", "212141", "214121", "412121", "111143", "111341", "131141", "114113",  "114311", "411113", "411311",
    "113141", "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
};
constexpr int kStartB = 104;
constexpr int kStop = 106;

void Append(std::vector<std::uint8_t>& out, int value) {
  for (const char* p = kPatterns[value]; *p; ++p) out.push_back(static_cast<std::uint8_t>(*p - '0'));
}

}  // namespace

StatusOr<std::vector<std::uint8_t>> Code128Widths(std::string_view data) {
  if (data.empty()) return InvalidArgumentError("barcode: data is empty");
  std::vector<std::uint8_t> out;
  Append(out, kStartB);
  int sum = kStartB;
  for (size_t i = 0; i < data.size(); ++i) {
    const auto c = static_cast<unsigned char>(data[i]);
    if (c < 0x20 || c > 0x7E) {
      return InvalidArgumentError("barcode: character at position " + std::to_string(i) +
                                  " is not printable ASCII (CODE128 set B)");
    }
    Append(out, c - 0x20);
    sum += static_cast<int>(i + 1) * (c - 0x20);
  }
  Append(out, sum % 103);
  Append(out, kStop);
  return out;
}

}  // namespace balcao::printer::internal
