// Where the hub sends an event (hub/routing.h): by its entity's lane tags, deposits by their
// brcode, everything else to the unclaimed subject.
#include "hub/routing.h"

#include <gtest/gtest.h>

namespace balcao::hub {
namespace {

api::Event EventOf(const std::string& subscription, const std::string& entity_json) {
  api::Event event;
  event.id = "e1";
  event.subscription = subscription;
  event.log.entity_json = entity_json;
  return event;
}

TEST(HubRouting, NamesAreTheLanes) {
  EXPECT_EQ(LaneSubject("loja-1", "caixa-2"), "balcao.events.loja-1.caixa-2");
  EXPECT_EQ(ConsumerName("loja-1", "caixa-2"), "lane_loja-1_caixa-2");
  // '_' is in no id: store "a-b" lane "c" and store "a" lane "b-c" get different consumers.
  EXPECT_NE(ConsumerName("a-b", "c"), ConsumerName("a", "b-c"));
  EXPECT_EQ(BoxSubject("loja-1", "caixa-2", "heartbeat"), "balcao.box.loja-1.caixa-2.heartbeat");
}

TEST(HubRouting, AnInvoiceGoesToTheLaneItsTagsName) {
  const Route route = RouteOfEvent(EventOf(
      "invoice", R"({"id":"1","tags":["store/loja-1","store/loja-1/lane/caixa-2","store/loja-1/lane/caixa-2/sale/v1",)"
                 R"("store/loja-1/lane/caixa-2/sale/v1/a1"]})"));
  EXPECT_EQ(route.subject, "balcao.events.loja-1.caixa-2");
  EXPECT_EQ(route.store, "loja-1");
  EXPECT_EQ(route.terminal, "caixa-2");
  EXPECT_TRUE(route.brcode_uuid.empty());
}

TEST(HubRouting, UntaggedAndOldLayoutEntitiesAreUnclaimed) {
  EXPECT_EQ(RouteOfEvent(EventOf("invoice", R"({"id":"1"})")).subject, kUnclaimedSubject);
  EXPECT_EQ(RouteOfEvent(EventOf("invoice", R"({"id":"1","tags":["sale/v1","sale/v1/a1"]})")).subject,
            kUnclaimedSubject);
  EXPECT_EQ(RouteOfEvent(EventOf("invoice", "not json")).subject, kUnclaimedSubject);
  // A tag that would break out of the subject's tokens names no lane.
  EXPECT_EQ(RouteOfEvent(EventOf("invoice", R"({"tags":["store/a.b/lane/c/sale/v1"]})")).subject, kUnclaimedSubject);
  EXPECT_EQ(RouteOfEvent(EventOf("invoice", R"({"tags":["store/a/lane/>/sale/v1"]})")).subject, kUnclaimedSubject);
}

TEST(HubRouting, ADepositWaitsForItsBrcodesLane) {
  const Route route = RouteOfEvent(EventOf("deposit", R"({"id":"d1","tags":["dynamic-brcode/abc123"]})"));
  EXPECT_TRUE(route.subject.empty());
  EXPECT_EQ(route.brcode_uuid, "abc123");
  EXPECT_EQ(RouteOfEvent(EventOf("deposit", R"({"id":"d1","tags":[]})")).subject, kUnclaimedSubject);
}

}  // namespace
}  // namespace balcao::hub
