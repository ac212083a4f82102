// Loopback load generator for the sandbox (docs/performance.md "## sandbox"): starts an
// in-process sandbox (file database, 2 server threads), pre-signs requests (ECDSA costs
// ~30 µs, so signing is kept out of the measured loop; Access-Time stays inside the
// ±5 min window for runs shorter than that), and drives them over keep-alive raw sockets.
//   balcao_sandbox_load [seconds=5] [connections=8]      signed GETs/s, signed POSTs/s
//   balcao_sandbox_load --million [count=1000000]        RSS while storing and paging
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "api/crypto.h"
#include "sandbox/sandbox.h"

namespace {

using Json = nlohmann::json;
using Clock = std::chrono::steady_clock;

long RssKb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

class Connection {
 public:
  explicit Connection(unsigned short port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) std::perror("connect");
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~Connection() { ::close(fd_); }
  // Sends one request, reads one response; returns the status code (0 on failure).
  int RoundTrip(const std::string& request, std::string* body = nullptr) {
    if (::write(fd_, request.data(), request.size()) != static_cast<ssize_t>(request.size())) return 0;
    buf_.clear();
    std::size_t header_end = std::string::npos, need = 0;
    char chunk[65536];
    while (true) {
      auto n = ::read(fd_, chunk, sizeof chunk);
      if (n <= 0) return 0;
      buf_.append(chunk, n);
      if (header_end == std::string::npos) {
        header_end = buf_.find("\r\n\r\n");
        if (header_end == std::string::npos) continue;
        auto cl = buf_.find("Content-Length: ");
        if (cl == std::string::npos) cl = buf_.find("content-length: ");
        need = header_end + 4 + (cl == std::string::npos ? 0 : std::stoul(buf_.substr(cl + 16)));
      }
      if (buf_.size() >= need) break;
      if (need > buf_.capacity()) buf_.reserve(need);
    }
    if (body) *body = buf_.substr(header_end + 4);
    return std::atoi(buf_.c_str() + 9);
  }

