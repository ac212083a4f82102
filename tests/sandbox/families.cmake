# Tests of the resource families added after the sandbox core (docs/sandbox.md): one
# binary, real loopback HTTP with real signatures against an in-process sandbox.
balcao_test(sandbox_families_test
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/family_harness.cc
    ${CMAKE_CURRENT_LIST_DIR}/family_card_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/family_browser_purchase_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/family_transfer_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/family_payment_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/family_boleto_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/family_node_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/family_bad_input_test.cc
  LIBS balcao_sandbox balcao_api balcao_formats balcao_testing_http CURL::libcurl nlohmann_json::nlohmann_json)
target_compile_definitions(sandbox_families_test PRIVATE
  FAMILY_NODE_DIR="${CMAKE_CURRENT_LIST_DIR}/node"
  FAMILY_NODE_WORK="${CMAKE_CURRENT_BINARY_DIR}/families-node")
