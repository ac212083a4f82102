// `balcao pos`: the store's cash registers that may drive the box over nexo (docs/integration.md).
//   balcao pos add SALE_ID [--data-dir DIR | --db FILE] [--config FILE]
//   balcao pos list [--json] | disable SALE_ID | rotate SALE_ID
// add and rotate print one JSON line with the passphrase, shown this once: the store keeps only
// the key material derived from it (PBKDF2, integration/nexo/protection.h).
// Exit: 0 done, 1 refused (bad or unknown register), 2 errors.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/time.h"
#include "integration/nexo/protection.h"
#include "offline/cash_registers.h"
#include "terminal/command.h"
#include "terminal/internal/subcommand_args.h"
#include "terminal/service/config.h"
#include "terminal/service/nexo_keys.h"

namespace balcao::terminal {
namespace {

constexpr const char* kUsage =
    "usage: balcao pos <add SALE_ID | list [--json] | disable SALE_ID | rotate SALE_ID>\n"
    "                  [--data-dir DIR | --db FILE] [--config FILE]\n"
    "  add      registers a cash register (its nexo SaleID) and prints its key, once, as one JSON line:\n"
    "           {\"saleId\",\"poiId\",\"keyIdentifier\",\"keyVersion\":1,\"passphrase\"}\n"
    "  list     every register and key version: current, retired (accepted for 24 h), disabled\n"
    "  disable  every key of the register is refused from now on\n"
    "  rotate   a new key version (printed as add does); the previous one is accepted 24 h more\n"
    "The store is DIR/balcao.db, else --db FILE, else $BALCAO_DB, else the data_dir of the box's config.\n";

int Fail(int code, const std::string& message) {
  std::fprintf(stderr, "balcao pos: %s\n", message.c_str());
  return code;
}
int FailWith(const Status& status) {
  const bool refused = status.code() == StatusCode::kInvalidArgument || status.code() == StatusCode::kNotFound ||
                       status.code() == StatusCode::kAlreadyExists || status.code() == StatusCode::kFailedPrecondition;
  return Fail(refused ? 1 : 2, status.message());
}

void PrintKey(const offline::PosKey& key, const std::string& poi_id, const std::string& passphrase) {
  const nlohmann::ordered_json line = {{"saleId", key.register_id},
                                       {"poiId", poi_id},
                                       {"keyIdentifier", key.key_identifier},
                                       {"keyVersion", key.key_version},
                                       {"passphrase", passphrase}};
  std::printf("%s\n", line.dump().c_str());
}

int List(offline::CashRegisters& registers, bool as_json) {
  auto keys = registers.List();
  if (!keys.ok()) return FailWith(keys.status());
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const offline::PosKey& key : *keys) {
    const std::string state = key.disabled ? "disabled" : key.retired_at_ms ? "retired" : "current";
    if (as_json) {
      out.push_back({{"saleId", key.register_id},
                     {"keyIdentifier", key.key_identifier},
                     {"keyVersion", key.key_version},
                     {"state", state},
                     {"created", FormatTimestamp(key.created_at_ms * 1000)}});
    } else {
      std::printf("%-20s %-24s v%-3d %s\n", key.register_id.c_str(), key.key_identifier.c_str(), key.key_version,
                  state.c_str());
    }
  }
  if (as_json) std::printf("%s\n", out.dump().c_str());
  if (!as_json && keys->empty()) std::printf("no cash registers yet: balcao pos add SALE_ID\n");
  return 0;
}

int Add(offline::CashRegisters& registers, const std::string& sale_id, const std::string& poi_id) {
  if (Status valid = service::CheckRegisterId(sale_id); !valid.ok()) return FailWith(valid);
  const std::string passphrase = service::NewPassphrase();
  offline::PosKey key;
  key.register_id = sale_id;
  key.key_identifier = service::KeyIdentifierOf(sale_id);
  key.key_version = 1;
  key.derived_keys = integration::nexo::DeriveKeys(passphrase).ToHex();
  if (Status added = registers.AddRegister(key); !added.ok()) return FailWith(added);
  PrintKey(key, poi_id, passphrase);
  return 0;
}

int Rotate(offline::CashRegisters& registers, const std::string& sale_id, const std::string& poi_id) {
  const std::string passphrase = service::NewPassphrase();
  auto next = registers.Rotate(sale_id, integration::nexo::DeriveKeys(passphrase).ToHex());
  if (!next.ok()) return FailWith(next.status());
  PrintKey(*next, poi_id, passphrase);
  return 0;
}

int Disable(offline::CashRegisters& registers, const std::string& sale_id) {
  if (Status s = registers.Disable(sale_id); !s.ok()) return FailWith(s);
  std::printf("cash register %s disabled\n", sale_id.c_str());
  return 0;
}

int RunPos(const std::vector<std::string>& raw) {
  internal::StoreCommand command =
      internal::StartStoreCommand(raw, {{"--json"}, {"--db", "--config", "--data-dir"}, kUsage}, FailWith);
  if (command.exit >= 0) return command.exit;
  const internal::SubcommandArgs& args = command.args;
  auto loaded = service::LoadServeConfig(command.box.box.config_path);
  if (!loaded.ok()) return FailWith(loaded.status());
  const std::string poi_id = loaded->store.merchant.terminal_id;
  offline::CashRegisters registers(*command.box.store);
  const std::vector<internal::StoreVerb> verbs = {
      {"list", false, [&](const std::string&) { return List(registers, args.Has("--json")); }},
      {"add", true, [&](const std::string& sale_id) { return Add(registers, sale_id, poi_id); }},
      {"rotate", true, [&](const std::string& sale_id) { return Rotate(registers, sale_id, poi_id); }},
      {"disable", true, [&](const std::string& sale_id) { return Disable(registers, sale_id); }}};
  return internal::RunStoreVerb(args, verbs, "which cash register? (one SALE_ID)", kUsage, Fail);
}

}  // namespace

BALCAO_COMMAND("pos", "the store's cash registers (nexo): add, list, disable, rotate their keys", RunPos);

}  // namespace balcao::terminal
