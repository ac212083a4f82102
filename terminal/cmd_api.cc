// `balcao api`: the back-office command line over the bank API client. Thin: resource
// operations go through ResourceClient<RawJson> (the same generic operations the typed
// client uses, with the JSON passed through untouched), raw calls through Client::Call.
// Configured like every client: BALCAO_* environment variables and/or credentials.json
// (api/credentials.h). Prints JSON on stdout (indented only for a terminal: piped, it is the
// bank's own compact text); errors as JSON on stderr. Lists (`list --all`, `create`) stream
// through terminal/internal/json_stream.h: one page in memory, whatever their length.
// Exit: 0 ok; 1 the request was refused as invalid (bank 400, unknown id, bad state,
// local validation); 2 anything else (usage, configuration, transport, bank 5xx).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "api/bank.h"
#include "common/progress.h"
#include "terminal/command.h"
#include "terminal/internal/json_stream.h"
#include "terminal/service/config.h"

namespace balcao::terminal {
namespace {

using api::ListParams;
using api::Query;
using api::RawJson;
using internal::ItemReader;
using internal::ItemWriter;
using nlohmann::json;

constexpr char kUsage[] = R"(usage: balcao api [--credentials FILE] [--language pt-BR] <operation> ...
  resources                                  resources and the operations each offers
  get PATH [key=value ...]                   signed GET of any path, e.g. /v2/balance
  call METHOD PATH [--json BODY] [key=value ...]
  list RESOURCE [--limit N] [--cursor C] [--fields a,b] [--all [--jsonl]] [--log] [--FILTER v[,v]]
                                             --all: every item as it arrives, a JSON array
                                             (--jsonl: one object per line)
  show RESOURCE ID [--fields a,b] [--log]
  create RESOURCE --json JSON [--jsonl]      an object, a list or JSON Lines (@FILE, @- for
                                             stdin: read as it comes), sent in chunks of 100
  put RESOURCE --json JSON                   split-profile
  patch RESOURCE ID --json JSON
  delete RESOURCE ID
  pdf RESOURCE ID [--log] [--out FILE]       (stdout when no --out)
  qrcode RESOURCE ID [--size N] [--out FILE]
JSON arguments may be @FILE to read the file. Output is indented only for a terminal.
Configuration: BALCAO_BANK_URL,
BALCAO_ACCESS_ID (or BALCAO_PROJECT_ID / BALCAO_ORGANIZATION_ID [+ BALCAO_WORKSPACE_ID]),
BALCAO_PRIVATE_KEY, BALCAO_CREDENTIALS (credentials.json), BALCAO_CA_FILE. Without any of them,
the box's bank: its config's bank.credentials, or the embedded sandbox of `balcao serve` (its
data dir found as `balcao queue` finds it: $BALCAO_DB, the config, else ./balcao-data).
)";

int Usage(const std::string& why) {
  std::cerr << "balcao api: " << why << "\n" << kUsage;
  return 2;
}

const char* DeliveryName(Delivery d) {
  switch (d) {
    case Delivery::kNotSent:
      return "not-sent";
    case Delivery::kOutcomeUnknown:
      return "outcome-unknown";
    case Delivery::kAnswered:
      return "answered";
    default:
      return "local";
  }
}

int Fail(const Status& s) {
  json errors = json::array();
  for (const auto& e : s.errors()) errors.push_back({{"code", e.code}, {"message", e.message}});
  json out = {{"error",
               {{"status", StatusCodeName(s.code())},
                {"message", s.message()},
                {"httpStatus", s.http_status()},
                {"delivery", DeliveryName(s.delivery())},
                {"errors", errors}}}};
  std::cerr << out.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  const StatusCode c = s.code();
  return c == StatusCode::kInvalidArgument || c == StatusCode::kNotFound || c == StatusCode::kFailedPrecondition ||
                 c == StatusCode::kOutOfRange
             ? 1
             : 2;
}

bool StdoutIsTerminal() {
  static const bool terminal = ::isatty(STDOUT_FILENO) == 1;
  return terminal;
}

// Prints JSON text indented for a terminal; otherwise (or when it is not JSON) as it is.
void PrintJson(std::string_view text) {
  if (StdoutIsTerminal()) {
    json j = json::parse(text.begin(), text.end(), nullptr, false);
    if (!j.is_discarded()) {
      const std::string pretty = j.dump(2, ' ', false, json::error_handler_t::replace);
      std::fwrite(pretty.data(), 1, pretty.size(), stdout);
      std::fputc('\n', stdout);
      return;
    }
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
}

std::vector<std::string> SplitComma(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, ',')) out.push_back(part);
  return out;
}

