# Signing, keys and webhook event verification (docs/api-crypto.md).
# libsecp256k1 does the curve math; OpenSSL parses keys and hashes; nlohmann reads events.
target_sources(balcao_api PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/crypto.cc
  ${CMAKE_CURRENT_LIST_DIR}/events.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/crypto_encoding.cc)
target_link_libraries(balcao_api PUBLIC OpenSSL::Crypto PkgConfig::SECP256K1 nlohmann_json::nlohmann_json)
