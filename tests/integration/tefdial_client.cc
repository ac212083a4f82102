#include "tests/integration/tefdial_client.h"

#include <fstream>
#include <sstream>
#include <thread>

namespace balcao::tefdial_testing {
namespace {

namespace fs = std::filesystem;
namespace field = integration::tefdial::field;
using Clock = std::chrono::steady_clock;

std::optional<std::string> ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TefDialClient::TefDialClient(ClientOptions options) : options_(std::move(options)) {
  // ACBr starts its ids at the second of the day; the backup keeps the last one across restarts.
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  id_ = std::chrono::duration_cast<std::chrono::seconds>(now).count() % 86400;
  if (auto saved = ReadFile(options_.state_file)) {
    auto state = integration::tefdial::Parse(*saved);
    if (state.ok() && !state->Get({899, 500}).empty()) id_ = std::max(id_, std::stoll(state->Get({899, 500})));
  }
}

fs::path TefDialClient::Req(const char* upper, const char* lower) const {
  return options_.dir / "req" / (options_.lower_case ? lower : upper);
}
fs::path TefDialClient::Resp(const char* upper, const char* lower) const {
  return options_.dir / "resp" / (options_.lower_case ? lower : upper);
}

void TefDialClient::Write(const std::string& command, const std::vector<std::pair<FieldKey, std::string>>& fields) {
  // Before each request the PDV clears what the last one left (ACBr: ApagaEVerifica).
  std::error_code ec;
  fs::remove(Resp("IntPos.Sts", "intpos.sts"), ec);
  fs::remove(Resp("IntPos.001", "intpos.001"), ec);
  command_ = command;
  ++id_;
  std::string text = "000-000 = " + command + "\r\n001-000 = " + std::to_string(id_) + "\r\n";
  for (const auto& [key, value] : fields) text += integration::tefdial::KeyText(key) + " = " + value + "\r\n";
  text += "999-999 = 0\r\n";
  if (options_.lf) {
    std::string lf;
    for (char c : text)
      if (c != '\r') lf += c;
    text = lf;
  }
  const fs::path temp = Req("IntPos.tmp", "intpos.tmp");
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
  }
  fs::rename(temp, Req("IntPos.001", "intpos.001"));
}

void TefDialClient::SendWithoutWaiting(const std::string& command,
                                       const std::vector<std::pair<FieldKey, std::string>>& fields) {
  Write(command, fields);
  SaveState(LoadPending());
}

Status TefDialClient::Send(const std::string& command, const std::vector<std::pair<FieldKey, std::string>>& fields) {
  const auto started = Clock::now();
  Write(command, fields);
  const fs::path sts = Resp("IntPos.Sts", "intpos.sts");
  while (Clock::now() - started < options_.status_wait) {
    if (auto text = ReadFile(sts)) {
      auto status = integration::tefdial::Parse(*text);
      if (status.ok() && status->Get(field::kId) == std::to_string(id_) && status->Get(field::kCommand) == command &&
          status->Has(field::kTrailer)) {
        last_latency_ = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started);
        fs::remove(sts);
        return OkStatus();
      }
    }
    std::this_thread::sleep_for(options_.poll);
  }
  std::error_code ec;
  fs::remove(Req("IntPos.001", "intpos.001"), ec);  // the manager is not active: take the request back
  return UnavailableError("no status file within " + std::to_string(options_.status_wait.count()) + " ms for " +
                          command + " " + std::to_string(id_));
}

StatusOr<IntPos> TefDialClient::AwaitResponse(std::chrono::milliseconds wait) {
  const fs::path resp = Resp("IntPos.001", "intpos.001");
  const auto started = Clock::now();
  while (Clock::now() - started < wait) {
    if (auto text = ReadFile(resp)) {
      auto response = integration::tefdial::Parse(*text);
      if (response.ok() && response->Get(field::kId) == std::to_string(id_) && response->Has(field::kTrailer)) {
        fs::remove(resp);
        return *response;
      }
      if (response.ok() && response->Has(field::kTrailer)) fs::remove(resp);  // another request's: ignored
    }
    std::this_thread::sleep_for(options_.poll);
  }
  return DeadlineExceededError("no response to " + command_ + " " + std::to_string(id_));
}

