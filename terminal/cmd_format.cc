// `balcao format check TEXT`: detect and validate a Brazilian payment format and print
// {kind, valid, fields, errors} as JSON. Exit 0 valid, 1 invalid, 2 usage error.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "api/formats/check.h"
#include "api/formats/check_json.h"
#include "common/time.h"
#include "terminal/command.h"

namespace balcao::terminal {
namespace {

using formats::CheckResult;
using formats::Field;
using json = nlohmann::ordered_json;

constexpr const char* kUsage =
    "usage: balcao format check [--as KIND] [--reference-date YYYY-MM-DD] TEXT...\n"
    "       balcao format check [options] -        (TEXT from stdin)\n"
    "Detects and validates a BR Code, boleto bar code (44) or line (47), arrecadacao bar code (44,\n"
    "starting with 8) or line (48), CPF, CNPJ (numeric or alphanumeric) or Pix end-to-end id.\n"
    "Several TEXT arguments are joined with single spaces (an unquoted digitable line).\n"
    "KIND: brcode boleto-barcode boleto-line utility-barcode utility-line cpf cnpj pix-e2e.\n"
    "--reference-date resolves boleto due factors (default: today, UTC).\n"
    "Prints JSON {kind, valid, fields, errors}; exit 0 valid, 1 invalid, 2 usage.\n";

int Usage(const std::string& problem) {
  if (!problem.empty()) std::fprintf(stderr, "balcao format: %s\n", problem.c_str());
  std::fputs(kUsage, stderr);
  return 2;
}

json ToJson(const CheckResult& r) {
  return json{{"kind", std::string(formats::FormatKindName(r.kind))},
              {"valid", r.valid},
              {"fields", formats::FieldsToJson<json>(r)},
              {"errors", r.errors}};
}

int RunFormat(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h")
    return args.empty() ? Usage("") : (std::fputs(kUsage, stdout), 0);
  if (args[0] != "check") return Usage("unknown subcommand '" + args[0] + "'");
  formats::CheckOptions options;
  formats::FormatKind kind = formats::FormatKind::kUnknown;
  std::vector<std::string> words;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "--as" || a == "--reference-date") && i + 1 >= args.size()) return Usage(a + " needs a value");
    if (a == "--as") {
      kind = formats::FormatKindFromName(args[++i]);
      if (kind == formats::FormatKind::kUnknown) return Usage("unknown kind '" + args[i] + "'");
    } else if (a == "--reference-date") {
      auto date = formats::ParseIsoDate(args[++i]);
      if (!date.ok()) return Usage("--reference-date: " + date.status().message());
      options.reference_date = *date;
    } else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a.size() > 1 && a.rfind("--", 0) == 0) {
      return Usage("unknown option '" + a + "'");
    } else {
      words.push_back(a);
    }
  }
  if (words.empty()) return Usage("TEXT is missing");
  std::string text;
  if (words.size() == 1 && words[0] == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
  }
  if (!options.reference_date) {
    options.reference_date = *formats::ParseIsoDate(FormatDate(SystemClock::Instance().Now()));
  }
  CheckResult result = formats::CheckAs(kind, text, options);
  // Invalid UTF-8 from the input must not make dump() throw: replace it in the output.
  std::printf("%s\n", ToJson(result).dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  return result.valid ? 0 : 1;
}

}  // namespace

BALCAO_COMMAND("format", "check Brazilian payment formats (BR Code, boleto, CPF/CNPJ, Pix id)", RunFormat);

}  // namespace balcao::terminal
