#include "terminal/service/config.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/log.h"
#include "terminal/service/first_run.h"
#include "terminal/service/json_body.h"

namespace balcao::terminal::service {
namespace {

using nlohmann::json;

// Reads one object's keys through setters; refuses unknown keys and wrong types by name.
class Reader {
 public:
  using Setter = std::function<Status(const json&, const std::string& name)>;
  Status Read(const json& object, const std::string& where, const std::map<std::string, Setter>& setters) {
    if (!object.is_object()) return InvalidArgumentError(where + ": must be an object");
    for (const auto& [key, value] : object.items()) {
      auto it = setters.find(key);
      const std::string name = where.empty() ? key : where + "." + key;
      if (it == setters.end()) return InvalidArgumentError(name + ": unknown key");
      BALCAO_RETURN_IF_ERROR(it->second(value, name));
    }
    return OkStatus();
  }
};

Reader::Setter Text(std::string& out) {
  return [&out](const json& v, const std::string& name) {
    if (!v.is_string()) return InvalidArgumentError(name + ": must be a string");
    out = v.get<std::string>();
    return OkStatus();
  };
}
template <typename T>
Reader::Setter Number(T& out, long long min, long long max) {
  return [&out, min, max](const json& v, const std::string& name) {
    if (!v.is_number_integer() || v.get<long long>() < min || v.get<long long>() > max)
      return InvalidArgumentError(name + ": must be a whole number from " + std::to_string(min) + " to " +
                                  std::to_string(max));
    out = static_cast<T>(v.get<long long>());
    return OkStatus();
  };
}
Reader::Setter Flag(bool& out) {
  return [&out](const json& v, const std::string& name) {
    if (!v.is_boolean()) return InvalidArgumentError(name + ": must be true or false");
    out = v.get<bool>();
    return OkStatus();
  };
}
Reader::Setter OneOf(std::string& out, std::vector<std::string> choices) {
  return [&out, choices = std::move(choices)](const json& v, const std::string& name) {
    if (v.is_string() && std::find(choices.begin(), choices.end(), v.get<std::string>()) != choices.end()) {
      out = v.get<std::string>();
      return OkStatus();
    }
    std::string list;
    for (const std::string& choice : choices) list += (list.empty() ? "" : " or ") + choice;
    return InvalidArgumentError(name + ": must be " + list);
  };
}
Reader::Setter OptionalFlag(std::optional<bool>& out) {
  return [&out](const json& v, const std::string& name) {
    if (!v.is_boolean()) return InvalidArgumentError(name + ": must be true or false");
    out = v.get<bool>();
    return OkStatus();
  };
}
Reader::Setter Millis(std::chrono::milliseconds& out) {
  return [&out](const json& v, const std::string& name) {
    if (!v.is_number_integer() || v.get<long long>() < 10 || v.get<long long>() > 3'600'000)
      return InvalidArgumentError(name + ": must be a whole number of milliseconds from 10 to 3600000");
    out = std::chrono::milliseconds(v.get<long long>());
    return OkStatus();
  };
}

Reader::Setter Names(std::vector<std::string>& out) {
  return [&out](const json& v, const std::string& name) {
    const auto is_name = [](const json& item) {
      return item.is_string() && !item.get<std::string>().empty() && item.get<std::string>().size() <= 253 &&
             item.get<std::string>().find_first_of(" /\\@") == std::string::npos;
    };
    if (!v.is_array() || !std::all_of(v.begin(), v.end(), is_name))
      return InvalidArgumentError(name + R"(: must be a list of host names, e.g. ["caixa1.loja.lan"])");
    out.clear();
    for (const auto& item : v) out.push_back(item.get<std::string>());
    return OkStatus();
  };
}

Reader::Setter LogLevel(std::string& out) {
  return [&out](const json& v, const std::string& name) {
    if (!v.is_string() || !logging::ParseLevel(v.get<std::string>()).ok())
      return InvalidArgumentError(name + ": must be one of debug, info, warn, error");
    out = v.get<std::string>();
    return OkStatus();
  };
}

Reader::Setter LaneId(std::string& out) {
  return [&out](const json& v, const std::string& name) {
    if (!v.is_string()) return InvalidArgumentError(name + ": must be a string");
    if (std::string rule = checkout::LaneIdRule(v.get<std::string>()); !rule.empty())
      return InvalidArgumentError(name + ": " + rule);
    out = v.get<std::string>();
    return OkStatus();
  };
}

// A path in the file means the same file from whatever directory the tool runs in.
void ResolveAgainst(const std::filesystem::path& folder, std::string& path) {
  if (!path.empty() && std::filesystem::path(path).is_relative()) path = (folder / path).lexically_normal().string();
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

// An enabled payout must name where the money goes and a store fit for the externalId.
Status CheckPayout(const settlement::PayoutSettings& p) {
  if (!p.enabled) return OkStatus();
  const auto lower = [](const std::string& s) {
    return !s.empty() && s.size() <= 40 && std::all_of(s.begin(), s.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
  };
  if (!lower(p.store)) return InvalidArgumentError("payout.store: 1 to 40 lowercase letters, digits or '-'");
  const auto digits = [](const std::string& s, std::size_t min, std::size_t max) {
    std::size_t n = 0;
    for (char c : s) n += (c >= '0' && c <= '9');
    return n >= min && n <= max;
  };
  const settlement::PayoutAccount& a = p.account;
  if (a.name.empty()) return InvalidArgumentError("payout.account.name: required");
  if (!digits(a.tax_id, 11, 14)) return InvalidArgumentError("payout.account.tax_id: a CPF or CNPJ");
  if (!digits(a.bank_code, 1, 8) || a.bank_code.size() > 8)
    return InvalidArgumentError("payout.account.bank_code: an 8-digit ISPB (Pix) or a 1-3 digit bank code");
  if (!digits(a.branch_code, 1, 6)) return InvalidArgumentError("payout.account.branch_code: required, digits");
  if (!digits(a.account_number, 1, 21)) return InvalidArgumentError("payout.account.account_number: required, digits");
  return OkStatus();
}

using Keys = std::map<std::string, Reader::Setter>;

// The file's JSON, each key given once.
StatusOr<json> ReadConfigJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) return NotFoundError("cannot read the config file " + path);
  std::stringstream text;
  text << in.rdbuf();
  json root = json::parse(text.str(), nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (root.is_discarded()) return InvalidArgumentError(path + ": not valid JSON");
  // nlohmann keeps the last of two equal keys: a setting written twice would silently mean
  // the second one, whichever the operator meant.
  if (const std::string twice = DuplicateKey(text.str()); !twice.empty())
    return InvalidArgumentError(twice + ": given twice in " + path + " (each key once)");
  return root;
}

Keys CheckoutKeys(checkout::Settings& s) {
  return {{"max_installments", Number(s.installments.max_count, 1, 24)},
          {"min_installment_cents", Number(s.installments.min_installment, 0, 100'000'000)},
          {"allow_credit", Flag(s.allow_credit)},
          {"allow_debit", Flag(s.allow_debit)},
          {"challenge_enabled", Flag(s.challenge_enabled)},
          {"card_session_expiration_s", Number(s.card_session_expiration_s, 60, 86400)},
          {"pix_expiration_s", Number(s.pix_expiration_s, 30, 86400)},
          {"invoice_due_s", Number(s.invoice_due_s, 3600, 90LL * 86400)},
          {"poll_interval_s", Number(s.poll_interval_s, 1, 86400)},
          {"lookup_retry_s", Number(s.lookup_retry_s, 1, 3600)}};
}

Keys NexoKeys(ServeConfig::Nexo& n) {
  return {{"port", Number(n.port, 0, 65535)},
          {"allow_plain_loopback", Flag(n.allow_plain_loopback)},
          {"response_timeout_s", Number(n.response_timeout_s, 5, 3600)},
          {"print", Text(n.print)},
          {"institution_cnpj", Text(n.institution_cnpj)},
          {"reversal_needs_supervisor", Flag(n.reversal_needs_supervisor)},
          {"certificate_common_name", Text(n.certificate_common_name)}};
}

Keys PayoutAccountKeys(settlement::PayoutAccount& account) {
  return {{"name", Text(account.name)},
          {"tax_id", Text(account.tax_id)},
          {"bank_code", Text(account.bank_code)},
          {"branch_code", Text(account.branch_code)},
          {"account_number", Text(account.account_number)},
          {"account_type", OneOf(account.account_type, {"checking", "payment", "savings", "salary"})}};
}

Keys TefDialKeys(ServeConfig::TefDial& t) {
  return {{"dir", Text(t.dir)},
          {"group", Text(t.group)},
          {"method", Text(t.method)},
          {"unresolved", Text(t.unresolved)},
          {"unresolved_after_s", Number(t.unresolved_after_s, 1, 7 * 86400)}};
}

// The chain's hub (docs/hub.md, "The box").
Keys HubKeys(ServeConfig::Hub& h) {
  return {{"url", Text(h.url)},
          {"credentials", Text(h.credentials)},
          {"heartbeat_s", Number(h.heartbeat_s, 1, 3600)},
          {"public_url", Text(h.public_url)}};
}

Keys ListenKeys(ServeConfig& config) {
  return {{"address", Text(config.address)},
          {"port", Number(config.port, 0, 65535)},
          {"tls", OptionalFlag(config.tls)},
          {"tls_cert", Text(config.tls_cert)},
          {"tls_key", Text(config.tls_key)}};
}

Keys SecurityKeys(ServeConfig& config) {
  return {{"session_idle_s", Number(config.session_idle_s, 60, 12 * 3600)},
          {"host_names", Names(config.host_names)},
          {"webhook_retention_days", Number(config.webhook_retention_days, 1, 365)}};
}

Keys MerchantKeys(ServeConfig& config) {
  auto& m = config.store.merchant;
  return {{"name", Text(m.name)}, {"legal_name", Text(m.legal_name)},
          {"cnpj", Text(m.cnpj)}, {"address", Text(m.address)},
          {"city", Text(m.city)}, {"terminal_id", Text(m.terminal_id)}};
}

Keys ConnectivityKeys(ServeConfig& config) {
  auto& c = config.connectivity;
  return {{"online_interval_ms", Millis(c.online_interval)},
          {"backoff_initial_ms", Millis(c.backoff_initial)},
          {"backoff_max_ms", Millis(c.backoff_max)}};
}

// A certificate comes with its key, and with TLS.
Status CheckListen(const ServeConfig& config) {
  if (config.tls_cert.empty() != config.tls_key.empty())
    return InvalidArgumentError(config.tls_cert.empty() ? "listen.tls_cert: required with listen.tls_key"
                                                        : "listen.tls_key: required with listen.tls_cert");
  if (!config.tls_cert.empty() && config.tls == false)
    return InvalidArgumentError("listen.tls: false contradicts listen.tls_cert");
  return OkStatus();
}

// The config's file paths, relative to the config file's folder.
void ResolveFiles(ServeConfig& config, const std::string& path) {
  const auto folder = std::filesystem::absolute(path).parent_path();
  for (std::string* file :
       {&config.data_dir, &config.bank_credentials, &config.log_file, &config.tls_cert, &config.tls_key,
        &config.offline_cards.kek_path, &config.tef_dial.dir, &config.hub.credentials})
    ResolveAgainst(folder, *file);
}

// The rules of the cash registers' sections the key readers cannot say alone.
Status CheckRegisters(const ServeConfig& config) {
  const auto& t = config.tef_dial;
  const auto& n = config.nexo;
  if (t.method != "pix" && t.method != "card" && t.method != "ask")
    return InvalidArgumentError("tef_dial.method: pix, card or ask");
  if (t.unresolved != "undo" && t.unresolved != "confirm")
    return InvalidArgumentError("tef_dial.unresolved: undo or confirm");
  if (n.print != "none" && n.print != "customer" && n.print != "both")
    return InvalidArgumentError("nexo.print: none, customer or both");
  if (!n.institution_cnpj.empty() &&
      (n.institution_cnpj.size() != 14 || n.institution_cnpj.find_first_not_of("0123456789") != std::string::npos))
    return InvalidArgumentError("nexo.institution_cnpj: 14 digits");
  if (!n.certificate_common_name.empty() &&
      (n.certificate_common_name.size() > 64 ||
       n.certificate_common_name.find_first_not_of(
           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") != std::string::npos))
    return InvalidArgumentError("nexo.certificate_common_name: 1 to 64 letters, digits, '.' or '-'");
  return OkStatus();
}

// The store-and-forward's keys; its age is written in seconds and kept in milliseconds.
Keys OfflineCardKeys(offline::StoreAndForwardSettings& saf, std::int64_t& max_age_s) {
  return {{"enabled", Flag(saf.enabled)},
          {"kek_file", Text(saf.kek_path)},
          {"per_sale_cap_cents", Number(saf.per_sale_cap_cents, 1, 100'000'000)},
          {"total_cap_cents", Number(saf.total_cap_cents, 1, 1'000'000'000)},
          {"max_age_s", Number(max_age_s, 60, 7 * 86400)}};
}

}  // namespace

StatusOr<ServeConfig> LoadServeConfig(const std::string& path) {
  ServeConfig config;
  config.store.merchant = {kDefaultMerchantName, "", "", "", "", "BALCAO-01"};
  config.settings.installments.max_count = 12;
  if (path.empty()) return config;
  BALCAO_ASSIGN_OR_RETURN(const json root, ReadConfigJson(path));
  Reader reader;
  const Keys merchant = MerchantKeys(config);
  const Keys checkout = CheckoutKeys(config.settings);
  const Keys connectivity = ConnectivityKeys(config);
  const std::map<std::string, Reader::Setter> printer = {{"target", Text(config.printer)},
                                                         {"profile", Text(config.printer_profile)}};
  const Keys listen = ListenKeys(config);
  const std::map<std::string, Reader::Setter> bank = {{"credentials", Text(config.bank_credentials)}};
  const std::map<std::string, Reader::Setter> log = {{"file", Text(config.log_file)},
                                                     {"level", LogLevel(config.log_level)}};
  const Keys security = SecurityKeys(config);
  auto& n = config.nexo;
  const Keys nexo = NexoKeys(n);
  const std::map<std::string, Reader::Setter> sandbox = {{"autopay_s", Number(config.sandbox_autopay_s, 0, 3600)}};
  const std::map<std::string, Reader::Setter> card = {{"keyed_entry", Flag(config.card.keyed_entry)}};
  auto& saf = config.offline_cards;
  std::int64_t max_age_s = saf.max_age_ms / 1000;
  const Keys offline_cards = OfflineCardKeys(saf, max_age_s);
  std::string receipt_language = "pt-BR", card_copies = "both";
  const std::map<std::string, Reader::Setter> receipt = {{"language", OneOf(receipt_language, {"pt-BR", "en-US"})},
                                                         {"card_copies", OneOf(card_copies, {"both", "customer"})}};
  const std::map<std::string, Reader::Setter> touchscreen = {
      {"language", OneOf(config.touchscreen_language, {"pt-BR", "en-US"})}};
  auto& pay = config.payout;
  auto& account = pay.account;
  const Keys payout_account = PayoutAccountKeys(account);
  std::map<std::string, Reader::Setter> payout = {
      {"enabled", Flag(pay.enabled)},
      {"store", Text(pay.store)},
      {"per_lane", Flag(pay.per_lane)},
      {"keep_balance_cents", Number(pay.keep_balance_cents, 0, 100'000'000'000)}};
  auto& t = config.tef_dial;
  const Keys tef_dial = TefDialKeys(t);
  const Keys hub = HubKeys(config.hub);
  auto nested = [&reader](const std::map<std::string, Reader::Setter>& keys) -> Reader::Setter {
    return [&reader, &keys](const json& v, const std::string& name) { return reader.Read(v, name, keys); };
  };
  payout["account"] = nested(payout_account);
  BALCAO_RETURN_IF_ERROR(reader.Read(root, "",
                                     {{"merchant", nested(merchant)},
                                      {"checkout", nested(checkout)},
                                      {"connectivity", nested(connectivity)},
                                      {"printer", nested(printer)},
                                      {"catch_up_interval_s", Number(config.catch_up_interval_s, 1, 86400)},
                                      {"webhook_url", Text(config.webhook_url)},
                                      {"store_id", LaneId(config.store_id)},
                                      {"terminal_id", LaneId(config.terminal_id)},
                                      {"clock_offset_warn_s", Number(config.clock_offset_warn_s, 1, 86400)},
                                      {"disk_free_floor_mb", Number(config.disk_free_floor_mb, 0, 1 << 20)},
                                      {"data_dir", Text(config.data_dir)},
                                      {"listen", nested(listen)},
                                      {"bank", nested(bank)},
                                      {"log", nested(log)},
                                      {"security", nested(security)},
                                      {"nexo", nested(nexo)},
                                      {"sandbox", nested(sandbox)},
                                      {"receipt", nested(receipt)},
                                      {"touchscreen", nested(touchscreen)},
                                      {"payout", nested(payout)},
                                      {"offline_cards", nested(offline_cards)},
                                      {"card", nested(card)},
                                      {"tef_dial", nested(tef_dial)},
                                      {"hub", nested(hub)}}));
  BALCAO_RETURN_IF_ERROR(CheckRegisters(config));
  saf.max_age_ms = max_age_s * 1000;
  config.store.options.language = receipt_language == "en-US" ? printer::Language::kEnUs : printer::Language::kPtBr;
  config.store.merchant_copy = card_copies == "both";
  BALCAO_RETURN_IF_ERROR(CheckPayout(config.payout));
  BALCAO_RETURN_IF_ERROR(CheckListen(config));
  ResolveFiles(config, path);
  return config;
}

std::string FindConfigFile(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (std::string env = Env("BALCAO_CONFIG"); !env.empty()) return env;
  std::error_code ec;
  return std::filesystem::exists(kInstalledConfigPath, ec) ? kInstalledConfigPath : "";
}

StatusOr<BoxTarget> FindBox(const std::string& db_flag, const std::string& config_flag) {
  BoxTarget box;
  box.store_path = !db_flag.empty() ? db_flag : Env("BALCAO_DB");
  box.config_path = FindConfigFile(config_flag);
  if (!box.config_path.empty()) {
    auto config = LoadServeConfig(box.config_path);
    if (!config.ok()) return Status(config.status().code(), "--config " + config.status().message());
    if (box.store_path.empty() && !config->data_dir.empty())
      box.store_path = (std::filesystem::path(config->data_dir) / kStoreFileName).string();
    if (Env("BALCAO_CREDENTIALS").empty()) box.credentials_path = config->bank_credentials;
  }
  // Typed where `balcao serve` runs with its defaults (a first run from the README): the store
  // serve made in ./balcao-data. Only when it exists: a tool never makes a store there itself.
  if (box.store_path.empty()) {
    std::error_code ec;
    const auto here = std::filesystem::absolute(std::filesystem::path(kDefaultDataDir) / kStoreFileName, ec);
    if (!ec && std::filesystem::exists(here, ec)) box.store_path = here.string();
  }
  // A box without a bank runs the embedded sandbox inside `balcao serve`: its tools talk to
  // that one (reachable while the service runs) rather than fail for want of credentials.
  if (box.credentials_path.empty() && Env("BALCAO_CREDENTIALS").empty() && Env("BALCAO_BANK_URL").empty()) {
    const auto sandbox = std::filesystem::path(box.store_path).parent_path() / "sandbox" / "credentials.json";
    std::error_code ec;
    if (std::filesystem::exists(sandbox, ec)) box.credentials_path = sandbox.string();
  }
  if (box.store_path.empty())
    return InvalidArgumentError(std::string("--db: which store? Give --db FILE, set BALCAO_DB, name a config with "
                                            "data_dir (--config FILE, BALCAO_CONFIG, ") +
                                kInstalledConfigPath + "), or run where `balcao serve` made ./" + kDefaultDataDir);
  return box;
}

}  // namespace balcao::terminal::service
