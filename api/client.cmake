# The bank API client: credentials, transport, error mapping,
# models, generic resource operations. JSON conversions are compiled in three TUs only
# (json_codec, models_json, operations) plus two small readers (http_status, credentials).
target_sources(balcao_api PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/bank_clock.cc
  ${CMAKE_CURRENT_LIST_DIR}/client.cc
  ${CMAKE_CURRENT_LIST_DIR}/credentials.cc
  ${CMAKE_CURRENT_LIST_DIR}/query.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/curl_transport.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/http_status.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/json_codec.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/json_reader.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/models_json.cc
  ${CMAKE_CURRENT_LIST_DIR}/internal/operations.cc)
target_link_libraries(balcao_api PUBLIC CURL::libcurl nlohmann_json::nlohmann_json)
