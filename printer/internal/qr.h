// QR matrices from libqrencode (8-bit mode, so the symbol holds the payload bytes exactly
// as given) and the module-size rule shared by the renderers and the virtual printer.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "printer/receipt.h"

namespace balcao::printer::internal {

struct QrMatrix {
  int size = 0;                       // modules per side, quiet zone excluded
  std::vector<std::uint8_t> modules;  // size*size, 1 = dark
  bool dark(int x, int y) const { return modules[static_cast<size_t>(y) * size + x] != 0; }
};

inline constexpr int kQrQuietModules = 4;

// kInvalidArgument when empty or too long for a QR at that level.
StatusOr<QrMatrix> EncodeQr(std::string_view data, QrLevel level);
// Largest module (dots) so the symbol plus quiet zone fits `dots`, capped at max_module.
int QrModuleSize(int symbol_size, int dots, int max_module);
// Width (= height) in dots of the symbol with its quiet zone.
inline int QrDots(int symbol_size, int module) { return (symbol_size + 2 * kQrQuietModules) * module; }

}  // namespace balcao::printer::internal