// Positional arguments and --flag value pairs (--all, --log, --jsonl are switches).
struct Args {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> flags;  // in order
  std::map<std::string, bool> switches;
  std::string Flag(const std::string& name) const {
    for (const auto& [k, v] : flags)
      if (k == name) return v;
    return {};
  }
  bool Has(const std::string& name) const {
    for (const auto& [k, v] : flags)
      if (k == name) return true;
    return switches.count(name) != 0;
  }
};

StatusOr<Args> ParseArgs(const std::vector<std::string>& argv) {
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& s = argv[i];
    if (s.rfind("--", 0) != 0) {
      a.positional.push_back(s);
    } else if (s == "--all" || s == "--log" || s == "--jsonl" || s == "--help") {
      a.switches[s.substr(2)] = true;
    } else if (auto eq = s.find('='); eq != std::string::npos) {
      a.flags.emplace_back(s.substr(2, eq - 2), s.substr(eq + 1));
    } else if (i + 1 < argv.size()) {
      a.flags.emplace_back(s.substr(2), argv[++i]);
    } else {
      return InvalidArgumentError("flag " + s + " needs a value");
    }
  }
  return a;
}

StatusOr<std::string> JsonArgument(const Args& a) {
  std::string text = a.Flag("json");
  if (text.empty()) return InvalidArgumentError("--json is required");
  if (text[0] == '@') {
    std::ifstream in(text.substr(1), std::ios::binary);
    if (!in) return InvalidArgumentError("cannot read " + text.substr(1));
    std::stringstream s;
    s << in.rdbuf();
    text = s.str();
  }
  return text;
}

StatusOr<int> IntFlag(const Args& a, const std::string& name) {
  const std::string v = a.Flag(name);
  try {
    std::size_t pos = 0;
    int n = std::stoi(v, &pos);
    if (pos == v.size()) return n;
  } catch (const std::exception&) {
  }
  return InvalidArgumentError("--" + name + " must be an integer, got '" + v + "'");
}

int WriteBytes(const std::string& bytes, const std::string& out) {
  if (out.empty()) {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    return 0;
  }
  std::ofstream f(out, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) return Fail(InternalError("cannot write " + out));
  std::cout << json{{"file", out}, {"bytes", bytes.size()}}.dump() << "\n";
  return 0;
}

Query QueryOf(const std::vector<std::string>& pairs, std::size_t from) {
  Query q;
  for (std::size_t i = from; i < pairs.size(); ++i) {
    auto eq = pairs[i].find('=');
    q.Add(pairs[i].substr(0, eq), eq == std::string::npos ? std::string() : pairs[i].substr(eq + 1));
  }
  return q;
}

int ListResources() {
  json out = json::array();
  for (const auto& ep : api::Endpoints()) out.push_back(std::string(ep.method) + " " + ep.path);
  PrintJson(out.dump());
  return 0;
}

ItemWriter::Format ItemFormat(const Args& a) {
  return a.Has("jsonl") ? ItemWriter::Format::kLines : ItemWriter::Format::kArray;
}

