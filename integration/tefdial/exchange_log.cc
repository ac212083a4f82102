#include "integration/tefdial/exchange_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace balcao::integration::tefdial {
namespace {

using nlohmann::json;

json ApprovalJson(const Approval& a) {
  return {{"method", a.method},
          {"authorization", a.authorization},
          {"card_mask", a.card_mask},
          {"brand", a.brand},
          {"funding", a.funding},
          {"installments", a.installments},
          {"at", a.at}};
}
Approval ApprovalOf(const json& j) {
  Approval a;
  a.method = j.at("method").get<std::string>();
  a.authorization = j.at("authorization").get<std::string>();
  a.card_mask = j.at("card_mask").get<std::string>();
  a.brand = j.value("brand", "");  // absent in logs written before it was kept
  a.funding = j.at("funding").get<std::string>();
  a.installments = j.at("installments").get<int>();
  a.at = j.at("at").get<UnixMicros>();
  return a;
}

std::string Text(const json& j, const char* key) { return j.at(key).get<std::string>(); }

StatusOr<Exchange> Replay(std::istream& in, bool tolerate_torn_tail, int* skipped, std::streamoff* good_bytes) {
  Exchange exchange;
  std::string line;
  std::streamoff good = 0;
  int applied_failures = 0;
  while (std::getline(in, line)) {
    const bool complete = !in.eof();
    auto event = EventFromJson(line);
    if (!event.ok() || !complete) {
      if (in.peek() == std::char_traits<char>::eof() && tolerate_torn_tail) break;  // torn last line
      if (!event.ok())
        return DataLossError("exchange log: a line in the middle does not parse: " + event.status().message());
    }
    if (!Apply(exchange, *event).ok()) ++applied_failures;
    good += static_cast<std::streamoff>(line.size()) + 1;
  }
  if (skipped != nullptr) *skipped = applied_failures;
  if (good_bytes != nullptr) *good_bytes = good;
  return exchange;
}

}  // namespace

std::string EventToJson(const Event& event) {
  json j = std::visit(
      [](const auto& e) -> json {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, CrtOpened>) {
          return {{"event", "crt-opened"},
                  {"key", e.key},
                  {"request_id", e.request_id},
                  {"fiscal_document", e.fiscal_document},
                  {"amount", e.amount},
                  {"response_name", e.response_name},
                  {"at", e.at}};
        } else if constexpr (std::is_same_v<T, SaleApproved>) {
          return {{"event", "approved"},
                  {"key", e.key},
                  {"sale_id", e.sale_id},
                  {"nsu", e.nsu},
                  {"approval", ApprovalJson(e.approval)}};
        } else if constexpr (std::is_same_v<T, SaleDeclined>) {
          return {{"event", "declined"}, {"key", e.key}, {"sale_id", e.sale_id}, {"message", e.message}, {"at", e.at}};
        } else if constexpr (std::is_same_v<T, Confirmed>) {
          return {{"event", "confirmed"}, {"sale_id", e.sale_id}, {"by", e.by}, {"at", e.at}};
        } else if constexpr (std::is_same_v<T, UndoStarted>) {
          return {{"event", "undo-started"}, {"sale_id", e.sale_id}, {"by", e.by}, {"at", e.at}};
        } else if constexpr (std::is_same_v<T, Undone>) {
          return {{"event", "undone"}, {"sale_id", e.sale_id}, {"at", e.at}};
        } else if constexpr (std::is_same_v<T, CancelStarted>) {
          return {{"event", "cancel-started"},        {"sale_id", e.sale_id},
                  {"request_key", e.request_key},     {"request_id", e.request_id},
                  {"response_name", e.response_name}, {"at", e.at}};
        } else if constexpr (std::is_same_v<T, Cancelled>) {
          return {{"event", "cancelled"}, {"sale_id", e.sale_id}, {"at", e.at}};
        } else {
          return {{"event", "answered"}, {"request_key", e.request_key}, {"text", e.text}};
        }
      },
      event);
  return j.dump(-1, ' ', true, json::error_handler_t::replace);
}

