balcao_test(balcao_formats_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/formats_vectors_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/formats_roundtrip_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/formats_mutation_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/formats_robustness_test.cc
  LIBS balcao_formats nlohmann_json::nlohmann_json
  LABELS sanitize)
