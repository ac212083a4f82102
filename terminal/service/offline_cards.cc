// Card sales while the bank is unreachable (docs/terminal.md, "Offline card sales"): opt-in per
// store (`offline_cards.enabled`). The card is sealed in the store-and-forward
// (offline/sealed_cards.h: AES-256-GCM under a key-encryption key file of the data dir, within
// its caps per sale, in total and in age) before the sale is told (CardHeldOffline), so a
// provisional sale always has its card. Once the bank answers again, the sealed cards are
// forwarded (offline/card_forwarder.h: looked up by tag before any resend, so each reaches the
// bank once), the record destroyed, and the outcome fed to the sale (CardForwarded): paid with
// its receipt, or voided with a flag and a printed decline notice.
#include "terminal/service/offline_cards.h"

#include <fcntl.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "checkout/driver/purchase_customer.h"
#include "common/log.h"
#include "printer/templates.h"
#include "terminal/internal/sale_events.h"

namespace balcao::terminal::service {
namespace {

constexpr UnixMicros kForwardInterval = 2 * kMicrosPerSecond;

// The key-encryption key: 32 random bytes in a 0600 file, made once.
Status EnsureKek(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return OkStatus();
  unsigned char key[32];
  if (RAND_bytes(key, sizeof key) != 1) return InternalError("offline_cards: no randomness for the card key");
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return FailedPreconditionError("offline_cards.kek_file: cannot create " + path);
  const bool written = ::write(fd, key, sizeof key) == static_cast<ssize_t>(sizeof key) && ::fsync(fd) == 0;
  ::close(fd);
  OPENSSL_cleanse(key, sizeof key);
  if (!written) return FailedPreconditionError("offline_cards.kek_file: cannot write " + path);
  return OkStatus();
}

// What the card's forward carries besides it (offline/card_forwarder.h), captured now as an
// online card sale's session and purchase would carry it: the sale's tags (its lane's, for the
// lane's settlement), the store's challenge mode, the customer's contact, address and device.
std::string ForwardOf(const checkout::Sale& sale, const checkout::CardData& card,
                      const checkout::BrowserData& browser) {
  nlohmann::json purchase = nlohmann::json::object();
  api::ToJson(checkout::PurchaseCustomer(card, browser), purchase);
  if (!purchase.contains("metadata")) purchase["metadata"] = nlohmann::json::object();
  return nlohmann::json{{"tags", checkout::EntityTags(sale.settings.lane, sale.id, sale.attempts + 1)},
                        {"challengeMode", sale.settings.challenge_enabled ? "enabled" : "disabled"},
                        {"purchase", purchase}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

StatusOr<std::unique_ptr<OfflineCards>> OfflineCards::Open(const ServeConfig& config, const std::string& data_dir,
                                                           offline::Store& store, BankReach& reach, SaleDesk& sales,
                                                           offline::Journal& journal, ReceiptPrinter& receipts) {
  offline::StoreAndForwardSettings settings = config.offline_cards;
  if (!settings.enabled) return std::unique_ptr<OfflineCards>();
  // Never inside the data dir: a copy of the data dir alone must open no card. The package
  // makes /etc/balcao/keys (root:balcao 0750) and the key in it (root:balcao 0440); elsewhere
  // the key sits beside the data dir.
  if (settings.kek_path.empty()) {
    std::error_code ec;
    const std::filesystem::path data = std::filesystem::absolute(data_dir).lexically_normal();
    settings.kek_path = std::filesystem::is_directory(kPackagedKeyDir, ec)
                            ? std::string(kPackagedKeyDir) + "/card-kek"
                            : (data.parent_path() / (data.filename().string() + ".card-kek")).string();
  }
  BALCAO_RETURN_IF_ERROR(EnsureKek(settings.kek_path));
  std::unique_ptr<OfflineCards> cards(new OfflineCards(config, reach, sales, journal, receipts));
  BALCAO_ASSIGN_OR_RETURN(cards->sealed_, offline::SealedCards::Open(store, settings));
  cards->authorizer_ = std::make_unique<offline::BankCardAuthorizer>(reach.gateway());
  return cards;
}

bool OfflineCards::TakesCardsOffline(const std::string& sale_id) const {
  if (!sealed_ || reach_.online()) return false;
  auto sale = sales_.driver().Get(sale_id);
  return sale.ok() && std::holds_alternative<checkout::ChoosingMethod>(sale->state);
}

StatusOr<checkout::Sale> OfflineCards::HoldCardOffline(const std::string& sale_id, checkout::CardData& card,
                                                       const checkout::BrowserData& browser,
                                                       checkout::FundingType funding, int installments) {
  BALCAO_ASSIGN_OR_RETURN(const checkout::Sale sale, sales_.driver().Get(sale_id));
  const std::string mask = printer::MaskPan(card.number).str();
  const checkout::CardHeldOffline held{mask, funding, installments, SystemClock::Instance().Now()};
  BALCAO_RETURN_IF_ERROR(sales_.Acceptable(sale_id, held));
  offline::CardData sealed;
  sealed.number = card.number;
  sealed.security_code = card.security_code;
  sealed.expiration = card.expiration;
  sealed.holder_name = card.holder_name;
  sealed.funding_type = checkout::Name(funding);
  sealed.installments = installments;
  sealed.forward = ForwardOf(sale, card, browser);
  // The caps (per sale, in total) answer here, with the reason for the cashier.
  BALCAO_RETURN_IF_ERROR(sealed_->Accept(sale_id, sale.amount, sealed).status());
  return sales_.driver().Feed(sale_id, held);
}

void OfflineCards::ForwardHeldCards() {
  if (!sealed_) return;
  const UnixMicros now = SystemClock::Instance().Now();
  if (now < next_forward_) return;
  next_forward_ = now + kForwardInterval;
  if (reach_.online() && sealed_->PendingTotal() > 0) {
    auto decided = sealed_->ForwardAll(*authorizer_, now / 1000);
    if (!decided.ok()) {
      logging::Warn("serve", "offline cards not forwarded yet", {{"reason", decided.status().message()}});
    } else if (*decided > 0) {
      logging::Info("serve", "offline cards forwarded", {{"decided", *decided}});
    }
  }
  // Outcomes (forwarded, or dropped by a supervisor while offline) stay until the nightly
  // settlement reports them; a sale still held takes its own.
  auto outcomes = sealed_->UnreportedOutcomes();
  if (!outcomes.ok()) return;
  for (const offline::CardOutcome& o : *outcomes) {
    if (!sales_.book().Knows(o.sale_id)) continue;
    if (!sales_.IsOpen(o.sale_id) && !sales_.driver().Get(o.sale_id).ok() && !sales_.driver().Resume(o.sale_id).ok())
      continue;
    auto sale = sales_.driver().Get(o.sale_id);
    if (!sale.ok() || !std::holds_alternative<checkout::CardHeld>(sale->state)) continue;
    const bool approved = o.outcome == offline::CardOutcomeKind::kApproved;
    const std::string reason =
        o.outcome == offline::CardOutcomeKind::kExpired ? "too old: declined locally: " + o.reason : o.reason;
    const checkout::CardForwarded forwarded{approved, o.bank_id, o.amount, reason, now};
    auto fed = sales_.FeedIfAccepted(o.sale_id, forwarded);
    if (!fed.ok()) {
      logging::Warn("serve", "offline card outcome not applied",
                    {{"sale", o.sale_id}, {"reason", fed.status().message()}});
      continue;
    }
    sales_.Touch(o.sale_id);
    if (!approved) {
      const CardTerms card = ReadCardTerms(journal_, o.sale_id);
      printer::ForwardedDecline notice{receipts_.store().merchant,
                                       now,
                                       o.amount,
                                       o.sale_id,
                                       o.masked_pan,
                                       card.network,
                                       o.reason,
                                       o.outcome == offline::CardOutcomeKind::kExpired};
      // Logged where it failed; the decline is recorded whether or not the notice prints.
      receipts_
          .PrintReceipt(o.sale_id, "forwarded-decline", printer::ForwardedDeclineNotice(notice, config_.store.options))
          .IgnoreError();
    }
  }
}

}  // namespace balcao::terminal::service
