#include "integration/tefdial/request.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace balcao::integration::tefdial {
namespace {

bool AllDigits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

Status Bad(FieldKey key, const std::string& rule) { return InvalidArgumentError(KeyText(key) + ": " + rule); }

// Up to `max_digits` digits, or absent when `required` is false.
Status Digits(const IntPos& file, FieldKey key, std::size_t max_digits, bool required) {
  const std::string value = file.Get(key);
  if (value.empty()) return required ? Bad(key, "required") : OkStatus();
  if (!AllDigits(value) || value.size() > max_digits)
    return Bad(key, "digits only, at most " + std::to_string(max_digits));
  return OkStatus();
}

}  // namespace

const char* CommandName(Command command) {
  static constexpr std::array kNames{"ATV", "CRT", "CNF", "NCN", "CNC", "ADM"};
  return kNames[static_cast<std::size_t>(command)];
}

StatusOr<Request> ReadRequest(const IntPos& file) {
  Request request;
  const std::string command = Upper(file.Get(field::kCommand));
  if (command.empty()) return Bad(field::kCommand, "required (the command: ATV, CRT, CNF, NCN, CNC or ADM)");
  BALCAO_RETURN_IF_ERROR(Digits(file, field::kId, 10, true));
  request.id = file.Get(field::kId);
  if (!file.Has(field::kTrailer)) return Bad(field::kTrailer, "required: the file's last field");
  bool known = false;
  for (Command c : {Command::kAtv, Command::kCrt, Command::kCnf, Command::kNcn, Command::kCnc, Command::kAdm}) {
    if (command == CommandName(c)) {
      request.command = c;
      known = true;
    }
  }
  if (!known)
    return Status(StatusCode::kUnimplemented, KeyText(field::kCommand) + ": '" + command.substr(0, 8) +
                                                  "' is not run here (ATV, CRT, CNF, NCN, CNC, ADM)");
  BALCAO_RETURN_IF_ERROR(Digits(file, field::kFiscalDocument, 12, false));
  request.fiscal_document = file.Get(field::kFiscalDocument);
  request.network = file.Get(field::kNetwork);
  request.nsu = file.Get(field::kNsu);
  request.control = file.Get(field::kControl);
  if (request.command == Command::kCrt || request.command == Command::kCnc) {
    BALCAO_RETURN_IF_ERROR(Digits(file, field::kAmount, 12, true));
    request.amount = std::stoll(file.Get(field::kAmount));
    if (request.amount < 1) return Bad(field::kAmount, "a whole number of cents from 1 to 999999999999");
    const std::string currency = file.Get(field::kCurrency);
    if (!currency.empty() && currency != "0") return Bad(field::kCurrency, "0 (real): the only currency here");
  }
  if (request.command == Command::kCnf || request.command == Command::kNcn) {
    if (request.nsu.empty() && request.control.empty())
      return Bad(field::kNsu, "012-000 (NSU) or 027-000 (control) of the sale to " +
                                  std::string(request.command == Command::kCnf ? "confirm" : "undo"));
  }
  if (request.command == Command::kCnc) {
    if (request.nsu.empty()) return Bad(field::kNsu, "required: the NSU of the sale to cancel");
    BALCAO_RETURN_IF_ERROR(Digits(file, field::kReceiptDate, 8, false));
    BALCAO_RETURN_IF_ERROR(Digits(file, field::kReceiptTime, 6, false));
    request.receipt_date = file.Get(field::kReceiptDate);
    request.receipt_time = file.Get(field::kReceiptTime);
    if (!request.receipt_date.empty() && request.receipt_date.size() != 8) return Bad(field::kReceiptDate, "DDMMAAAA");
    if (!request.receipt_time.empty() && request.receipt_time.size() != 6) return Bad(field::kReceiptTime, "HHMMSS");
  }
  return request;
}

IntPos StatusFile(const IntPos& request) {
  IntPos status;
  status.Set(field::kCommand, request.Get(field::kCommand));
  status.Set(field::kId, request.Get(field::kId));
  status.Set(field::kTrailer, "0");
  return status;
}

std::string RequestKey(const Request& r) {
  std::string key = std::string(CommandName(r.command)) + "|" + (r.day.empty() ? "" : r.day + "|") + r.id;
  switch (r.command) {
    case Command::kCrt:
      return key + "|" + r.fiscal_document + "|" + std::to_string(r.amount);
    case Command::kCnc:
      return key + "|" + r.nsu + "|" + std::to_string(r.amount);
    case Command::kCnf:
    case Command::kNcn:
      return key + "|" + r.nsu + "|" + r.control;
    default:
      return key;
  }
}

}  // namespace balcao::integration::tefdial
