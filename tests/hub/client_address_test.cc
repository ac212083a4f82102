// Whose request it is behind the proxy (hub/client_address.h): X-Forwarded-For only from a
// trusted proxy, read from the right.
#include "hub/client_address.h"

#include <gtest/gtest.h>

namespace balcao::hub {
namespace {

http::HttpRequest From(const std::string& peer, std::vector<std::string> forwarded) {
  http::HttpRequest request;
  request.remote_address = peer;
  for (std::string& line : forwarded) request.headers.emplace_back("x-forwarded-for", std::move(line));
  return request;
}

const std::vector<std::string> kCaddy = {"127.0.0.1", "::1"};

TEST(ClientAddress, ThroughTheProxyTheClientIsTheAddressTheProxySaw) {
  EXPECT_EQ(ClientAddress(From("127.0.0.1", {"203.0.113.7"}), kCaddy), "203.0.113.7");
  // A client that writes its own X-Forwarded-For: the proxy appends what it saw, which wins.
  EXPECT_EQ(ClientAddress(From("127.0.0.1", {"10.9.9.9, 203.0.113.7"}), kCaddy), "203.0.113.7");
  EXPECT_EQ(ClientAddress(From("127.0.0.1", {"10.9.9.9", "203.0.113.7"}), kCaddy), "203.0.113.7");
  EXPECT_EQ(ClientAddress(From("::1", {"2001:db8::5 "}), kCaddy), "2001:db8::5");
}

TEST(ClientAddress, NotThroughTheProxyTheHeaderIsIgnored) {
  EXPECT_EQ(ClientAddress(From("198.51.100.4", {"203.0.113.7"}), kCaddy), "198.51.100.4");
  EXPECT_EQ(ClientAddress(From("198.51.100.4", {}), {}), "198.51.100.4");
}

TEST(ClientAddress, NoClientBeyondTheProxiesIsTheProxy) {
  EXPECT_EQ(ClientAddress(From("127.0.0.1", {}), kCaddy), "127.0.0.1");
  EXPECT_EQ(ClientAddress(From("127.0.0.1", {"127.0.0.1, "}), kCaddy), "127.0.0.1");
}

}  // namespace
}  // namespace balcao::hub
