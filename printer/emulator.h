// The virtual printer on the network: accepts raw ESC/POS on a TCP port (one client at a
// time, as real printers do), interprets it, answers status queries, and writes each job
// (split at cuts, or at connection close) as DIR/job-NNNNNN.{txt,png,json}; the .json is
// written last, so its presence means the job is complete. `balcao printer-emulator`.
// Thread-safety: Start/Stop from one thread; set_state and counters from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "printer/interpreter.h"

namespace balcao::printer {

struct EmulatorOptions {
  std::string address = "127.0.0.1";
  unsigned short port = 9100;  // 0 = any free port (see Start's result)
  std::string out_dir;         // created if missing
  InterpreterOptions interpreter;
  bool write_png = true;
  // Fault injection: after this many bytes of one connection the printer "loses power":
  // the connection is reset, the job in progress is lost and no further connection is
  // accepted until the server is started again. 0 = never.
  std::uint64_t die_after_bytes = 0;
};

class VirtualPrinterServer {
 public:
  explicit VirtualPrinterServer(EmulatorOptions options);
  ~VirtualPrinterServer();  // Stop()
  VirtualPrinterServer(const VirtualPrinterServer&) = delete;
  VirtualPrinterServer& operator=(const VirtualPrinterServer&) = delete;

  // Binds and starts serving on a background thread; returns the bound port. Job numbers
  // continue after the highest job already in out_dir.
  StatusOr<unsigned short> Start();
  // Stops accepting and drops the connection in progress (like switching the printer off).
  void Stop();
  void set_state(const PrinterState& state);
  int jobs_written() const;
  bool dead() const;               // die_after_bytes was reached
  std::string last_error() const;  // e.g. a job file that could not be written

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace balcao::printer
