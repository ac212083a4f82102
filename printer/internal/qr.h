// The QR module-size rule shared by the renderers and the virtual printer; the matrices
// themselves come from common/qr.h.
#pragma once

#include "common/qr.h"

namespace balcao::printer::internal {

// Largest module (dots) so the symbol plus quiet zone fits `dots`, capped at max_module.
int QrModuleSize(int symbol_size, int dots, int max_module);
// Width (= height) in dots of the symbol with its quiet zone.
inline int QrDots(int symbol_size, int module) { return (symbol_size + 2 * kQrQuietModules) * module; }

}  // namespace balcao::printer::internal
