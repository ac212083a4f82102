// The box's doors (docs/security.md): the HTTP(S) listener of the touchscreen's API, its web
// app, the customer's device pages and the bank's webhook, with who may call what (the access
// policy, access.h) and who is logged in (sessions.h); the cash registers' nexo listener on its
// own HTTPS port (nexo_listener.cc); the TEF Dial folders (tef_dial.cc). Made by Service::Start's
// steps (service.cc); the route table (routes.h) answers what the HTTP listener takes.
// Owns: the listeners, the access policy, the sessions, the device links, the TEF Dial manager.
// Thread-safety: made and stopped by Start/Stop; the rest from the io threads.
#pragma once

#include <memory>
#include <string>

#include "http/server.h"
#include "integration/tefdial/manager.h"
#include "terminal/service/access.h"
#include "terminal/service/device_links.h"
#include "terminal/service/sessions.h"

namespace balcao::terminal::service {

struct Listeners {
  std::unique_ptr<http::Server> server;  // the touchscreen's API, the web app, the webhook
  std::unique_ptr<AccessPolicy> access;
  std::unique_ptr<Sessions> sessions;
  std::unique_ptr<DeviceLinks> devices;  // the customer's device for 3-D Secure
  std::unique_ptr<http::Server> nexo;    // the cash registers' HTTPS port; null when closed
  unsigned short nexo_port = 0;
  std::unique_ptr<integration::tefdial::Manager> tef_dial;  // null when off
  std::string tef_dial_dir;                                 // its folder, absolute; "" when off
};

}  // namespace balcao::terminal::service
