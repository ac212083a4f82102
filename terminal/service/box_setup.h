// What `balcao serve` was started as (service.cc, Service::Start): the options against the
// config, the printer, the lane, and the listener it got. Plain facts, set once during the start
// and read-only afterwards: every part is given what it reads of them through its constructor.
// Thread-safety: read from any thread after the start.
#pragma once

#include <string>

#include "printer/profile.h"
#include "terminal/service/config.h"
#include "terminal/service/lane_identity.h"
#include "terminal/service/service.h"

namespace balcao::terminal::service {

struct BoxSetup {
  ServeOptions options;  // resolved against the config: the data dir is absolute
  ServeConfig config;
  std::string printer_target;  // where the receipts go (printer/transport.h)
  const printer::PrinterProfile* profile = nullptr;
  LaneIdentity lane;            // which lane of which store (config.settings.lane is its root)
  unsigned short port = 0;      // the HTTP(S) listener's
  bool tls = false;             // the listener is TLS
  std::string tls_fingerprint;  // of its certificate, "" without TLS
};

}  // namespace balcao::terminal::service
