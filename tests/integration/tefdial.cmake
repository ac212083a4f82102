# TEF Dial: the IntPos format, the two-phase confirmation and the exchange log (pure and
# file-backed, also under ASan+UBSan), and the folders on a real file system.
balcao_test(balcao_tefdial_tests
  SOURCES intpos_test.cc exchange_test.cc folder_test.cc
  LIBS balcao_tefdial
  LABELS sanitize)
# The TEF Dial manager driven by the repository's TEF Dial client (tefdial_client.h) over real
# folders, against a counter that keeps the Counter contract.
add_library(balcao_tefdial_client STATIC tefdial_client.cc)
target_link_libraries(balcao_tefdial_client PUBLIC balcao_tefdial_core)
balcao_test(balcao_tefdial_manager_tests
  SOURCES manager_test.cc
  LIBS balcao_tefdial_manager balcao_tefdial_client)
# TEF Dial end to end: the real `balcao serve --tef-dial-dir` and its embedded sandbox, the
# repository's TEF Dial client, and a power cut at each step of the exchange.
balcao_test(balcao_tefdial_serve_tests
  SOURCES tefdial_serve_test.cc
  LIBS balcao_serve_fixture balcao_tefdial_client balcao_tefdial balcao_sandbox balcao_offline balcao_api balcao_common CURL::libcurl
       nlohmann_json::nlohmann_json
  NEEDS_CLI COST 10)