// `create`: the input read a chunk of 100 objects at a time and each chunk sent as it is
// read; what the bank created is written as it comes back. A refusal ends the run after the
// chunks already created are printed (they exist at the bank).
int CreateStreaming(const api::ResourceClient<RawJson>& rc, const Args& a) {
  const std::string arg = a.Flag("json");
  if (arg.empty()) return Fail(InvalidArgumentError("--json is required"));
  std::FILE* in = nullptr;
  if (arg == "@-") {
    in = stdin;
  } else if (arg[0] == '@') {
    in = std::fopen(arg.c_str() + 1, "rb");
    if (in == nullptr) return Fail(InvalidArgumentError("cannot read " + arg.substr(1)));
  } else {
    in = ::fmemopen(const_cast<char*>(arg.data()), arg.size(), "r");
    if (in == nullptr) return Fail(InternalError("cannot read the --json argument"));
  }
  struct Closer {
    std::FILE* file;
    ~Closer() {
      if (file != stdin) std::fclose(file);
    }
  } closer{in};
  ItemReader reader(in);
  ItemWriter out(stdout, ItemFormat(a), StdoutIsTerminal());
  ProgressLine progress("balcao api create " + a.positional[1]);
  long long created_count = 0;
  std::vector<RawJson> chunk;
  bool more = true;
  while (more) {
    chunk.clear();
    while (chunk.size() < 100) {
      auto next = reader.Next();
      if (!next.ok()) {
        out.Finish();
        return Fail(next.status());
      }
      if (!*next) {
        more = false;
        break;
      }
      chunk.push_back(RawJson{**std::move(next)});
    }
    if (chunk.empty()) break;
    auto created = rc.Create(chunk);
    if (!created.ok()) {
      out.Finish();
      return Fail(created.status());
    }
    for (const RawJson& item : *created) out.Write(item.text);
    created_count += static_cast<long long>(created->size());
    progress.Update(std::to_string(created_count) + " created");
  }
  return 0;
}

// --limit, --cursor, --fields, and every other flag but the configuration's as a filter.
StatusOr<ListParams> ListParamsOf(const Args& a) {
  ListParams params;
  for (const auto& [k, v] : a.flags) {
    if (k == "limit") {
      BALCAO_ASSIGN_OR_RETURN(params.limit, IntFlag(a, "limit"));
    } else if (k == "cursor") {
      params.cursor = v;
    } else if (k == "fields") {
      params.fields = SplitComma(v);
    } else if (k != "credentials" && k != "language") {
      params.Filter(k, SplitComma(v));
    }
  }
  return params;
}

// `list --all`: every item as it arrives, following the cursor.
int ListAll(const api::ResourceClient<RawJson>& rc, const ListParams& params, const Args& a, ProgressLine& progress) {
  ItemWriter out(stdout, ItemFormat(a), StdoutIsTerminal());
  long long items = 0;
  auto range = rc.List(params);
  for (auto& item : range) {
    if (!item.ok()) {
      out.Finish();
      return Fail(item.status());
    }
    out.Write(item->text);
    progress.Update(std::to_string(range.pages_loaded()) + " pages, " + std::to_string(++items) + " items");
  }
  return 0;
}

// `list --log`: one page of the resource's logs, or with --all every page as it arrives.
int ListLogs(const api::Client& client, const api::ResourceSpec& spec, const std::string& name,
             const ListParams& params, const Args& a, ProgressLine& progress) {
  auto query = api::BuildListQuery(spec, true, params);
  if (!query.ok()) return Fail(query.status());
  if (!spec.Has(api::kLogs)) return Fail(FailedPreconditionError(name + " has no logs"));
  long long pages = 0;
  long long items = 0;
  std::optional<ItemWriter> out;
  while (true) {
    auto r = client.Call("GET", "/v2/" + name + "/log", *query);
    if (!r.ok()) return Fail(r.status());
    if (!a.Has("all")) {
      PrintJson(r->body);
      return 0;
    }
    json page = json::parse(r->body, nullptr, false);
    if (!page.is_object() || !page.contains("logs") || !page["logs"].is_array())
      return Fail(InternalError("malformed bank response (GET /v2/" + name + "/log)"));
    if (!out) out.emplace(stdout, ItemFormat(a), StdoutIsTerminal());
    for (const auto& item : page["logs"]) out->Write(item.dump());
    items += static_cast<long long>(page["logs"].size());
    progress.Update(std::to_string(++pages) + " pages, " + std::to_string(items) + " logs");
    if (!page.contains("cursor") || !page["cursor"].is_string() || page["cursor"].get<std::string>().empty()) return 0;
    query->Set("cursor", page["cursor"].get<std::string>());
  }
}

