// Transports against the virtual printer on loopback: jobs arrive whole and in order,
// status is read before and after, a printer with no paper is refused, a silent printer
// is "unknown" (never OK), files and the CUPS `lp` path move the bytes unchanged.
#include "printer/transport.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

#include "printer/emulator.h"
#include "printer/render.h"
#include "printer/samples.h"
#include "tests/printer/testing_util.h"
#include "tests/testing/loopback.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

using ::balcao::test_util::IsOk;
using ::balcao::test_util::StatusIs;
using ::testing::Not;

namespace balcao::printer {
namespace {

namespace fs = std::filesystem;

struct Emulator {
  explicit Emulator(const std::string& name, std::uint64_t die_after = 0, unsigned short port = 0)
      : tmp("printer-" + name) {
    dir = tmp.path();
    EmulatorOptions o;
    o.port = port;
    o.out_dir = dir.string();
    o.interpreter = InterpreterOptions::ForProfile(*FindProfile("80mm"));
    o.die_after_bytes = die_after;
    server = std::make_unique<VirtualPrinterServer>(o);
    StatusOr<unsigned short> p = server->Start();
    EXPECT_OK(p);
    this->port = p.ok() ? *p : 0;
  }
  std::string target() const { return "tcp://127.0.0.1:" + std::to_string(port); }
  test_util::TempDir tmp;  // declared first, so removed last: after the server
  fs::path dir;
  std::unique_ptr<VirtualPrinterServer> server;
  unsigned short port = 0;
};

std::string Bytes(const char* kind, const char* profile = "80mm") {
  return *RenderEscPos(*SampleDocument(kind), *FindProfile(profile));
}

TEST(Status, RepliesParseAndInvalidFramesAreUnknown) {
  EXPECT_EQ(ParseStatusReplies(0x12, 0x12, 0x12).Describe(), "ok");
  EXPECT_EQ(ParseStatusReplies(0x1A, 0x32, 0x72).Describe(), "paper out");
  EXPECT_EQ(ParseStatusReplies(0x1A, 0x16, 0x12).Describe(), "cover open");
  EXPECT_EQ(ParseStatusReplies(0x1A, 0x12, 0x12).Describe(), "offline");
  EXPECT_EQ(ParseStatusReplies(0x12, 0x12, 0x1E).Describe(), "paper near end");
  EXPECT_FALSE(ParseStatusReplies(-1, -1, -1).known);
  EXPECT_FALSE(ParseStatusReplies(0xFF, 0x12, 0x12).known);
  EXPECT_FALSE(ParseStatusReplies(-1, -1, -1).blocks_printing());
}

TEST(WriteDeadline, GrowsWithTheJob) {
  SendOptions o;
  EXPECT_EQ(WriteDeadline(0, o).count(), 5000);
  EXPECT_EQ(WriteDeadline(15000, o).count(), 20000);  // a 300-line receipt gets 20 s, not 3
}

TEST(OpenTransport, TargetsAreValidated) {
  EXPECT_OK(OpenTransport("tcp://10.0.0.5"));
  EXPECT_OK(OpenTransport("tcp://[::1]:9100"));
  EXPECT_OK(OpenTransport("file:/dev/usb/lp0"));
  EXPECT_OK(OpenTransport("cups:Elgin_i9"));
  for (const char* bad :
       {"tcp://", "tcp://host:0", "tcp://host:99999", "tcp://host:x", "usb:1", "cups:a;rm", "file:"}) {
    StatusOr<std::unique_ptr<Transport>> t = OpenTransport(bad);
    EXPECT_THAT(t, Not(IsOk())) << bad;
    if (!t.ok()) {
      EXPECT_THAT(t, StatusIs(StatusCode::kInvalidArgument));
    }
  }
}

TEST(Tcp, CardReceiptArrivesAsTwoJobsWithStatusQueries) {
  Emulator e("tcp-card");
  auto t = OpenTransport(e.target());
  ASSERT_OK(t);
  StatusOr<SendReport> r = (*t)->Send(Bytes("card"), {});
  ASSERT_OK(r);
  EXPECT_TRUE(r->before.known);
  EXPECT_EQ(r->after.Describe(), "ok");
  ASSERT_TRUE(testing::WaitForJob(e.dir, 2));
  EXPECT_NE(testing::ReadFile(testing::JobFile(e.dir, 1, "txt")).find("VIA DO ESTABELECIMENTO"), std::string::npos);
  EXPECT_NE(testing::ReadFile(testing::JobFile(e.dir, 2, "txt")).find("VIA DO CLIENTE"), std::string::npos);
  const auto first = nlohmann::json::parse(testing::ReadFile(testing::JobFile(e.dir, 1, "json")));
  EXPECT_EQ(first["status_queries"].size(), 3u);  // DLE EOT 1, 2, 4 before the job
  EXPECT_TRUE(first["cut"].get<bool>());
  e.server->Stop();  // the "after" queries are added to the last job once the connection closed
  const auto second = nlohmann::json::parse(testing::ReadFile(testing::JobFile(e.dir, 2, "json")));
  ASSERT_EQ(second["status_queries"].size(), 3u);
  EXPECT_EQ(second["status_queries"][0]["command"], "DLE EOT 1");
  EXPECT_EQ(second["status_queries"][0]["reply"], 0x12);
  EXPECT_TRUE(fs::exists(testing::JobFile(e.dir, 1, "png")));
}

TEST(Tcp, PaperOutIsRefusedBeforeSendingAnything) {
  Emulator e("tcp-paper");
  e.server->set_state({.paper_out = true});
  auto t = OpenTransport(e.target());
  StatusOr<SendReport> r = (*t)->Send(Bytes("pix"), {});
  ASSERT_THAT(r, StatusIs(StatusCode::kFailedPrecondition));
  EXPECT_NE(r.status().message().find("paper out"), std::string::npos);
  e.server->set_state({.cover_open = true});
  r = (*t)->Send(Bytes("pix"), {});
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_NE(r.status().message().find("cover open"), std::string::npos);
  e.server->Stop();
  EXPECT_EQ(e.server->jobs_written(), 0);
}

TEST(Tcp, ConnectionRefusedIsUnavailable) {
  Emulator e("tcp-refused");
  const std::string target = e.target();
  e.server->Stop();
  auto t = OpenTransport(target);
  StatusOr<SendReport> r = (*t)->Send("x\n", {});
  ASSERT_THAT(r, StatusIs(StatusCode::kUnavailable));
}

TEST(Tcp, SilentPrinterGivesUnknownStatusNotOk) {
  // A listener that accepts (kernel backlog) but never answers.
  test_util::LoopbackListener silent(4);
  ASSERT_TRUE(silent.ok());
  auto t = OpenTransport("tcp://127.0.0.1:" + std::to_string(silent.port()));
  SendOptions o;
  o.status_timeout = std::chrono::milliseconds(100);
  StatusOr<PrinterStatus> s = (*t)->Probe(o);
  ASSERT_OK(s);
  EXPECT_FALSE(s->known);
  EXPECT_EQ(s->Describe(), "unknown");
}

TEST(Tcp, ThousandReceiptsArriveCompleteAndInOrder) {
  Emulator e("tcp-thousand");
  auto t = OpenTransport(e.target());
  const PrinterProfile& p = *FindProfile("80mm");
  SendOptions o;
  o.query_status = false;  // the status path is covered above; this is about the byte stream
  for (int i = 1; i <= 1000; ++i) {
    Document d;
    d.Text("Recibo #" + std::to_string(i), kBold)
        .Columns("Total", FormatBrl(i * 100))
        .Text("Fim " + std::to_string(i))
        .Cut();
    StatusOr<SendReport> r = (*t)->Send(*RenderEscPos(d, p), o);
    ASSERT_OK(r) << i;
  }
  ASSERT_TRUE(testing::WaitForJob(e.dir, 1000));
  for (int i = 1; i <= 1000; ++i) {
    const std::string text = testing::ReadFile(testing::JobFile(e.dir, i, "txt"));
    ASSERT_EQ(text.rfind("Recibo #" + std::to_string(i) + "\n", 0), 0u) << i << ":\n" << text;
    ASSERT_NE(text.find("Fim " + std::to_string(i) + "\n"), std::string::npos) << i;
  }
  EXPECT_FALSE(fs::exists(testing::JobFile(e.dir, 1001, "json")));
}

TEST(Tcp, ThreeHundredLineReceiptIsNotCutShort) {
  Emulator e("tcp-long");
  Document d;
  for (int i = 1; i <= 300; ++i) d.Columns("Item " + std::to_string(i), FormatBrl(i * 100));
  d.Text("FIM").Cut();
  auto t = OpenTransport(e.target());
  StatusOr<SendReport> r = (*t)->Send(*RenderEscPos(d, *FindProfile("80mm")), {});
  ASSERT_OK(r);
  ASSERT_TRUE(testing::WaitForJob(e.dir, 1));
  const std::string text = testing::ReadFile(testing::JobFile(e.dir, 1, "txt"));
  EXPECT_NE(text.find("Item 300"), std::string::npos);
  EXPECT_NE(text.find("\nFIM\n"), std::string::npos);
}

TEST(File, PlainFileGetsTheJobsAppended) {
  const test_util::TempDir tmp("printer-file");
  const auto dir = tmp.path();
  auto t = OpenTransport("file:" + (dir / "out.bin").string());
  ASSERT_OK(t);
  ASSERT_OK((*t)->Send("one", {}));
  ASSERT_OK((*t)->Send("two", {}));
  EXPECT_EQ(testing::ReadFile(dir / "out.bin"), "onetwo");
  auto bad = OpenTransport("file:/nonexistent-dir/x.bin");
  StatusOr<SendReport> r = (*bad)->Send("x", {});
  ASSERT_THAT(r, StatusIs(StatusCode::kUnavailable));
}

TEST(File, CharacterDeviceIsWrittenNotReplaced) {
  auto t = OpenTransport("file:/dev/null");
  StatusOr<SendReport> r = (*t)->Send(Bytes("card"), {});
  ASSERT_OK(r);
  EXPECT_FALSE(r->after.known);
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_OK((*t)->Probe({}));
}

TEST(Cups, LpGetsTheRawBytesOnStdin) {
  const test_util::TempDir tmp("printer-cups");
  const auto dir = tmp.path();
  testing::WriteFile(dir / "lp", "#!/bin/sh\necho \"$@\" > \"" + (dir / "args").string() + "\"\ncat > \"" +
                                     (dir / "job.bin").string() + "\"\n");
  fs::permissions(dir / "lp", fs::perms::owner_all);
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
  auto t = OpenTransport("cups:Balcao_Printer");
  const std::string job = Bytes("pix");
  StatusOr<SendReport> r = (*t)->Send(job, {});
  ::setenv("PATH", old_path.c_str(), 1);
  ASSERT_OK(r);
  EXPECT_EQ(testing::ReadFile(dir / "job.bin"), job);
  EXPECT_EQ(testing::ReadFile(dir / "args"), "-d Balcao_Printer -o raw -s\n");
  EXPECT_FALSE(r->after.known);  // one-way: CUPS never reports the paper
}

}  // namespace
}  // namespace balcao::printer
