#include "tests/testing/status_matchers.h"

namespace balcao {

void PrintTo(StatusCode code, std::ostream* os) { *os << StatusCodeName(code); }

void PrintTo(const Status& status, std::ostream* os) { *os << status.ToString(); }

}  // namespace balcao
