// One accepted connection, plain or TLS, served until it closes (connection.cc is the one TU
// of balcao_http with Beast). Shape of Beast's advanced_server_flex (1.74): a session template
// over the stream, a strand per connection, a fresh parser per request, one request at a time.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <memory>

#include "http/internal/connection_set.h"
#include "http/server.h"

namespace boost::asio::ssl {
class context;
}

namespace balcao::http::internal {

// What every connection of one server shares.
struct Shared {
  ServerOptions options;
  Handler handler;
  ConnectionSet connections;
};

// Serves `socket` (its executor a strand of its own); over TLS when `tls` is given.
void ServeConnection(std::shared_ptr<Shared> shared, boost::asio::ip::tcp::socket socket,
                     boost::asio::ssl::context* tls);

}  // namespace balcao::http::internal