 private:
  int fd_;
  std::string buf_;
};

struct Signer {
  std::string access_id;
  balcao::api::PrivateKey key;
  std::string Build(const std::string& method, const std::string& path, const std::string& body) const {
    const std::string time = std::to_string(std::time(nullptr));
    const std::string signature = key.Sign(access_id + ":" + time + ":" + body);
    return method + " " + path +
           " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccess-Id: " + access_id +
           "\r\nAccess-Time: " + time + "\r\nAccess-Signature: " + signature +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Json Invoice(int i) {
  return {{"amount", 1000 + i % 5000},
          {"name", "Load Test Payer"},
          {"taxId", "33745107608"},
          {"tags", {"load", "sale-" + std::to_string(i)}}};
}

// Runs `connections` threads, each cycling through `requests`, for `seconds`.
void Drive(const char* label, unsigned short port, const std::vector<std::string>& requests, int seconds,
           int connections) {
  std::atomic<long> ok{0}, failed{0};
  std::atomic<bool> stop{false};
  std::vector<std::vector<double>> latencies(connections);
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  for (int c = 0; c < connections; ++c) {
    threads.emplace_back([&, c] {
      Connection conn(port);
      std::size_t i = c;
      while (!stop) {
        const auto t0 = Clock::now();
        int status = conn.RoundTrip(requests[i++ % requests.size()]);
        latencies[c].push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        (status == 200 ? ok : failed)++;
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  stop = true;
  for (auto& t : threads) t.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> all;
  for (auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  auto pct = [&](double p) { return all.empty() ? 0 : all[static_cast<std::size_t>(p * (all.size() - 1))]; };
  std::printf("%-28s %8.0f req/s  ok=%ld failed=%ld  p50=%.2f ms  p99=%.2f ms  rss=%ld MB\n", label, ok / elapsed,
              ok.load(), failed.load(), pct(0.5), pct(0.99), RssKb() / 1024);
}

int RunThroughput(int seconds, int connections) {
  balcao::sandbox::SandboxOptions options;
  options.https = false;
  auto sb = balcao::sandbox::Sandbox::Start(options);
  if (!sb.ok()) {
    std::fprintf(stderr, "%s\n", sb.status().ToString().c_str());
    return 2;
  }
  const auto& cred = (*sb)->credentials();
  Signer signer{"project/" + cred.project_id, *balcao::api::PrivateKey::FromPem(ReadFile(cred.private_key_path))};
  const unsigned short port = (*sb)->port();
  // Seed invoices to read.
  Connection setup(port);
  std::vector<std::string> ids;
  for (int b = 0; b < 10; ++b) {
    Json batch = {{"invoices", Json::array()}};
    for (int i = 0; i < 100; ++i) batch["invoices"].push_back(Invoice(b * 100 + i));
    std::string body;
    if (setup.RoundTrip(signer.Build("POST", "/v2/invoice", batch.dump()), &body) != 200) {
      std::fprintf(stderr, "seeding failed: %s\n", body.c_str());
      return 2;
    }
    const Json parsed = Json::parse(body);
    for (const auto& inv : parsed["invoices"]) ids.push_back(inv["id"].get<std::string>());
  }
  if (ids.empty()) {
    std::fprintf(stderr, "seeding returned no invoices\n");
    return 2;
  }
  std::vector<std::string> gets, posts;
  for (const auto& id : ids) gets.push_back(signer.Build("GET", "/v2/invoice/" + id, ""));
  for (int i = 0; i < 2000; ++i)
    posts.push_back(signer.Build("POST", "/v2/invoice", Json{{"invoices", {Invoice(i)}}}.dump()));
  std::vector<std::string> lists;
  for (int i = 0; i < 100; ++i) lists.push_back(signer.Build("GET", "/v2/invoice?limit=10&tags=load", ""));
  Drive("signed GET /v2/invoice/{id}", port, gets, seconds, connections);
  Drive("signed GET list (limit=10)", port, lists, seconds, connections);
  Drive("signed POST 1 invoice", port, posts, seconds, connections);
  (*sb)->Stop();
  return 0;
}

int RunMillion(long count) {
  balcao::sandbox::SandboxOptions options;
  options.https = false;
  auto sb = balcao::sandbox::Sandbox::Start(options);
  if (!sb.ok()) return 2;
  const auto& cred = (*sb)->credentials();
  Signer signer{"project/" + cred.project_id, *balcao::api::PrivateKey::FromPem(ReadFile(cred.private_key_path))};
  const unsigned short port = (*sb)->port();
  std::printf("data dir %s, start rss=%ld MB\n", (*sb)->data_dir().c_str(), RssKb() / 1024);
  const auto start = Clock::now();
  std::atomic<long> created{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Connection conn(port);
      Json batch = {{"invoices", Json::array()}};
      for (int i = 0; i < 100; ++i) batch["invoices"].push_back(Invoice(t * 1000 + i));
      const std::string body = batch.dump();
      while (created.fetch_add(100) < count) {
        if (conn.RoundTrip(signer.Build("POST", "/v2/invoice", body)) != 200) std::fprintf(stderr, "create failed\n");
        long done = created.load();
        if (t == 0 && done % 100000 < 100)
          std::printf("created %ld  rss=%ld MB  %.0f s\n", done, RssKb() / 1024,
                      std::chrono::duration<double>(Clock::now() - start).count());
      }
    });
  }
  for (auto& t : threads) t.join();
  std::printf("stored %ld invoices (plus as many logs) in %.0f s, rss=%ld MB\n", count,
              std::chrono::duration<double>(Clock::now() - start).count(), RssKb() / 1024);
  Connection conn(port);
  std::string cursor, body;
  long seen = 0;
  const auto page_start = Clock::now();
  while (true) {
    std::string path = "/v2/invoice?limit=100" + (cursor.empty() ? "" : "&cursor=" + cursor);
    if (conn.RoundTrip(signer.Build("GET", path, ""), &body) != 200) break;
    Json page = Json::parse(body);
    seen += static_cast<long>(page["invoices"].size());
    if (seen % 100000 == 0) std::printf("paged %ld  rss=%ld MB\n", seen, RssKb() / 1024);
    if (page["cursor"].is_null()) break;
    cursor = page["cursor"].get<std::string>();
  }
  std::printf("paged %ld invoices in %.0f s, rss=%ld MB\n", seen,
              std::chrono::duration<double>(Clock::now() - page_start).count(), RssKb() / 1024);
  (*sb)->Stop();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--million") return RunMillion(argc > 2 ? std::atol(argv[2]) : 1'000'000);
  return RunThroughput(argc > 1 ? std::atoi(argv[1]) : 5, argc > 2 ? std::atoi(argv[2]) : 8);
}
