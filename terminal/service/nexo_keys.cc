#include "terminal/service/nexo_keys.h"

#include <algorithm>
#include <cctype>

#include "integration/nexo/protection.h"

namespace balcao::terminal::service {

Status CheckRegisterId(const std::string& id) {
  const bool ok = !id.empty() && id.size() <= 40 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
  });
  if (!ok) return InvalidArgumentError("SALE_ID: 1 to 40 letters, digits, '.', '_' or '-', not '" + id + "'");
  return OkStatus();
}

std::string KeyIdentifierOf(const std::string& register_id) { return "pos-" + register_id; }

std::string NewPassphrase() {
  std::string text = integration::nexo::Base64(integration::nexo::RandomBytes(24));
  for (char& c : text) c = c == '+' ? '-' : c == '/' ? '_' : c;
  return text;
}

}  // namespace balcao::terminal::service
