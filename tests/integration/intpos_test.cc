// The IntPos format and the requests: what real PDVs write (CRLF or LF, quotes or none, any
// order), what the box writes, and the rule each bad request breaks.
#include "integration/tefdial/intpos.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "integration/tefdial/request.h"

namespace balcao::integration::tefdial {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(IntPos, ReadsWhatPdvsWrite) {
  // LF endings, a quoted value, no spaces around '=', fields out of order, a BOM.
  auto file = Parse(
      "\xEF\xBB\xBF"
      "003-000=1000\n001-000 = 42\n000-000 = CRT\n002-000 = \"123456\"\n\n999-999 = 0\n");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_EQ(file->Get(field::kCommand), "CRT");
  EXPECT_EQ(file->Get(field::kId), "42");
  EXPECT_EQ(file->Get(field::kFiscalDocument), "123456");
  EXPECT_EQ(file->Get(field::kAmount), "1000");
  auto crlf = Parse("000-000 = ATV\r\n001-000 = 7\r\n999-999 = 0\r\n");
  ASSERT_TRUE(crlf.ok());
  EXPECT_EQ(crlf->Get(field::kId), "7");
  EXPECT_EQ(crlf->Get(field::kTrailer), "0");
}

TEST(IntPos, RefusesNamingTheLineAndTheRule) {
  EXPECT_THAT(Parse("000-000 = ATV\nhello\n").status().message(), HasSubstr("line 2: not 'NNN-NNN = value'"));
  EXPECT_THAT(Parse("00-000 = ATV\n").status().message(), HasSubstr("three digits, '-', three digits"));
  EXPECT_THAT(Parse("001-000 = 1\n001-000 = 2\n").status().message(), HasSubstr("001-000 appears twice"));
}

TEST(IntPos, WritesCrlfInFieldOrderWithQuotedReceiptsAndTrailerLast) {
  IntPos file;
  file.Set(field::kTrailer, "0");
  file.Set(field::kStatus, "0");
  file.Set(field::kCommand, "CRT");
  file.Set(field::kId, "1");
  file.SetLines(field::kReceiptLines, field::kReceiptLine, {"LOJA", "VALOR R$ 10,00 \xC3\xA9"});
  EXPECT_EQ(Write(file),
            "000-000 = CRT\r\n001-000 = 1\r\n009-000 = 0\r\n028-000 = 2\r\n029-001 = \"LOJA\"\r\n"
            "029-002 = \"VALOR R$ 10,00 ??\"\r\n999-999 = 0\r\n");
  auto back = Parse(Write(file));
  ASSERT_TRUE(back.ok());
  EXPECT_THAT(back->Lines(field::kReceiptLine), ElementsAre("LOJA", "VALOR R$ 10,00 ??"));
}

TEST(IntPos, NamesInEitherCaseAnswerInTheCaseUsed) {
  EXPECT_TRUE(IsRequestName("IntPos.001"));
  EXPECT_TRUE(IsRequestName("intpos.001"));
  EXPECT_TRUE(IsRequestName("INTPOS.001"));
  EXPECT_FALSE(IsRequestName("IntPos.tmp"));
  EXPECT_FALSE(IsRequestName("IntPos.001.bak"));
  EXPECT_EQ(StatusNameFor("intpos.001"), "intpos.sts");
  EXPECT_EQ(ResponseNameFor("intpos.001"), "intpos.001");
  EXPECT_EQ(StatusNameFor("IntPos.001"), "IntPos.Sts");
  EXPECT_EQ(ResponseNameFor("INTPOS.001"), "IntPos.001");
}

StatusOr<Request> Read(const std::string& text) {
  auto file = Parse(text);
  if (!file.ok()) return file.status();
  return ReadRequest(*file);
}

TEST(Request, ReadsEachCommand) {
  auto crt = Read("000-000 = crt\n001-000 = 12\n002-000 = 555\n003-000 = 1000\n004-000 = 0\n999-999 = 0\n");
  ASSERT_TRUE(crt.ok()) << crt.status().message();
  EXPECT_EQ(crt->command, Command::kCrt);
  EXPECT_EQ(crt->amount, 1000);
  EXPECT_EQ(crt->fiscal_document, "555");
  auto cnf = Read("000-000 = CNF\n001-000 = 13\n010-000 = BALCAO\n012-000 = 000001\n027-000 = v1\n999-999 = 0\n");
  ASSERT_TRUE(cnf.ok());
  EXPECT_EQ(cnf->nsu, "000001");
  EXPECT_EQ(cnf->control, "v1");
  auto cnc = Read(
      "000-000 = CNC\n001-000 = 14\n003-000 = 1000\n010-000 = BALCAO\n012-000 = 000001\n"
      "022-000 = 25112026\n023-000 = 213000\n999-999 = 0\n");
  ASSERT_TRUE(cnc.ok()) << cnc.status().message();
  EXPECT_EQ(cnc->receipt_date, "25112026");
  EXPECT_TRUE(Read("000-000 = ATV\n001-000 = 1\n999-999 = 0\n").ok());
}

TEST(Request, RefusesNamingTheFieldAndTheRule) {
  EXPECT_THAT(Read("001-000 = 1\n999-999 = 0\n").status().message(), HasSubstr("000-000: required"));
  EXPECT_THAT(Read("000-000 = ATV\n999-999 = 0\n").status().message(), HasSubstr("001-000: required"));
  EXPECT_THAT(Read("000-000 = ATV\n001-000 = x1\n999-999 = 0\n").status().message(), HasSubstr("001-000: digits only"));
  EXPECT_THAT(Read("000-000 = ATV\n001-000 = 1\n").status().message(), HasSubstr("999-999: required"));
  EXPECT_THAT(Read("000-000 = CRT\n001-000 = 1\n999-999 = 0\n").status().message(), HasSubstr("003-000: required"));
  EXPECT_THAT(Read("000-000 = CRT\n001-000 = 1\n003-000 = 10,00\n999-999 = 0\n").status().message(),
              HasSubstr("003-000: digits only"));
  EXPECT_THAT(Read("000-000 = CRT\n001-000 = 1\n003-000 = 0\n999-999 = 0\n").status().message(),
              HasSubstr("003-000: a whole number of cents from 1"));
  EXPECT_THAT(Read("000-000 = CRT\n001-000 = 1\n003-000 = 100\n004-000 = 1\n999-999 = 0\n").status().message(),
              HasSubstr("004-000: 0 (real)"));
  EXPECT_THAT(Read("000-000 = NCN\n001-000 = 1\n999-999 = 0\n").status().message(),
              HasSubstr("012-000 (NSU) or 027-000 (control) of the sale to undo"));
  const auto unknown = Read("000-000 = CHQ\n001-000 = 1\n999-999 = 0\n");
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnimplemented);
}

TEST(Request, StatusFileEchoesCommandAndId) {
  auto file = Parse("000-000 = CRT\n001-000 = 99\n003-000 = 5\n999-999 = 0\n");
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(Write(StatusFile(*file)), "000-000 = CRT\r\n001-000 = 99\r\n999-999 = 0\r\n");
}

TEST(Request, IdentityIncludesWhatDefinesTheOperation) {
  Request a{Command::kCrt, "7", "100", 1000};
  Request b = a;
  b.amount = 2000;  // a PDV whose counter started again: same id, another sale
  EXPECT_NE(RequestKey(a), RequestKey(b));
  EXPECT_EQ(RequestKey(a), RequestKey(Request{Command::kCrt, "7", "100", 1000}));
  Request today = a, tomorrow = a;  // ACBr's ids are the second of the day: they come again
  today.day = "25112026";
  tomorrow.day = "26112026";
  EXPECT_NE(RequestKey(today), RequestKey(tomorrow));
}

}  // namespace
}  // namespace balcao::integration::tefdial
