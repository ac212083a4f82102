// The sale helpers the touchscreen's routes (routes.cc, sale_routes.cc) and the cash registers
// (register_counter.cc) share: a new sale's id, opening it, and reopening one that is not open
// in the driver. Driver thread.
#include <atomic>
#include <cstdio>
#include <ctime>

#include "terminal/service/service_impl.h"

namespace balcao::terminal::service {

std::string MintSaleId(char prefix, UnixMicros now) {
  static std::atomic<unsigned> counter{0};
  std::time_t seconds = static_cast<std::time_t>(now / kMicrosPerSecond);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char id[48];
  std::snprintf(id, sizeof id, "%c%04d%02d%02dt%02d%02d%02d-%x", prefix, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, (static_cast<unsigned>(now % 1000000) << 4) + (counter++ & 0xf));
  std::string text = id;
  // Letters between the digit groups: a run of 13+ digits (dashes allowed) that passes Luhn
  // looks like a card number to the scanners, and the log would mask part of the id.
  for (std::size_t i = 1; i < text.size(); ++i)
    if (text[i] >= 'a' && text[i] <= 'f') text[i] = static_cast<char>('g' + (text[i] - 'a'));
  return text;
}

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
