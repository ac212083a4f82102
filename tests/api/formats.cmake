balcao_test(balcao_formats_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/formats_vectors_test.cc
  LIBS balcao_formats nlohmann_json::nlohmann_json
  LABELS sanitize)
