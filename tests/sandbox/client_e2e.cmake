# The C++ client calls all 140 endpoints against an in-process sandbox.
balcao_test(sandbox_client_e2e_test SOURCES ${CMAKE_CURRENT_LIST_DIR}/client_endpoints_e2e_test.cc
  LIBS balcao_sandbox balcao_api balcao_testing_http CURL::libcurl nlohmann_json::nlohmann_json)
