// The night counts TEF Dial sales apart per fiscal document: pending, confirmed, undone,
// cancelled, declined; a sale still pending needs the operator; the policy's decisions are named.
#include <gtest/gtest.h>

#include "settlement/report.h"
#include "settlement/settlement.h"

namespace balcao::settlement {
namespace {

namespace tef = integration::tefdial;

constexpr UnixMicros kAt = 1'764'100'000'000'000;

void Sale(tef::Exchange& x, const std::string& doc, const std::string& sale, Cents amount) {
  const std::string key = "CRT|" + sale + "|" + doc;
  ASSERT_TRUE(tef::Apply(x, tef::CrtOpened{key, sale, doc, amount, "IntPos.001", kAt}).ok());
  ASSERT_TRUE(
      tef::Apply(x, tef::SaleApproved{key, sale, tef::NextNsu(x), tef::Approval{"pix", "E1", "", "", 1, kAt}}).ok());
}

TEST(TefDialDay, CountsEachPhaseApartPerFiscalDocument) {
  tef::Exchange x;
  Sale(x, "100", "s1", 1000);
  ASSERT_TRUE(tef::Apply(x, tef::Confirmed{"s1", "cnf", kAt}).ok());
  Sale(x, "100", "s2", 500);
  ASSERT_TRUE(tef::Apply(x, tef::UndoStarted{"s2", "ncn", kAt}).ok());
  ASSERT_TRUE(tef::Apply(x, tef::Undone{"s2", kAt}).ok());
  Sale(x, "200", "s3", 700);  // never resolved
  Sale(x, "300", "s4", 900);
  ASSERT_TRUE(tef::Apply(x, tef::UndoStarted{"s4", "policy-undo", kAt}).ok());
  ASSERT_TRUE(tef::Apply(x, tef::Undone{"s4", kAt}).ok());
  const TefDialDay day = CountTefDial(x, kAt - 1, kAt + 1);
  ASSERT_EQ(day.documents.size(), 3u);
  EXPECT_EQ(day.documents[0].fiscal_document, "100");
  EXPECT_EQ(day.documents[0].confirmed, 1);
  EXPECT_EQ(day.documents[0].confirmed_amount, 1000);
  EXPECT_EQ(day.documents[0].undone, 1);
  EXPECT_EQ(day.documents[1].pending, 1);
  EXPECT_EQ(day.documents[2].undone, 1);
  ASSERT_EQ(day.documents[2].notes.size(), 1u);
  EXPECT_NE(day.documents[2].notes[0].find("undone by tef_dial.unresolved"), std::string::npos);
  EXPECT_EQ(day.total.confirmed + day.total.undone + day.total.pending, 4);
  EXPECT_TRUE(CountTefDial(x, kAt + 1, kAt + 2).documents.empty());  // another day

  DayInput input;
  input.day = "2025-11-25";
  input.now = kAt;
  input.tef_dial = day;
  const Report report = Reconcile(input);
  EXPECT_EQ(report.attention, 1);  // the pending sale
  const std::string json = ReportJson(report);
  EXPECT_NE(json.find(R"("tef_dial":{"documents":[{"fiscal_document":"100","pending":0)"), std::string::npos) << json;
  EXPECT_NE(ReportText(report).find("doc 200: 0 confirmed, 0 undone, 0 cancelled, 1 pending"), std::string::npos)
      << ReportText(report);
}

}  // namespace
}  // namespace balcao::settlement
