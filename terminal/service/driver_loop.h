// The driver's thread: the checkout driver is single-threaded and its bank calls block, so
// every piece of driver work (API actions, webhook deliveries, outbox reconciliations, timer
// ticks, the event catch-up) is posted to a TaskLoop (common/task_loop.h) and runs one at a
// time, off the io_context.
#pragma once

#include "common/task_loop.h"

namespace balcao::terminal::service {

using DriverLoop = TaskLoop;

}  // namespace balcao::terminal::service
