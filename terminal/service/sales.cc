// The sale helpers the touchscreen's routes (routes.cc, sale_routes.cc) and the cash registers
// (register_counter.cc) share: opening a new sale (its id: checkout/sale_id.h), and reopening one
// that is not open in the driver. Driver thread.
#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {

std::optional<Service::Impl::OpenRefusal> Service::Impl::OpenNewSale(const std::string& sale_id, checkout::Cents cents,
                                                                     UnixMicros now) {
  if (Status added = book->Add(sale_id, cents, now); !added.ok()) return OpenRefusal{true, added};
  auto sale = driver->Open(sale_id, cents, config.settings);
  if (!sale.ok()) return OpenRefusal{false, sale.status()};
  touched.insert(sale_id);
  return std::nullopt;
}

Status Service::Impl::EnsureOpen(const std::string& sale_id) {
  if (open_sales.count(sale_id) || driver->Get(sale_id).ok()) return OkStatus();
  if (!book->Knows(sale_id)) return NotFoundError("no sale " + sale_id + " on this box");
  return driver->Resume(sale_id).status();
}

}  // namespace balcao::terminal::service
