#include "terminal/internal/subcommand_args.h"

#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <system_error>
#include <utility>

namespace balcao::terminal::internal {

std::string SubcommandArgs::Get(const std::string& option) const {
  auto it = options.find(option);
  return it == options.end() ? "" : it->second;
}

StatusOr<SubcommandArgs> ParseSubcommandArgs(const std::vector<std::string>& args, const SubcommandSpec& spec) {
  SubcommandArgs out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      out.help = true;  // the usage, whatever else was asked
      return out;
    }
    if (spec.flags.count(a) > 0) {
      out.options[a] = "";
    } else if (spec.valued.count(a) > 0) {
      if (i + 1 >= args.size() || args[i + 1].empty()) return InvalidArgumentError(a + ": needs a value");
      out.options[a] = args[++i];
    } else if (a.rfind("--", 0) == 0) {
      return InvalidArgumentError("unknown option '" + a + "'" + (spec.usage.empty() ? "" : "\n" + spec.usage));
    } else {
      out.positional.push_back(a);
    }
  }
  return out;
}

StoreCommand StartStoreCommand(const std::vector<std::string>& raw, const SubcommandSpec& spec,
                               const std::function<int(const Status&)>& fail_with) {
  StoreCommand command;
  auto args = ParseSubcommandArgs(raw, spec);
  if (!args.ok()) {
    command.exit = fail_with(args.status());
    return command;
  }
  command.args = std::move(*args);
  if (command.args.help) {
    std::fputs(spec.usage.c_str(), stdout);
    command.exit = 0;
    return command;
  }
  if (command.args.positional.empty()) {
    std::fputs(spec.usage.c_str(), stderr);
    command.exit = 1;
    return command;
  }
  auto opened = OpenBoxStore(command.args.Get("--db"), command.args.Get("--config"), command.args.Get("--data-dir"));
  if (!opened.ok()) {
    command.exit = fail_with(opened.status());
    return command;
  }
  command.box = std::move(*opened);
  return command;
}

int RunStoreVerb(const SubcommandArgs& args, const std::vector<StoreVerb>& verbs, const std::string& which,
                 const std::string& usage, const std::function<int(int code, const std::string& message)>& fail) {
  const std::string& verb = args.positional.front();
  const StoreVerb* found = nullptr;
  for (const StoreVerb& v : verbs)
    if (v.name == verb) found = &v;
  if (found != nullptr && !found->takes_operand) return found->run("");
  if (args.positional.size() != 2) return fail(1, verb + ": " + which + "\n" + usage);
  if (found == nullptr) return fail(1, "unknown subcommand '" + verb + "'\n" + usage);
  return found->run(args.positional[1]);
}

StatusOr<BoxStore> OpenBoxStore(const std::string& db, const std::string& config, const std::string& data_dir) {
  std::string store_path = db;
  if (!data_dir.empty()) {
    // The same folder `serve --data-dir` makes: created 0700 when a command comes first.
    std::error_code ec;
    if (std::filesystem::create_directories(data_dir, ec)) ::chmod(data_dir.c_str(), 0700);
    if (ec) return InternalError("cannot create the data dir " + data_dir + ": " + ec.message());
    store_path = data_dir + "/" + service::kStoreFileName;
  }
  BALCAO_ASSIGN_OR_RETURN(service::BoxTarget box, service::FindBox(store_path, config));
  BALCAO_ASSIGN_OR_RETURN(std::unique_ptr<offline::Store> store, offline::Store::Open(box.store_path));
  return BoxStore{std::move(box), std::move(store)};
}

}  // namespace balcao::terminal::internal
