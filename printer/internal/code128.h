// CODE128 code set B (printable ASCII): the bar/space module widths of a symbol, start,
// check character and stop included. Shared by the PNG preview and the virtual printer.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace balcao::printer::internal {

// Widths alternate bar, space, bar, ... starting with a bar. kInvalidArgument for
// characters outside 0x20-0x7E or empty data.
StatusOr<std::vector<std::uint8_t>> Code128Widths(std::string_view data);
inline constexpr int kBarcodeQuietModules = 10;

}  // namespace balcao::printer::internal
