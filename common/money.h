// Money on screens, receipts, the CLI and the sandbox's documents: integer cents in,
// Brazilian reais out. One formatter, so "R$ 1.234,56" reads the same everywhere.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>

namespace balcao {

// Hundredths with two decimals: pt-BR "1.234,56" (grouped) or "1234,56"; en-US uses
// ',' for thousands and '.' for decimals. Safe for INT64_MIN.
std::string FormatHundredths(std::int64_t hundredths, bool pt_br = true, bool group = true);

// pt-BR "R$ 1.234,56", "-R$ 0,05"; en-US "R$ 1,234.56".
std::string FormatBrl(std::int64_t cents, bool pt_br = true);

}  // namespace balcao
