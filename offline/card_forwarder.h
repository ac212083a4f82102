// The CardAuthorizer that forwards a sealed card sale to the bank once it is reachable:
// a merchant session, then the purchase by the session's uuid, carrying what was captured
// when the card was sealed (CardData::forward, docs/offline.md): the sale's tags (its lane's,
// as an online card sale's: the lane's settlement matches it), the store's challenge mode
// (disabled only where the store configured it so), the holder's contact, billing address and
// device data. Both also carry "saf-" + sale_id; the purchase inherits the session's tags, so
// "did it reach the bank?" is GET /v2/merchant-purchase?tags=saf-<sale>. A record sealed
// before that data was kept goes as it used to: tags [sale_id, saf-sale_id], challenge
// disabled, empty metadata.
// The request body holding the card is built in one reserved buffer and wiped after the
// call; copies made inside the HTTP client are out of this code's reach (see
// docs/offline.md).
// Thread-safety: as the BankGateway it uses.
#pragma once

#include <string>

#include "offline/bank_gateway.h"
#include "offline/sealed_cards.h"

namespace balcao::offline {

class BankCardAuthorizer final : public CardAuthorizer {
 public:
  explicit BankCardAuthorizer(BankGateway& bank) : bank_(bank) {}
  // Approved: approved/confirmed/paid. Declined: denied/failed/canceled/voided.
  // Created/pending (a slow issuer): kFailedPrecondition, asked again next round.
  StatusOr<Decision> Authorize(const SealedCardInfo& info, const CardData& card, bool may_exist,
                               bool lookup_only) override;

  static std::string LookupTag(const std::string& sale_id) { return "saf-" + sale_id; }

 private:
  StatusOr<Decision> Lookup(const SealedCardInfo& info, bool& found);
  BankGateway& bank_;
};

}  // namespace balcao::offline
