// A TEF Dial client as a PDV built on ACBr's TEF Dial class behaves (its rules are listed in
// docs/integration.md, "What a PDV does"): every request is written to IntPos.tmp and renamed to
// IntPos.001; the status file is awaited at most 7 s, polling every 250 ms; every request has a
// new id and an answer with another id is ignored; an approved CRT is kept in a backup file
// until its CNF or NCN went out; at start-up a backup still pending is undone with NCN (the
// fiscal receipt was never finished), and a response found in resp/ with no backup is too.
// For the tests of the TEF Dial manager. Thread-safety: one thread.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "integration/tefdial/intpos.h"

namespace balcao::tefdial_testing {

using integration::tefdial::FieldKey;
using integration::tefdial::IntPos;

struct ClientOptions {
  std::filesystem::path dir;         // holds req/ and resp/
  std::filesystem::path state_file;  // the PDV's own backup (its last approved CRT, its id counter)
  bool lower_case = false;           // intpos.001 / intpos.sts, as ACBr's TEF Dial defaults are spelled
  bool lf = false;                   // LF line ends instead of CRLF
  std::chrono::milliseconds status_wait{7000};
  std::chrono::milliseconds poll{250};
};

class TefDialClient {
 public:
  explicit TefDialClient(ClientOptions options);

  // ATV: true when the status file came within the wait.
  bool Active();
  // CRT of `cents` for fiscal document `document`; waits for the response at most `wait`.
  // The approved response is saved as pending in the backup before it is returned.
  // kUnavailable when no status file came (the manager is not active); kDeadlineExceeded when
  // the response did not come in `wait`.
  StatusOr<IntPos> Crt(long long cents, const std::string& document,
                       std::chrono::milliseconds wait = std::chrono::seconds(60));
  // CNF / NCN of an approved CRT's response (010-000, 012-000, 027-000); clear the backup.
  Status Cnf(const IntPos& approved);
  Status Ncn(const IntPos& approved);
  // CNC of a confirmed sale (network, NSU, date, time and amount of its response).
  StatusOr<IntPos> Cnc(const IntPos& approved, std::chrono::milliseconds wait = std::chrono::seconds(60));
  // ADM: the administrative menu's answer.
  StatusOr<IntPos> Adm(std::chrono::milliseconds wait = std::chrono::seconds(30));
  // Start-up: the backup's pending sale, or a response left in resp/ for the last CRT, is
  // undone with NCN. Returns the NSU undone, nullopt when nothing was pending.
  StatusOr<std::optional<std::string>> Recover();

  // Sends any request (`fields` without 000/001/999) and waits only for its status file.
  Status Send(const std::string& command, const std::vector<std::pair<FieldKey, std::string>>& fields);
  // How long the last status file took to appear.
  std::chrono::microseconds last_status_latency() const { return last_latency_; }
  std::string last_id() const { return std::to_string(id_); }
  // Writes the next request but does not wait for anything (a PDV killed right after).
  void SendWithoutWaiting(const std::string& command, const std::vector<std::pair<FieldKey, std::string>>& fields);
  // Waits for a response file with the last request's id (at most `wait`).
  StatusOr<IntPos> AwaitResponse(std::chrono::milliseconds wait);

 private:
  std::filesystem::path Req(const char* upper, const char* lower) const;
  std::filesystem::path Resp(const char* upper, const char* lower) const;
  void Write(const std::string& command, const std::vector<std::pair<FieldKey, std::string>>& fields);
  void SaveState(const std::optional<IntPos>& pending);
  std::optional<IntPos> LoadPending();

  ClientOptions options_;
  long long id_ = 0;
  std::string command_;
  std::chrono::microseconds last_latency_{0};
};

}  // namespace balcao::tefdial_testing