int List(const api::Client& client, const api::ResourceClient<RawJson>& rc, const api::ResourceSpec& spec,
         const std::string& name, const Args& a) {
  auto params = ListParamsOf(a);
  if (!params.ok()) return Fail(params.status());
  ProgressLine progress("balcao api list " + name);
  const bool log = a.Has("log");
  if (a.Has("all") && !log) return ListAll(rc, *params, a, progress);
  if (log) return ListLogs(client, spec, name, *params, a, progress);
  auto page = rc.ListPage(*params);
  if (!page.ok()) return Fail(page.status());
  std::string text = "{\"cursor\":" + (page->cursor.empty() ? std::string("null") : json(page->cursor).dump()) + ",\"" +
                     std::string(spec.plural_key) + "\":[";
  for (std::size_t i = 0; i < page->items.size(); ++i) text += (i ? "," : "") + page->items[i].text;
  PrintJson(text + "]}");
  return 0;
}

// Prints the entity the bank answered with, or fails with its refusal.
int PrintAnswer(const StatusOr<RawJson>& answer) {
  if (!answer.ok()) return Fail(answer.status());
  PrintJson(answer->text);
  return 0;
}

int Show(const api::Client& client, const api::ResourceClient<RawJson>& rc, const api::ResourceSpec& spec,
         const std::string& name, const std::string& id, const Args& a) {
  if (a.Has("log")) {
    if (!spec.Has(api::kLogs)) return Fail(FailedPreconditionError(name + " has no logs"));
    Query q;
    if (a.Has("fields")) q.Add("fields", SplitComma(a.Flag("fields")));
    auto r = client.Call("GET", "/v2/" + name + "/log/" + id, q);
    if (!r.ok()) return Fail(r.status());
    PrintJson(r->body);
    return 0;
  }
  return PrintAnswer(rc.Get(id, a.Has("fields") ? SplitComma(a.Flag("fields")) : std::vector<std::string>{}));
}

// `put`: one object or a list of them, sent as a list.
int Put(const api::ResourceClient<RawJson>& rc, const Args& a) {
  auto text = JsonArgument(a);
  if (!text.ok()) return Fail(text.status());
  json body = json::parse(*text, nullptr, false);
  if (body.is_discarded() || !(body.is_object() || body.is_array()))
    return Fail(InvalidArgumentError("--json must be a JSON object or a list of objects"));
  std::vector<RawJson> items;
  if (body.is_object()) body = json::array({body});
  for (const auto& item : body) items.push_back(RawJson{item.dump()});
  auto created = rc.Put(items);
  if (!created.ok()) return Fail(created.status());
  std::string out = "[";
  for (std::size_t i = 0; i < created->size(); ++i) out += (i ? "," : "") + (*created)[i].text;
  PrintJson(out + "]");
  return 0;
}

int Qrcode(const api::ResourceClient<RawJson>& rc, const std::string& id, const Args& a) {
  int size = 7;
  if (a.Has("size")) {
    auto n = IntFlag(a, "size");
    if (!n.ok()) return Fail(n.status());
    size = *n;
  }
  auto bytes = rc.Qrcode(id, size);
  if (!bytes.ok()) return Fail(bytes.status());
  return WriteBytes(*bytes, a.Flag("out"));
}

