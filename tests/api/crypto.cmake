# balcao_crypto_tests: keys, signatures, interop with openssl and starkbank-ecdsa (npm),
# webhook events and the `keys` / `event verify` commands. Bad-input parsers inside:
# also run under ASan+UBSan.
file(GLOB BALCAO_CRYPTO_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/crypto_*.cc)
balcao_test(balcao_crypto_tests
  SOURCES ${BALCAO_CRYPTO_TEST_SOURCES}
  LIBS balcao_api nlohmann_json::nlohmann_json
  LABELS sanitize
  NEEDS_CLI)