StatusOr<Event> EventFromJson(const std::string& line) {
  const json j = json::parse(line, nullptr, false);
  if (!j.is_object() || !j.contains("event") || !j["event"].is_string())
    return InvalidArgumentError("not an exchange event: " + line.substr(0, 60));
  try {
    const std::string kind = Text(j, "event");
    if (kind == "crt-opened")
      return Event{CrtOpened{Text(j, "key"), Text(j, "request_id"), Text(j, "fiscal_document"),
                             j.at("amount").get<Cents>(), Text(j, "response_name"), j.at("at").get<UnixMicros>()}};
    if (kind == "approved")
      return Event{SaleApproved{Text(j, "key"), Text(j, "sale_id"), Text(j, "nsu"), ApprovalOf(j.at("approval"))}};
    if (kind == "declined")
      return Event{SaleDeclined{Text(j, "key"), Text(j, "sale_id"), Text(j, "message"), j.at("at").get<UnixMicros>()}};
    if (kind == "confirmed") return Event{Confirmed{Text(j, "sale_id"), Text(j, "by"), j.at("at").get<UnixMicros>()}};
    if (kind == "undo-started")
      return Event{UndoStarted{Text(j, "sale_id"), Text(j, "by"), j.at("at").get<UnixMicros>()}};
    if (kind == "undone") return Event{Undone{Text(j, "sale_id"), j.at("at").get<UnixMicros>()}};
    if (kind == "cancel-started")
      return Event{CancelStarted{Text(j, "sale_id"), Text(j, "request_key"), Text(j, "request_id"),
                                 Text(j, "response_name"), j.at("at").get<UnixMicros>()}};
    if (kind == "cancelled") return Event{Cancelled{Text(j, "sale_id"), j.at("at").get<UnixMicros>()}};
    if (kind == "answered") return Event{Answered{Text(j, "request_key"), Text(j, "text")}};
    return InvalidArgumentError("unknown exchange event '" + kind + "'");
  } catch (const json::exception& e) {
    return InvalidArgumentError(std::string("exchange event: ") + e.what());
  }
}

StatusOr<std::unique_ptr<ExchangeLog>> ExchangeLog::Open(const std::string& path, Exchange& exchange, int* skipped) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return FailedPreconditionError("cannot open the exchange log " + path + ": " + std::strerror(errno));
  std::ifstream in(path, std::ios::binary);
  std::streamoff good = 0;
  auto replayed = Replay(in, true, skipped, &good);
  if (!replayed.ok()) {
    ::close(fd);
    return replayed.status();
  }
  // Drops a torn last line, so that the next append starts a line of its own.
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size != good) {
    if (::ftruncate(fd, good) != 0 || ::fsync(fd) != 0) {
      ::close(fd);
      return FailedPreconditionError("cannot drop the torn end of " + path);
    }
  }
  ::lseek(fd, 0, SEEK_END);
  exchange = *std::move(replayed);
  return std::unique_ptr<ExchangeLog>(new ExchangeLog(path, fd));
}

ExchangeLog::~ExchangeLog() {
  if (fd_ >= 0) ::close(fd_);
}

Status ExchangeLog::Append(Exchange& exchange, const Event& event) {
  Exchange next = exchange;
  BALCAO_RETURN_IF_ERROR(Apply(next, event));
  const std::string line = EventToJson(event) + "\n";
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return UnavailableError("exchange log " + path_ + ": write failed: " + std::strerror(errno));
    written += static_cast<std::size_t>(n);
  }
  if (::fdatasync(fd_) != 0) return UnavailableError("exchange log " + path_ + ": fdatasync failed");
  exchange = std::move(next);
  return OkStatus();
}

StatusOr<Exchange> ReadExchangeLog(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Exchange{};
  return Replay(in, true, nullptr, nullptr);
}

}  // namespace balcao::integration::tefdial