bool TefDialClient::Active() { return Send("ATV", {}).ok(); }

StatusOr<IntPos> TefDialClient::Crt(long long cents, const std::string& document, std::chrono::milliseconds wait) {
  if (!Active()) return UnavailableError("the TEF Dial manager is not active");
  BALCAO_RETURN_IF_ERROR(Send(
      "CRT", {{field::kFiscalDocument, document}, {field::kAmount, std::to_string(cents)}, {field::kCurrency, "0"}}));
  BALCAO_ASSIGN_OR_RETURN(IntPos response, AwaitResponse(wait));
  if (response.Get(field::kStatus) == "0") SaveState(response);  // pending until CNF or NCN
  return response;
}

Status TefDialClient::Cnf(const IntPos& approved) {
  BALCAO_RETURN_IF_ERROR(Send("CNF", {{field::kFiscalDocument, approved.Get(field::kFiscalDocument)},
                                      {field::kNetwork, approved.Get(field::kNetwork)},
                                      {field::kNsu, approved.Get(field::kNsu)},
                                      {field::kControl, approved.Get(field::kControl)}}));
  SaveState(std::nullopt);
  return OkStatus();
}

Status TefDialClient::Ncn(const IntPos& approved) {
  BALCAO_RETURN_IF_ERROR(Send("NCN", {{field::kFiscalDocument, approved.Get(field::kFiscalDocument)},
                                      {field::kNetwork, approved.Get(field::kNetwork)},
                                      {field::kNsu, approved.Get(field::kNsu)},
                                      {field::kControl, approved.Get(field::kControl)}}));
  SaveState(std::nullopt);
  return OkStatus();
}

StatusOr<IntPos> TefDialClient::Cnc(const IntPos& approved, std::chrono::milliseconds wait) {
  if (!Active()) return UnavailableError("the TEF Dial manager is not active");
  BALCAO_RETURN_IF_ERROR(Send("CNC", {{field::kAmount, approved.Get(field::kAmount)},
                                      {field::kNetwork, approved.Get(field::kNetwork)},
                                      {field::kNsu, approved.Get(field::kNsu)},
                                      {field::kReceiptDate, approved.Get(field::kReceiptDate)},
                                      {field::kReceiptTime, approved.Get(field::kReceiptTime)}}));
  return AwaitResponse(wait);
}

StatusOr<IntPos> TefDialClient::Adm(std::chrono::milliseconds wait) {
  if (!Active()) return UnavailableError("the TEF Dial manager is not active");
  BALCAO_RETURN_IF_ERROR(Send("ADM", {}));
  return AwaitResponse(wait);
}

StatusOr<std::optional<std::string>> TefDialClient::Recover() {
  std::optional<IntPos> pending = LoadPending();
  if (!pending) {
    // Killed while waiting for the CRT's response: one found in resp/ is treated as a sale whose
    // fiscal receipt failed (the public IntPos guide, "Falta de energia").
    if (auto text = ReadFile(Resp("IntPos.001", "intpos.001"))) {
      auto response = integration::tefdial::Parse(*text);
      if (response.ok() && response->Get(field::kCommand) == "CRT" && response->Get(field::kStatus) == "0")
        pending = *response;
    }
  }
  if (!pending) return std::optional<std::string>();
  BALCAO_RETURN_IF_ERROR(Ncn(*pending));
  return std::optional<std::string>(pending->Get(field::kNsu));
}

void TefDialClient::SaveState(const std::optional<IntPos>& pending) {
  IntPos state = pending.value_or(IntPos{});
  state.Set({899, 500}, std::to_string(id_));
  state.Set({899, 1}, pending ? "N" : "S");  // ACBr's "CNF sent" flag
  std::ofstream(options_.state_file, std::ios::binary | std::ios::trunc) << integration::tefdial::Write(state);
}

std::optional<IntPos> TefDialClient::LoadPending() {
  auto text = ReadFile(options_.state_file);
  if (!text) return std::nullopt;
  auto state = integration::tefdial::Parse(*text);
  if (!state.ok() || state->Get({899, 1}) != "N" || state->Get(field::kStatus) != "0") return std::nullopt;
  return *state;
}

}  // namespace balcao::tefdial_testing
