// Unsigned requests to the in-process sandbox's simulation API (/sandbox/...), shared by
// the tests that drive it (faults, clock): plain libcurl, no client, no signature.
#pragma once

#include <curl/curl.h>

#include <string>

namespace balcao::offline::testing {

// Returns the HTTP status, or 0 when the request did not complete.
inline long Simulation(const std::string& method, const std::string& url, const std::string& body) {
  CURL* curl = curl_easy_init();
  curl_slist* headers = curl_slist_append(nullptr, "Content-Type: application/json");
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
  if (!body.empty()) curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(
      curl, CURLOPT_WRITEFUNCTION, +[](char*, size_t s, size_t n, void*) { return s * n; });
  long status = 0;
  if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return status;
}

}  // namespace balcao::offline::testing
