# balcao_formats: vectors from tests/data/formats.json, round trips, mutations,
# robustness on hostile input (sanitize), and the `balcao format check` CLI.
balcao_test(balcao_formats_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/formats_vectors_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/formats_roundtrip_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/formats_mutation_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/formats_robustness_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/formats_cli_test.cc
  LIBS balcao_formats balcao_testing_spawn nlohmann_json::nlohmann_json
  LABELS sanitize
  NEEDS_CLI)
