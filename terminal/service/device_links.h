// The customer's own device for 3-D Secure (docs/terminal.md, "3-D Secure"): the touchscreen
// shows a QR of a one-sale link (POST /api/sales/{id}/device-link); the customer's phone opens
// it (GET /device/<token>: terminal/web/device.html), and its page reports its language, screen
// and timezone (POST /device/<token>); the service adds the phone's User-Agent and address as
// it sees them. The card purchase of that sale then carries the phone's data instead of the
// touchscreen's. Links live in memory, one per sale (a new one replaces it), until the service
// stops. (device_page.cc)
// Owns: the links and the devices' reports. Calls: nothing.
// Thread-safety: any thread (io threads and the driver's); mu_ guards the links and reports.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "checkout/driver/driver.h"
#include "http/server.h"

namespace balcao::terminal::service {

class DeviceLinks {
 public:
  // The phone reaches the box by the first of `host_names` on `port` when there is one, else by
  // the Host the touchscreen used; https under `tls`.
  DeviceLinks(std::vector<std::string> host_names, unsigned short port, bool tls)
      : host_names_(std::move(host_names)), port_(port), tls_(tls) {}

  // A new link for `sale_id` (replacing its earlier one): {"url", "qr_svg"}.
  http::HttpResponse Link(const http::HttpRequest& request, const std::string& sale_id);
  // GET /device/<token> (the page), POST /device/<token> (its report).
  http::HttpResponse Page(const http::HttpRequest& request);
  // What the sale's device reported, if anything.
  std::optional<checkout::BrowserData> Of(const std::string& sale_id);

 private:
  const std::vector<std::string> host_names_;
  const unsigned short port_;
  const bool tls_;
  std::mutex mu_;
  std::map<std::string, std::string> tokens_;             // guarded by mu_: link token -> sale id
  std::map<std::string, checkout::BrowserData> devices_;  // guarded by mu_: sale id -> its device
};

}  // namespace balcao::terminal::service
