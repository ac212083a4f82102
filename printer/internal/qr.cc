#include "printer/internal/qr.h"

namespace balcao::printer::internal {

int QrModuleSize(int symbol_size, int dots, int max_module) {
  int module = dots / (symbol_size + 2 * kQrQuietModules);
  if (module > max_module) module = max_module;
  return module < 1 ? 1 : module;
}

}  // namespace balcao::printer::internal
