#include "offline/night_runs.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/private_file.h"

namespace balcao::offline {
namespace {

constexpr std::size_t kDaysKept = 31;

Status Write(const std::string& data_dir, const std::vector<FailedNight>& nights) {
  const std::string path = FailedNightsPath(data_dir);
  if (nights.empty()) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (ec) return FailedPreconditionError("cannot remove " + path + ": " + ec.message());
    return OkStatus();
  }
  nlohmann::json list = nlohmann::json::array();
  for (const FailedNight& n : nights) list.push_back({{"day", n.day}, {"at_ms", n.at_ms}, {"reason", n.reason}});
  return WritePrivateFile(
      path,
      nlohmann::json{{"failed_nights", list}}.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace

std::string FailedNightsPath(const std::string& data_dir) {
  return (std::filesystem::path(data_dir) / "settle-failed.json").string();
}

StatusOr<std::vector<FailedNight>> ReadFailedNights(const std::string& data_dir) {
  const std::string path = FailedNightsPath(data_dir);
  std::ifstream in(path);
  std::vector<FailedNight> nights;
  if (!in) return nights;
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
  if (!doc.is_object() || !doc.contains("failed_nights") || !doc["failed_nights"].is_array())
    return InvalidArgumentError(path + ": not a list of failed nights (\"failed_nights\": [...])");
  for (const nlohmann::json& n : doc["failed_nights"]) {
    if (!n.is_object() || !n.value("day", nlohmann::json()).is_string() ||
        !n.value("at_ms", nlohmann::json()).is_number_integer() || !n.value("reason", nlohmann::json()).is_string())
      return InvalidArgumentError(path + ": each failed night needs day (text), at_ms (integer) and reason (text)");
    nights.push_back({n["day"].get<std::string>(), n["at_ms"].get<std::int64_t>(), n["reason"].get<std::string>()});
  }
  return nights;
}

Status RecordFailedNight(const std::string& data_dir, const FailedNight& night) {
  BALCAO_ASSIGN_OR_RETURN(std::vector<FailedNight> nights, ReadFailedNights(data_dir));
  std::erase_if(nights, [&](const FailedNight& n) { return n.day == night.day; });
  nights.push_back(night);
  std::sort(nights.begin(), nights.end(), [](const auto& a, const auto& b) { return a.day < b.day; });
  if (nights.size() > kDaysKept) nights.erase(nights.begin(), nights.end() - kDaysKept);
  return Write(data_dir, nights);
}

Status ClearFailedNight(const std::string& data_dir, const std::string& day) {
  BALCAO_ASSIGN_OR_RETURN(std::vector<FailedNight> nights, ReadFailedNights(data_dir));
  const std::size_t before = nights.size();
  std::erase_if(nights, [&](const FailedNight& n) { return n.day == day; });
  if (nights.size() == before) return OkStatus();
  return Write(data_dir, nights);
}

}  // namespace balcao::offline
