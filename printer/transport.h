// Transports move one rendered job to a printer: raw TCP 9100 (with DLE EOT status before
// and after the job), a device file such as /dev/usb/lp0, a plain file (appended), or a
// CUPS raw queue through `lp`. Timeouts scale with the job's length so a long receipt is
// never cut short by a fixed deadline.
// Thread-safety: a Transport is used by one thread at a time; OpenTransport is thread-safe.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

namespace balcao::printer {

// What DLE EOT 1/2/4 said. known = false when there was no (valid) answer: one-way links
// (file, CUPS) and printers that stay silent. "No answer" is never read as "OK".
struct PrinterStatus {
  bool known = false;
  bool offline = false;
  bool cover_open = false;
  bool paper_out = false;
  bool paper_near_end = false;
  bool error = false;
  bool drawer_open = false;
  // Stops a job: offline, cover open, paper out or an error.
  bool blocks_printing() const { return known && (offline || cover_open || paper_out || error); }
  // "paper out", "cover open", "offline", "printer error", "ok", "unknown" (joined by ", ").
  std::string Describe() const;
};
// From the reply bytes to DLE EOT 1, 2 and 4 (-1 = not answered). A byte that does not
// match the 0xx1xx10 frame counts as not answered.
PrinterStatus ParseStatusReplies(int printer, int offline_cause, int roll_paper);

struct SendOptions {
  std::chrono::milliseconds connect_timeout{3000};
  std::chrono::milliseconds status_timeout{1000};  // per DLE EOT reply
  // Write deadline = write_base + job bytes at min_bytes_per_second (a slow thermal printer
  // printing text drains about 1 KB/s): 300 lines of 48 columns get ~20 s, not 3.
  std::chrono::milliseconds write_base{5000};
  int min_bytes_per_second = 1000;
  bool query_status = true;  // DLE EOT before and after (two-way links only)
};
std::chrono::milliseconds WriteDeadline(std::size_t job_bytes, const SendOptions& options);

struct SendReport {
  PrinterStatus before;
  PrinterStatus after;
};

class Transport {
 public:
  virtual ~Transport() = default;
  // Sends one whole job. OK when every byte was delivered and the printer reported no
  // stopping condition before or after. Errors: kUnavailable (printer unreachable or went
  // away: retry when it returns), kFailedPrecondition (paper out, cover open, offline:
  // someone must act), kDeadlineExceeded (write stalled: the job may be partly printed).
  virtual StatusOr<SendReport> Send(std::string_view job, const SendOptions& options) = 0;
  // Status only, nothing printed: "is the printer back?".
  virtual StatusOr<PrinterStatus> Probe(const SendOptions& options) = 0;
  virtual const std::string& target() const = 0;
};

// "tcp://host:port" (port defaults to 9100), "file:/dev/usb/lp0", "file:/path/job.bin",
// "cups:QUEUE". kInvalidArgument naming the rule for anything else.
StatusOr<std::unique_ptr<Transport>> OpenTransport(const std::string& target);

// The TCP transport directly (used by OpenTransport).
std::unique_ptr<Transport> MakeTcpTransport(std::string target, std::string host, std::string port);

}  // namespace balcao::printer
