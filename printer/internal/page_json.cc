// VirtualPage::Json: the one TU of the printer that uses nlohmann.
#include <nlohmann/json.hpp>

#include "printer/interpreter.h"

namespace balcao::printer {

std::string VirtualPage::Json() const {
  nlohmann::json j;
  j["lines"] = lines.size();
  j["qr_payloads"] = qr_payloads;
  nlohmann::json images = nlohmann::json::array();
  for (const RasterImage& i : this->images) {
    images.push_back({{"x", i.x}, {"y", i.y}, {"width", i.width}, {"height", i.height}});
  }
  j["raster_images"] = images;
  j["barcodes"] = barcodes;
  j["cut"] = cut;
  j["drawer_kicks"] = drawer_kicks;
  nlohmann::json queries = nlohmann::json::array();
  for (const StatusQuery& q : status_queries) queries.push_back({{"command", q.command}, {"reply", q.reply}});
  j["status_queries"] = queries;
  j["code_tables"] = code_tables;
  j["high_bytes_before_code_table"] = high_bytes_before_code_table;
  j["notes"] = notes;
  // Payloads are bytes; invalid UTF-8 (garbage input) is replaced rather than thrown on.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace balcao::printer
