// The seeded store's own webhook receiver (docs/sandbox.md, "A seeded account"):
// POST /sandbox/webhook-receiver answers 200 to any event delivery and keeps nothing, so the
// webhook the seeded account still has on its last day is delivered to a live address
// without the internet. The deliveries themselves stay visible in
// GET /sandbox/webhook-deliveries.
#include "sandbox/internal/family.h"

namespace balcao::sandbox::internal {
namespace {

Json Receive(Context&, const Json&, Problems&) { return Json{{"received", true}}; }

}  // namespace

BALCAO_SANDBOX_FAMILY(webhook_receiver) { registry.AddSimulation("webhook-receiver", Receive); }

}  // namespace balcao::sandbox::internal
