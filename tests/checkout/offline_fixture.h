// The fixture of the offline-queue end-to-end tests: the driver fixture (driver_fixture.h)
// plus the outbox of the same SQLite store, restarts with the bank reachable (the sandbox) or
// not (a client pointed at a closed loopback port: every call is "not sent"), and a drain by
// the real drainer once the bank is back.
// Thread-safety: one test thread.
#pragma once

#include <memory>
#include <string>

#include "api/client.h"
#include "offline/drainer.h"
#include "offline/outbox.h"
#include "tests/checkout/driver_fixture.h"

namespace balcao::checkout::e2e {

// A client of the sandbox's project whose bank is a loopback port nothing listens on.
api::Client UnreachableClient(const std::string& credentials_path);

class OfflineE2E : public DriverE2E {
 protected:
  void TearDown() override;
  // A restarted process: store, journal, outbox and driver on the same file, the driver
  // given the outbox; its bank is the sandbox, or unreachable.
  void Restart(bool bank_reachable);
  // The drainer once the bank is back: sends every due row until none is left.
  offline::DrainerStats Drain();

  const Customer customer_{"Maria da Silva", "337.451.076-08"};
  std::unique_ptr<offline::Outbox> outbox_;
};

}  // namespace balcao::checkout::e2e
