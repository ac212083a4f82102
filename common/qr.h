// QR code matrices: the one place that calls libqrencode. The symbol holds the payload's
// bytes exactly as given (8-bit mode); drawing it (ESC/POS, PNG, SVG, terminal blocks) is
// the caller's. Pure; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace balcao {

// Error correction: L 7%, M 15%, Q 25%, H 30% of the symbol recoverable.
enum class QrLevel : std::uint8_t { kL, kM, kQ, kH };

struct QrMatrix {
  int size = 0;                       // modules per side, quiet zone excluded
  std::vector<std::uint8_t> modules;  // size*size, row by row, 1 = dark
  bool dark(int x, int y) const { return modules[static_cast<std::size_t>(y) * size + x] != 0; }
  // Outside the symbol (the quiet zone) is light.
  bool dark_or_light(int x, int y) const { return x >= 0 && y >= 0 && x < size && y < size && dark(x, y); }
};

// The quiet zone a scanner expects around the symbol, in modules.
inline constexpr int kQrQuietModules = 4;

// kInvalidArgument when `data` is empty or too long for a QR code at `level`.
StatusOr<QrMatrix> EncodeQr(std::string_view data, QrLevel level);

}  // namespace balcao
