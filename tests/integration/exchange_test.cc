// The two-phase confirmation: every command in every phase, repeats, the one-sale-at-a-time
// rule, the unresolved-sale policy's selection; and the exchange log's replay after a torn write.
#include "integration/tefdial/exchange.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "integration/tefdial/exchange_log.h"
#include "integration/tefdial/response.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

using ::balcao::test_util::StatusIs;

namespace balcao::integration::tefdial {
namespace {

using ::testing::HasSubstr;

constexpr UnixMicros kAt = 1'764'100'000'000'000;  // 2025-11-25T19:46:40Z

Request Crt(const std::string& id, Cents amount, const std::string& doc = "100") {
  return Request{Command::kCrt, id, doc, amount};
}
Request Named(Command command, const std::string& id, const std::string& nsu, const std::string& control = "") {
  Request r;
  r.command = command;
  r.id = id;
  r.nsu = nsu;
  r.control = control;
  return r;
}

Approval Pix() { return Approval{"pix", "dep-1", "", "", 1, kAt}; }

// A sale through CRT and approval: pending with NSU 000001.
Exchange PendingSale() {
  Exchange x;
  EXPECT_OK(Apply(x, CrtOpened{"CRT|1|100|1000", "1", "100", 1000, "IntPos.001", kAt}));
  EXPECT_OK(Apply(x, SaleApproved{"CRT|1|100|1000", "v1", NextNsu(x), Pix()}));
  return x;
}

TEST(Exchange, CrtStartsThenWaitsThenRefusesAnotherWhileOneIsOpen) {
  Exchange x;
  EXPECT_EQ(Decide(x, Crt("1", 1000)).verdict, Verdict::kStart);
  ASSERT_OK(Apply(x, CrtOpened{"CRT|1|100|1000", "1", "100", 1000, "IntPos.001", kAt}));
  EXPECT_EQ(Decide(x, Crt("1", 1000)).verdict, Verdict::kWait);  // the same CRT again
  const Decision busy = Decide(x, Crt("2", 500));
  EXPECT_EQ(busy.verdict, Verdict::kRefuse);
  EXPECT_EQ(busy.message, "OUTRA TRANSACAO EM ANDAMENTO");
  ASSERT_OK(Apply(x, SaleApproved{"CRT|1|100|1000", "v1", NextNsu(x), Pix()}));
  const Decision pending = Decide(x, Crt("2", 500));
  EXPECT_EQ(pending.verdict, Verdict::kRefuse);
  EXPECT_EQ(pending.message, "PENDENTE NSU 000001: ENVIE CNF OU NCN");
}

TEST(Exchange, CnfConfirmsOncePendingOnly) {
  Exchange x = PendingSale();
  EXPECT_EQ(Decide(x, Named(Command::kCnf, "2", "000001")).verdict, Verdict::kConfirm);
  EXPECT_EQ(Decide(x, Named(Command::kCnf, "2", "", "v1")).verdict, Verdict::kConfirm);  // by control code
  ASSERT_OK(Apply(x, Confirmed{"v1", "cnf", kAt}));
  EXPECT_EQ(Decide(x, Named(Command::kCnf, "3", "000001")).verdict, Verdict::kStatusOnly);
  EXPECT_EQ(Decide(x, Named(Command::kNcn, "3", "000001")).verdict, Verdict::kStatusOnly);  // too late: CNC
  EXPECT_EQ(Decide(x, Crt("4", 700)).verdict, Verdict::kStart);                             // nothing open any more
  EXPECT_THAT(Apply(x, Confirmed{"v1", "cnf", kAt}), StatusIs(StatusCode::kFailedPrecondition));
}

TEST(Exchange, NcnUndoesExactlyOnce) {
  Exchange x = PendingSale();
  EXPECT_EQ(Decide(x, Named(Command::kNcn, "2", "000001")).verdict, Verdict::kUndo);
  ASSERT_OK(Apply(x, UndoStarted{"v1", "ncn", kAt}));
  EXPECT_EQ(Decide(x, Named(Command::kNcn, "3", "000001")).verdict, Verdict::kStatusOnly);
  EXPECT_EQ(Decide(x, Named(Command::kCnf, "3", "000001")).verdict, Verdict::kStatusOnly);
  EXPECT_THAT(Apply(x, UndoStarted{"v1", "ncn", kAt}), StatusIs(StatusCode::kFailedPrecondition));
  ASSERT_OK(Apply(x, Undone{"v1", kAt}));
  EXPECT_EQ(x.BySale("v1")->phase, Phase::kUndone);
  EXPECT_EQ(Decide(x, Named(Command::kNcn, "9", "424242")).verdict, Verdict::kStatusOnly);  // unknown NSU
}

TEST(Exchange, CncCancelsAConfirmedSaleByNsuAmountDateAndTime) {
  Exchange x = PendingSale();
  Request cnc = Named(Command::kCnc, "5", "000001");
  cnc.amount = 1000;
  EXPECT_EQ(Decide(x, cnc).message, "TRANSACAO PENDENTE: USE NCN");
  ASSERT_OK(Apply(x, Confirmed{"v1", "cnf", kAt}));
  cnc.receipt_date = ReceiptDate(kAt);
  cnc.receipt_time = ReceiptTime(kAt);
  EXPECT_EQ(Decide(x, cnc).verdict, Verdict::kCancel);
  Request wrong_amount = cnc;
  wrong_amount.amount = 999;
  EXPECT_EQ(Decide(x, wrong_amount).message, "TRANSACAO NAO ENCONTRADA");
  Request wrong_day = cnc;
  wrong_day.receipt_date = "01012020";
  EXPECT_EQ(Decide(x, wrong_day).message, "DATA/HORA NAO CONFERE COM A TRANSACAO");
  ASSERT_OK(Apply(x, CancelStarted{"v1", RequestKey(cnc), "5", "IntPos.001", kAt}));
  EXPECT_EQ(Decide(x, cnc).message, "TRANSACAO JA CANCELADA");
}

TEST(Exchange, ARepeatedRequestGetsTheFirstAnswer) {
  Exchange x = PendingSale();
  const Request crt = Crt("1", 1000);
  ASSERT_OK(Apply(x, Answered{RequestKey(crt), "the first answer"}));
  const Decision again = Decide(x, crt);
  EXPECT_EQ(again.verdict, Verdict::kRepeat);
  EXPECT_EQ(again.answer, "the first answer");
}

TEST(Exchange, DeclinedSaleLeavesTheCounterFree) {
  Exchange x;
  ASSERT_OK(Apply(x, CrtOpened{"CRT|1|100|1000", "1", "100", 1000, "IntPos.001", kAt}));
  ASSERT_OK(Apply(x, SaleDeclined{"CRT|1|100|1000", "v1", "CARTAO RECUSADO", kAt}));
  EXPECT_EQ(Decide(x, Crt("2", 1000)).verdict, Verdict::kStart);
  const IntPos answer = CrtResponse(Crt("1", 1000), *x.BySale("v1"), Merchant{"LOJA", "00000000000191"});
  EXPECT_EQ(answer.Get(field::kStatus), "1");
  EXPECT_EQ(answer.Get(field::kOperatorMessage), "CARTAO RECUSADO");
}

// The slip prints what it has: no "CNPJ" line when the store's CNPJ is not configured; the
// bank's references named as what they are; the brand as the bank recorded it, else the BIN's.
TEST(Response, TheSlipHasNoEmptyLinesAndNamesTheBanksReferences) {
  Exchange x;
  ASSERT_OK(Apply(x, CrtOpened{"CRT|1|100|2500", "1", "100", 2500, "IntPos.001", kAt}));
  ASSERT_OK(Apply(x, SaleApproved{"CRT|1|100|2500", "v1", "000001",
                                  Approval{"card", "5656565656565656", "411111******1111", "credit", 1, kAt, "elo"}}));
  const IntPos r = CrtResponse(Crt("1", 2500), *x.BySale("v1"), Merchant{"LOJA SEM CADASTRO", ""});
  EXPECT_EQ(r.Get(field::kCardBrand), "ELO") << "the bank's network, not the BIN's (411111 is a Visa BIN)";
  bool purchase_named = false;
  for (const std::string& line : r.Lines(field::kReceiptLine)) {
    EXPECT_EQ(line.find("CNPJ"), std::string::npos) << line;
    EXPECT_EQ(line.find("AUT"), std::string::npos) << line;
    purchase_named = purchase_named || (line.find("ID COMPRA") != std::string::npos &&
                                        line.find("5656565656565656") != std::string::npos);
  }
  EXPECT_TRUE(purchase_named);
  Exchange pix;
  ASSERT_OK(Apply(pix, CrtOpened{"CRT|2|100|2500", "2", "100", 2500, "IntPos.001", kAt}));
  ASSERT_OK(
      Apply(pix, SaleApproved{"CRT|2|100|2500", "v2", "000002", Approval{"pix", "9191919191919191", "", "", 1, kAt}}));
  const IntPos p = CrtResponse(Crt("2", 2500), *pix.BySale("v2"), Merchant{"LOJA", "00000000000191"});
  bool deposit_named = false, cnpj_printed = false;
  for (const std::string& line : p.Lines(field::kReceiptLine)) {
    deposit_named = deposit_named || line.find("ID DEPOSITO") != std::string::npos;
    cnpj_printed = cnpj_printed || line.find("CNPJ 00000000000191") != std::string::npos;
  }
  EXPECT_TRUE(deposit_named);
  EXPECT_TRUE(cnpj_printed);
}

TEST(Exchange, OverduePendingSalesAreTheOnesThePolicySettles) {
  Exchange x = PendingSale();
  EXPECT_TRUE(Overdue(x, kAt + 59 * kMicrosPerSecond, 60).empty());
  EXPECT_THAT(Overdue(x, kAt + 60 * kMicrosPerSecond, 60), ::testing::ElementsAre("v1"));
}

TEST(Response, ApprovedCardSaleCarriesWhatThePdvPrintsAndTheNfceNeeds) {
  Exchange x;
  ASSERT_OK(Apply(x, CrtOpened{"CRT|1|100|150000", "1", "100", 150000, "IntPos.001", kAt}));
  ASSERT_TRUE(Apply(x, SaleApproved{"CRT|1|100|150000", "v1", "000001",
                                    Approval{"card", "pur-9", "516292******7788", "credit", 3, kAt}})
                  .ok());
  const IntPos r = CrtResponse(Crt("1", 150000), *x.BySale("v1"), Merchant{"LOJA EXEMPLO", "00000000000191"});
  EXPECT_EQ(r.Get(field::kStatus), "0");
  EXPECT_EQ(r.Get(field::kNsu), "000001");
  EXPECT_EQ(r.Get(field::kControl), "v1");
  EXPECT_EQ(r.Get(field::kAuthorization), "pur-9");
  EXPECT_EQ(r.Get(field::kCardBrand), "MASTERCARD");
  EXPECT_EQ(r.Get(field::kTransactionType), "11");
  EXPECT_EQ(r.Get(field::kInstallments), "3");
  EXPECT_EQ(r.Get(field::kMaskedCard), "516292******7788");
  EXPECT_EQ(r.Get(field::kConfirmation), "2");
  EXPECT_EQ(r.Get(field::kReceiptDate), "25112025");  // 16:46:40 in Brasília
  EXPECT_EQ(r.Get(field::kReceiptTime), "164640");
  const auto both = r.Lines(field::kReceiptLine);
  EXPECT_EQ(std::to_string(both.size()), r.Get(field::kReceiptLines));
  EXPECT_EQ(r.Lines(field::kCustomerLine).size() + r.Lines(field::kMerchantLine).size() + 5, both.size());
  for (const std::string& line : both) EXPECT_LE(line.size(), 40u) << line;
  EXPECT_THAT(both.back(), HasSubstr("TRANSACAO APROVADA"));
}

class ExchangeLogTest : public ::testing::Test {
 protected:
  test_util::TempDir tmp_{"tefdial-log"};
  const std::filesystem::path dir_ = tmp_.path();
};

TEST_F(ExchangeLogTest, ReplaysWhatWasAppendedAndDropsATornLastLine) {
  const std::string path = (dir_ / "exchange.jsonl").string();
  {
    Exchange x;
    auto log = ExchangeLog::Open(path, x);
    ASSERT_OK(log);
    ASSERT_OK((*log)->Append(x, CrtOpened{"CRT|1|100|1000", "1", "100", 1000, "IntPos.001", kAt}));
    ASSERT_OK((*log)->Append(x, SaleApproved{"CRT|1|100|1000", "v1", "000001", Pix()}));
    EXPECT_THAT((*log)->Append(x, Undone{"v1", kAt}), StatusIs(StatusCode::kFailedPrecondition));  // not written
    ASSERT_OK((*log)->Append(x, Answered{"CRT|1|100|1000", "000-000 = CRT\r\n"}));
  }
  {
    std::ofstream torn(path, std::ios::app);
    torn << R"({"event":"confirmed","sale_id":"v1","by":"cnf")";  // the power went mid-write
  }
  Exchange x;
  auto log = ExchangeLog::Open(path, x);
  ASSERT_OK(log);
  ASSERT_NE(x.BySale("v1"), nullptr);
  EXPECT_EQ(x.BySale("v1")->phase, Phase::kPending);
  EXPECT_EQ(x.answers.at("CRT|1|100|1000"), "000-000 = CRT\r\n");
  EXPECT_EQ(x.last_nsu, 1);
  ASSERT_OK((*log)->Append(x, Confirmed{"v1", "cnf", kAt}));  // starts on a line of its own
  auto again = ReadExchangeLog(path);
  ASSERT_OK(again);
  EXPECT_EQ(again->BySale("v1")->phase, Phase::kConfirmed);
}

TEST_F(ExchangeLogTest, ABrokenLineInTheMiddleIsDataLoss) {
  const std::string path = (dir_ / "exchange.jsonl").string();
  std::ofstream(path) << "not json\n" << EventToJson(CrtOpened{"CRT|1||5", "1", "", 5, "IntPos.001", kAt}) << "\n";
  Exchange x;
  EXPECT_THAT(ExchangeLog::Open(path, x), StatusIs(StatusCode::kDataLoss));
}

}  // namespace
}  // namespace balcao::integration::tefdial

