# balcao_api_tests: the bank API client over real HTTP on loopback (the 140 endpoints of
# tests/data/api_endpoints.txt, envelopes, signatures, error mapping, retries, the call
# observer, bad input: malformed bodies, truncated and oversized answers, refused and dropped
# connections), the bank clock learned from Date headers. Its parsers and bad-input cases also
# run under ASan+UBSan (label sanitize).
balcao_test(balcao_api_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/http_test_server.cc
    ${CMAKE_CURRENT_LIST_DIR}/client_test_util.cc
    ${CMAKE_CURRENT_LIST_DIR}/client_endpoints_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/client_transport_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/client_observer_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/client_cli_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/bank_clock_test.cc
  LIBS balcao_api nlohmann_json::nlohmann_json Threads::Threads
  LABELS sanitize
  NEEDS_CLI)