int RunResourceOp(const api::Client& client, const std::string& op, const Args& a) {
  if (a.positional.size() < 2) return Usage(op + " needs a RESOURCE");
  const std::string& name = a.positional[1];
  const api::ResourceSpec* spec = api::FindResource(name);
  if (spec == nullptr) return Fail(InvalidArgumentError("unknown resource '" + name + "' (see: balcao api resources)"));
  api::ResourceClient<RawJson> rc(client, name);
  const std::string id = a.positional.size() > 2 ? a.positional[2] : "";
  const bool needs_id = op == "show" || op == "patch" || op == "delete" || op == "pdf" || op == "qrcode";
  if (needs_id && id.empty()) return Usage(op + " needs an ID");

  if (op == "list") return List(client, rc, *spec, name, a);
  if (op == "show") return Show(client, rc, *spec, name, id, a);
  if (op == "create") return CreateStreaming(rc, a);
  if (op == "put") return Put(rc, a);
  if (op == "patch") {
    auto text = JsonArgument(a);
    if (!text.ok()) return Fail(text.status());
    return PrintAnswer(rc.Patch(id, RawJson{*text}));
  }
  if (op == "delete") return PrintAnswer(rc.Delete(id));
  if (op == "pdf") {
    auto bytes = a.Has("log") ? rc.LogPdf(id) : rc.Pdf(id);
    if (!bytes.ok()) return Fail(bytes.status());
    return WriteBytes(*bytes, a.Flag("out"));
  }
  return Qrcode(rc, id, a);
}

// --credentials FILE; else, with no bank in the environment, the box's (its config's bank, or
// the embedded sandbox's where `balcao serve` keeps it: service::FindBox), as `settle` finds it.
std::string BankCredentialsFile(const std::string& flag) {
  if (!flag.empty()) return flag;
  for (const char* name : {"BALCAO_CREDENTIALS", "BALCAO_BANK_URL", "BALCAO_ACCESS_ID"})
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') return "";
  auto box = service::FindBox("", "");
  return box.ok() ? box->credentials_path : "";
}

int RunApi(const std::vector<std::string>& argv) {
  auto args = ParseArgs(argv);
  if (!args.ok()) return Usage(args.status().message());
  const Args& a = *args;
  if (a.Has("help")) return std::fputs(kUsage, stdout), 0;
  if (a.positional.empty() || a.positional[0] == "help") return Usage("an operation is required");
  const std::string op = a.positional[0];
  if (op == "resources") return ListResources();
  static const char* kOps[] = {"get", "call", "list", "show", "create", "put", "patch", "delete", "pdf", "qrcode"};
  if (std::find(std::begin(kOps), std::end(kOps), op) == std::end(kOps)) return Usage("unknown operation '" + op + "'");

  auto config = api::LoadConfig(BankCredentialsFile(a.Flag("credentials")));
  if (!config.ok()) return Fail(config.status());
  if (a.Has("language")) config->options.language = a.Flag("language");
  auto client = api::Client::Create(std::move(config->credentials), std::move(config->options));
  if (!client.ok()) return Fail(client.status());

  if (op == "get" || op == "call") {
    const std::size_t path_at = op == "get" ? 1 : 2;
    if (a.positional.size() <= path_at) return Usage(op + " needs a PATH");
    const std::string method = op == "get" ? "GET" : a.positional[1];
    std::string body;
    if (a.Has("json")) {
      auto text = JsonArgument(a);
      if (!text.ok()) return Fail(text.status());
      body = *text;
    }
    auto r = client->Call(method, a.positional[path_at], QueryOf(a.positional, path_at + 1), body);
    if (!r.ok()) return Fail(r.status());
    if (r->content_type.find("json") == std::string::npos && !r->body.empty() && r->body[0] != '{')
      return WriteBytes(r->body, a.Flag("out"));
    PrintJson(r->body);
    return 0;
  }
  return RunResourceOp(*client, op, a);
}

}  // namespace

BALCAO_COMMAND("api", "call the bank API (get, list, show, create, patch, delete, pdf...)", RunApi);

}  // namespace balcao::terminal
