// The exchange log: every TEF Dial event (exchange.h) appended as one JSON line to a file in the
// data dir, fsync'ed before Append returns, and replayed at start. It is what "journaled" means
// for the two-phase confirmation: pending, confirmed and undone sales, the NSU sequence and
// the answers repeats get. Crash contract: when Append returns OK the event survives power
// loss; a last line torn by a power cut was never acknowledged, so Open drops it.
// No card data goes in (the mask only). Thread-safety: not thread-safe; one owner thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/status.h"
#include "integration/tefdial/exchange.h"

namespace balcao::integration::tefdial {

// One event as its JSON line (without the newline), and back.
std::string EventToJson(const Event& event);
StatusOr<Event> EventFromJson(const std::string& line);

class ExchangeLog {
 public:
  // Opens (creating it with mode 0600) the log at `path` and replays it into `exchange`.
  // kDataLoss when a line other than the last does not parse; kFailedPrecondition when the
  // file cannot be opened. `skipped` counts events that did not apply (logged by the caller).
  static StatusOr<std::unique_ptr<ExchangeLog>> Open(const std::string& path, Exchange& exchange,
                                                     int* skipped = nullptr);
  ~ExchangeLog();
  ExchangeLog(const ExchangeLog&) = delete;
  ExchangeLog& operator=(const ExchangeLog&) = delete;

  // Appends the event durably, then applies it to `exchange`. The event is appended only
  // when it applies (kFailedPrecondition / kNotFound otherwise, nothing written).
  Status Append(Exchange& exchange, const Event& event);
  const std::string& path() const { return path_; }

 private:
  ExchangeLog(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  std::string path_;
  int fd_ = -1;
};

// Reads a log without opening it for writing (the nightly settlement, beside the service).
// A missing file is an empty exchange.
StatusOr<Exchange> ReadExchangeLog(const std::string& path);

}  // namespace balcao::integration::tefdial
