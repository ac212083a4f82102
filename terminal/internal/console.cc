#include "terminal/internal/console.h"

#include <curl/curl.h>

#include <memory>

#include "common/qr.h"

namespace balcao::terminal {

void DrawQr(const std::string& text, std::FILE* out) {
  const StatusOr<QrMatrix> qr = EncodeQr(text, QrLevel::kM);
  if (!qr.ok()) return;  // empty or too long: nothing to draw
  // A 2-module quiet zone: the terminal's own margin does the rest.
  const int width = qr->size, quiet = 2;
  auto dark = [&](int x, int y) { return qr->dark_or_light(x, y); };
  // Light modules are drawn as full blocks so the code reads on a dark terminal.
  for (int y = -quiet; y < width + quiet; y += 2) {
    std::string line;
    for (int x = -quiet; x < width + quiet; ++x) {
      const bool top = dark(x, y), bottom = dark(x, y + 1);
      line += top && bottom ? " " : top ? "\u2584" : bottom ? "\u2580" : "\u2588";
    }
    std::fprintf(out, "%s\n", line.c_str());
  }
}

SimulationAnswer Simulate(unsigned short sandbox_port, const std::string& route, const std::string& json_body) {
  return PostJson("http://127.0.0.1:" + std::to_string(sandbox_port) + "/sandbox/" + route, json_body, "");
}

SimulationAnswer PostJson(const std::string& url, const std::string& json_body, const std::string& user_agent) {
  SimulationAnswer answer;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), &curl_easy_cleanup);
  if (!curl) return answer;
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(
      curl_slist_append(nullptr, "Content-Type: application/json"), &curl_slist_free_all);
  if (!user_agent.empty()) curl_easy_setopt(curl.get(), CURLOPT_USERAGENT, user_agent.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_POSTFIELDS, json_body.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT, 30L);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &answer.body);
  curl_easy_setopt(
      curl.get(), CURLOPT_WRITEFUNCTION, +[](char* data, size_t size, size_t count, void* user) {
        static_cast<std::string*>(user)->append(data, size * count);
        return size * count;
      });
  if (curl_easy_perform(curl.get()) == CURLE_OK) curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &answer.status);
  return answer;
}

}  // namespace balcao::terminal
