// The hub's NATS over TLS (docs/hub.md, "NATS"): nats-server requires TLS with a certificate of
// the chain's own CA; the hub and the boxes dial tls:// trusting that CA (the box's from
// `balcao hub join --nats-ca`), and a box's events arrive as without TLS; a client that does not
// trust the CA, or dials without TLS, gets no connection.
#include <gtest/gtest.h>

#include "terminal/service/hub_link.h"
#include "tests/hub/hub_fixture.h"

namespace balcao::hub::testing {
namespace {

class HubTls : public HubE2E {
 protected:
  HubTls() { nats_tls_ = true; }
};

TEST_F(HubTls, ABoxTakesItsEventsOverTlsAndNothingConnectsWithoutIt) {
  auto own = terminal::service::LoadHubCredentials((boxes_[0]->dir / "hub.json").string());
  ASSERT_OK(own);
  EXPECT_EQ(own->nats_url, NatsUrl());
  EXPECT_EQ(own->ca_file, nats_ca_) << "join kept the CA the box must trust";
  StartBox(*boxes_[0]);
  const Sale sale = Sell(*boxes_[0], "pix", 6100);
  Pay(sale);
  ExpectPaidOnce(sale);
  ExpectEveryConsumerDrained();

  NatsEndpoint untrusting{NatsUrl(), own->user, own->password, "", LaneInbox("loja-1", "caixa-1"), "probe"};
  EXPECT_FALSE(NatsLink::Connect(untrusting, std::chrono::milliseconds(300)).ok())
      << "the server's certificate is not the system's CA's";
  NatsEndpoint plain = untrusting;  // nats://, no TLS asked for (a CA file would ask for it)
  plain.url = nats_.url();
  EXPECT_FALSE(NatsLink::Connect(plain, std::chrono::milliseconds(300)).ok()) << "nats-server requires TLS";
}

}  // namespace
}  // namespace balcao::hub::testing
