#include "terminal/service/access.h"

#include <algorithm>
#include <cctype>

namespace balcao::terminal::service {
namespace {

std::string LowerAscii(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

AccessPolicy::AccessPolicy(unsigned short port, const std::vector<std::string>& names, bool tls) {
  const std::string suffix = ":" + std::to_string(port);
  std::vector<std::string> all = {"127.0.0.1", "localhost", "[::1]"};
  all.insert(all.end(), names.begin(), names.end());
  for (const std::string& name : all) {
    const bool has_port = name.find(':') != std::string::npos && name.back() != ']';
    const std::string host = LowerAscii(has_port ? name : name + suffix);
    if (!Contains(hosts_, host)) hosts_.push_back(host);
    origins_.push_back((tls ? "https://" : "http://") + host);
    // A browser leaves the default port out of Origin.
    if ((tls && host.ends_with(":443")) || (!tls && host.ends_with(":80")))
      origins_.push_back((tls ? "https://" : "http://") + host.substr(0, host.rfind(':')));
  }
}

Audience AccessPolicy::AudienceOf(std::string_view path) {
  if (path == kWebhookPath) return Audience::kBank;
  if (path.rfind("/api/", 0) != 0) return Audience::kAnyone;  // the web app, /healthz, /readyz, /metrics
  if (path == "/api/login" || path == "/api/session") return Audience::kAnyone;
  return Audience::kOperator;
}

std::optional<Denial> AccessPolicy::Check(const RequestFacts& r) const {
  if (!Contains(hosts_, LowerAscii(r.host)))
    return Denial{421, "Host", "this service answers only as " + hosts_.front() + " (or a configured name)"};
  const bool reads = r.method == "GET" || r.method == "HEAD";
  const Audience audience = r.audience.value_or(AudienceOf(r.path));
  if (!reads && audience != Audience::kBank) {
    const std::string type = LowerAscii(r.content_type.substr(0, r.content_type.find(';')));
    if (type != "application/json") return Denial{403, "Content-Type", "must be application/json"};
    if (!r.origin.empty() && !Contains(origins_, LowerAscii(r.origin)))
      return Denial{403, "Origin", "a page of another site may not call this service"};
  }
  if ((audience == Audience::kOperator || audience == Audience::kSupervisor) && !r.has_session)
    return Denial{401, "session", "log in first (POST /api/login)"};
  return std::nullopt;
}

}  // namespace balcao::terminal::service
