// The protected envelope: {"SaleToPOI...": {MessageHeader, NexoBlob, SecurityTrailer}} around a
// message's plaintext, sealed and opened by protection.h.
#include "integration/nexo/internal/json_text.h"
#include "integration/nexo/message.h"

namespace balcao::integration::nexo {
namespace {

using internal::Dump;
using nlohmann::json;

StatusOr<std::string> Wrap(const char* top, const std::string& plaintext, const DerivedKeys& keys,
                           const std::string& key_identifier, int key_version) {
  const json parsed = json::parse(plaintext, nullptr, false);
  if (!parsed.is_object() || !parsed.contains(top) || !parsed[top].contains("MessageHeader"))
    return InvalidArgumentError(std::string(top) + ": a message with a MessageHeader");
  BALCAO_ASSIGN_OR_RETURN(const Protected sealed, Protect(plaintext, keys, key_identifier, key_version));
  const json trailer = {{"AdyenCryptoVersion", sealed.trailer.crypto_version},
                        {"KeyIdentifier", sealed.trailer.key_identifier},
                        {"KeyVersion", sealed.trailer.key_version},
                        {"Nonce", sealed.trailer.nonce},
                        {"Hmac", sealed.trailer.hmac}};
  return Dump(
      {{top,
        {{"MessageHeader", parsed[top]["MessageHeader"]}, {"NexoBlob", sealed.blob}, {"SecurityTrailer", trailer}}}});
}

}  // namespace

StatusOr<std::string> ProtectResponse(const std::string& plaintext, const DerivedKeys& keys,
                                      const std::string& key_identifier, int key_version) {
  return Wrap("SaleToPOIResponse", plaintext, keys, key_identifier, key_version);
}

StatusOr<std::string> ProtectRequest(const std::string& plaintext, const DerivedKeys& keys,
                                     const std::string& key_identifier, int key_version) {
  return Wrap("SaleToPOIRequest", plaintext, keys, key_identifier, key_version);
}

StatusOr<std::string> UnprotectResponse(std::string_view text, const DerivedKeys& keys) {
  const json parsed = json::parse(text, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("SaleToPOIResponse") || !parsed["SaleToPOIResponse"].is_object())
    return InvalidArgumentError("SaleToPOIResponse: required");
  const json& top = parsed["SaleToPOIResponse"];
  if (!top.contains("NexoBlob") || !top["NexoBlob"].is_string() || !top.contains("SecurityTrailer") ||
      !top["SecurityTrailer"].is_object())
    return InvalidArgumentError("SaleToPOIResponse: NexoBlob and SecurityTrailer");
  const json& t = top["SecurityTrailer"];
  SecurityTrailer trailer;
  trailer.nonce = t.value("Nonce", "");
  trailer.hmac = t.value("Hmac", "");
  trailer.key_identifier = t.value("KeyIdentifier", "");
  trailer.key_version = t.value("KeyVersion", 0);
  return Unprotect(top["NexoBlob"].get<std::string>(), trailer, keys);
}

}  // namespace balcao::integration::nexo
