// `balcao journal verify`: checks the sale journal's hash chain (offline/journal_chain.h,
// docs/offline.md "The journal chain").
//   balcao journal verify [--db FILE] [--json]
// Opens the store read-only (Store::OpenReadOnly): it runs beside `balcao serve` and changes
// nothing. Exit: 0 the chain holds, 1 it is broken (the first broken row is named), 2 errors
// (bad arguments included, so that 1 always means "the journal was changed").
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "offline/journal.h"
#include "offline/journal_chain.h"
#include "offline/store.h"
#include "terminal/command.h"
#include "terminal/internal/subcommand_args.h"
#include "terminal/service/config.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao journal verify [--db FILE] [--config FILE] [--json]\n"
    "  verify  check the sale journal's hash chain: every row, every head a nightly settlement\n"
    "          recorded, and the sales' last events; read-only (runs beside `balcao serve`)\n"
    "  --db      the box's store (default: $BALCAO_DB, else the config's data_dir/balcao.db)\n"
    "  --config  the box's config (default: $BALCAO_CONFIG, else /etc/balcao/balcao.conf if present)\n"
    "  --json    one JSON document on stdout\n"
    "Exit: 0 the chain holds, 1 it is broken (the first broken row is named), 2 errors.\n";

int Fail(const std::string& message) {
  std::fprintf(stderr, "balcao journal: %s\n", message.c_str());
  return 2;
}

void PrintJson(const offline::ChainVerdict& v) {
  nlohmann::ordered_json doc = {
      {"verified", v.ok()}, {"rows", v.rows}, {"head", offline::HexOf(v.head)}, {"anchors", v.anchors_checked}};
  if (v.broken) {
    doc["broken"] = {{"row", v.broken->position},
                     {"sale_id", v.broken->sale_id},
                     {"seq", v.broken->seq},
                     {"kind", offline::ChainBreakName(v.broken->kind)},
                     {"detail", v.broken->detail}};
  }
  std::printf("%s\n", doc.dump().c_str());
}

void PrintText(const offline::ChainVerdict& v) {
  if (v.ok()) {
    std::printf("journal chain holds: %lld row(s) checked, head %s\n", static_cast<long long>(v.rows),
                offline::HexOf(v.head).c_str());
    std::printf("settlement heads found in place: %d\n", v.anchors_checked);
    return;
  }
  const offline::ChainBreak& b = *v.broken;
  std::string where = b.position > 0 ? "row " + std::to_string(b.position) : "the end of the journal";
  if (!b.sale_id.empty()) where += " (sale " + b.sale_id + " seq " + std::to_string(b.seq) + ")";
  std::printf("journal chain BROKEN at %s: %s\n", where.c_str(), offline::ChainBreakName(b.kind));
  std::printf("  %s\n", b.detail.c_str());
  std::printf("  %lld row(s) read\n", static_cast<long long>(v.rows));
}

int RunJournal(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] != "verify") return Fail("unknown subcommand '" + args[0] + "'\n" + kUsage);
  const std::vector<std::string> options(args.begin() + 1, args.end());
  auto parsed = internal::ParseSubcommandArgs(options, {{"--json"}, {"--db", "--config"}, kUsage});
  if (!parsed.ok()) return Fail(parsed.status().message());
  if (parsed->help) return std::fputs(kUsage, stdout), 0;
  if (!parsed->positional.empty()) return Fail("unknown argument '" + parsed->positional[0] + "'\n" + kUsage);
  const bool as_json = parsed->Has("--json");
  auto box = service::FindBox(parsed->Get("--db"), parsed->Get("--config"));
  if (!box.ok()) return Fail(box.status().message());
  const std::string db = box->store_path;
  auto store = offline::Store::OpenReadOnly(db);
  if (!store.ok()) return Fail(store.status().ToString());
  offline::Journal journal(**store);
  auto verdict = journal.VerifyChain();
  if (!verdict.ok()) return Fail("reading the journal of " + db + ": " + verdict.status().ToString());
  if (as_json) {
    PrintJson(*verdict);
  } else {
    PrintText(*verdict);
  }
  return verdict->ok() ? 0 : 1;
}

}  // namespace

BALCAO_COMMAND("journal", "the sale journal: verify its hash chain", RunJournal);

}  // namespace balcao::terminal