namespace balcao::integration::tefdial {
namespace {

// tests/data/tefdial_fields.tsv lists every field with its public source (docs/integration.md).
TEST(FieldTable, EveryFieldTheBoxWritesIsListedWithASource) {
  std::ifstream in(std::string(BALCAO_TEST_DATA_DIR) + "/tefdial_fields.tsv");
  ASSERT_TRUE(in.good());
  std::set<std::string> listed;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    EXPECT_FALSE(line.substr(line.rfind('\t') + 1).empty()) << "no source: " << line;
    listed.insert(line.substr(0, tab));
  }
  Exchange x;
  ASSERT_OK(Apply(x, CrtOpened{"k", "1", "100", 150000, "IntPos.001", kAt}));
  ASSERT_TRUE(
      Apply(x, SaleApproved{"k", "v1", "000001", Approval{"card", "p", "516292******7788", "credit", 3, kAt}}).ok());
  ASSERT_OK(Apply(x, Confirmed{"v1", "cnf", kAt}));
  const Merchant merchant{"LOJA", "00000000000191", "BALCAO", "00000000000272"};
  Request cnc = Named(Command::kCnc, "2", "000001");
  cnc.amount = 150000;
  const Request crt = Crt("1", 150000);
  for (const IntPos& written : {CrtResponse(crt, *x.BySale("v1"), merchant), Refusal(crt, "NEGADA"),
                                CncResponse(cnc, *x.BySale("v1"), merchant, kAt),
                                AdmResponse(Request{Command::kAdm, "3"}, x.BySale("v1"), merchant),
                                StatusFile(CrtResponse(crt, *x.BySale("v1"), merchant))}) {
    for (const auto& [key, value] : written.fields()) {
      const std::string text = KeyText(key);
      const std::string repeated = text.substr(0, 4) + "xxx";
      EXPECT_TRUE(listed.count(text) || listed.count(repeated)) << text << " is written but not in the field table";
    }
  }
}

}  // namespace
}  // namespace balcao::integration::tefdial
