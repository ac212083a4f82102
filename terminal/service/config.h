// `balcao serve --config FILE`: the store's settings as JSON with // and /* */ comments
// (docs/terminal.md, "Configuration"). Every key is optional; a key of the wrong type or out
// of range is refused naming it. Unknown keys are refused too (a typo must not silently do
// nothing). The box's local tools (`queue`, `settle`, `print jobs`, `journal`) read the same
// file to find the box's store and bank. Thread-safety: plain values.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "checkout/types.h"
#include "common/status.h"
#include "offline/connectivity.h"
#include "offline/sealed_cards.h"
#include "settlement/payout.h"
#include "terminal/internal/receipts.h"

namespace balcao::terminal::service {

struct ServeConfig {
  StoreIdentity store;                         // merchant on the receipts
  std::string touchscreen_language = "pt-BR";  // "pt-BR" or "en-US" (receipt.language sets the receipts')
  std::string printer_profile = "80mm";
  std::string printer;           // transport target; --printer wins
  checkout::Settings settings;   // copied into each new sale
  int catch_up_interval_s = 60;  // Intake::CatchUp period (webhooks missed)
  offline::ConnectivityOptions connectivity;
  // Card entry (docs/adr/0009-card-on-the-customer-phone.md): the customer pays on their own
  // phone; typing the card on the touchscreen is the exception, off unless the store turns it
  // on, and then each keyed sale needs a supervisor's approval.
  struct Card {
    bool keyed_entry = false;
  } card;
  // Card sales while the bank is unreachable (off by default; keyed cards only); kek_path "" =
  // kPackagedKeyDir/card-kek when the package made that folder, else <data_dir>.card-kek beside
  // the data dir (never inside it).
  offline::StoreAndForwardSettings offline_cards;
  std::string webhook_url;            // real bank: registered at start when no webhook has it
  settlement::PayoutSettings payout;  // the nightly settlement's payout (`balcao settle`)

  // The box's lane (docs/stores.md; terminal/service/lane_identity.h): checked by
  // checkout::LaneIdRule here; "" = the default store, a terminal id kept in the data dir.
  std::string store_id, terminal_id;
  // Health (docs/operations.md, "When the box is unwell"): the box's clock this far from the
  // bank's is shown on /readyz and the touchscreen; below this much free space in the data dir
  // new sales are refused (open ones keep finishing).
  int clock_offset_warn_s = 60;
  int disk_free_floor_mb = 20;

  // Where the box lives. Relative paths in the file are relative to the file's folder.
  std::string data_dir;  // the store's folder; "" = not set
  std::string address;   // listen address; "" = not set
  int port = -1;         // listen port; -1 = not set
  // TLS of the listener (docs/terminal.md, "TLS on the LAN"): unset = off on loopback, on
  // elsewhere; true = on; false = off (refused beyond loopback without --insecure-lan).
  std::optional<bool> tls;
  std::string tls_cert, tls_key;    // PEM files; both or neither; "" = a self-signed one in the data dir
  std::string bank_credentials;     // credentials.json of the bank; "" = embedded sandbox
  std::string log_file, log_level;  // weaker than --log-file/--log-level and the environment

  // Who may call (docs/security.md).
  int session_idle_s = 900;             // an operator's session ends after this long idle
  int webhook_retention_days = 7;       // the replay window of webhook deliveries (offline/applied_events.h)
  std::vector<std::string> host_names;  // Host names the service answers to, beyond 127.0.0.1/localhost

  // Cash registers over nexo (docs/integration.md).
  struct Nexo {
    int port = -1;                           // -1 = not set: 8443 once a register is registered
    bool allow_plain_loopback = false;       // unprotected requests from loopback
    int response_timeout_s = 150;            // a payment still open then is answered InProgress
    std::string print = "none";              // what the box prints of a register's sale: none, customer, both
    std::string institution_cnpj;            // the payment institution's CNPJ for the NFC-e (14 digits)
    bool reversal_needs_supervisor = false;  // a register's reversal also waits for a supervisor on the screen
    std::string certificate_common_name;     // the box certificate's subject CN; "" = "balcao" (docs/integration.md)
  } nexo;

  // Cash registers over TEF Dial, the IntPos file exchange (docs/integration.md, "TEF Dial").
  struct TefDial {
    std::string dir;                  // holds req/ and resp/; "" = off (--tef-dial-dir wins)
    std::string group;                // group of req/ and resp/ (mode 2770); "" = the service's
    std::string method = "ask";       // pix, card or ask (the box's screen asks)
    std::string unresolved = "undo";  // what happens to a sale no PDV confirms nor undoes: undo or confirm
    int unresolved_after_s = 600;     // ... after this long
  } tef_dial;
  // The chain's hub (docs/hub.md, "The box"): with a credentials file the box pulls its lane's
  // events from the hub's NATS (url: nats:// or tls://; "" = the file's) and registers no webhook.
  struct Hub {
    std::string url;
    std::string credentials;  // written 0600 by `balcao hub join`; "" = no hub
    int heartbeat_s = 30;     // the box's heartbeat to the hub, this often
    // The hub's public HTTPS address ("https://hub.example.com.br"): the phone-card page's QR
    // points there, the hub serving it (docs/hub.md, "The phone page's public home"); "" = the box's own.
    std::string public_url;
  } hub;
  int sandbox_autopay_s = 0;  // the embedded sandbox's payer pays each Pix QR this long after it shows; 0 = never
};

// The installed box's config file, read by the local tools when nothing else is named.
inline constexpr const char* kInstalledConfigPath = "/etc/balcao/balcao.conf";
// The merchant's name on receipts until the config names the store (merchant.name).
inline constexpr const char* kDefaultMerchantName = "LOJA BALCAO";
// The root-owned folder the package makes for the store-and-forward's key (deploy/package/postinst).
inline constexpr const char* kPackagedKeyDir = "/etc/balcao/keys";
// The store file inside a data dir.
inline constexpr const char* kStoreFileName = "balcao.db";

// Defaults when `path` is empty. kInvalidArgument naming the key; kNotFound for the file.
StatusOr<ServeConfig> LoadServeConfig(const std::string& path);

// The config file a local tool reads: `flag`, else $BALCAO_CONFIG, else kInstalledConfigPath
// when it exists, else "" (none).
std::string FindConfigFile(const std::string& flag);

// What a local tool (`balcao queue`, `settle`, `print jobs`, `journal verify`) works on: the
// store is `db_flag`, else $BALCAO_DB, else <data_dir>/balcao.db of the config file
// (FindConfigFile(config_flag)); the bank's credentials file is $BALCAO_CREDENTIALS when set
// (LoadConfig reads it), else the config's bank.credentials, else, on a box without a bank,
// the embedded sandbox's <data_dir>/sandbox/credentials.json when it exists, else "".
// kInvalidArgument naming all three places when no store is named anywhere.
struct BoxTarget {
  std::string store_path;
  std::string credentials_path;
  std::string config_path;  // "" when no config file was read
};
StatusOr<BoxTarget> FindBox(const std::string& db_flag, const std::string& config_flag);

}  // namespace balcao::terminal::service
