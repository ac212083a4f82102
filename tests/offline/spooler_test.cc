// The spooler with a real SQLite store and the virtual printer on loopback: a printer that
// disappears mid-job leaves the job failed and visible, and it prints when the printer
// returns; paper out likewise; a job that opens the drawer waits for the operator.
#include "offline/spooler.h"

#include <gtest/gtest.h>

#include "offline/store.h"
#include "printer/emulator.h"
#include "printer/render.h"
#include "printer/samples.h"
#include "tests/printer/testing_util.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace balcao::printer {
namespace {

using offline::Spooler;
using offline::SpoolerOptions;
using offline::SpoolPass;

namespace fs = std::filesystem;

struct Fixture {
  explicit Fixture(const std::string& name) : tmp("printer-" + name), dir(tmp.path()) {
    auto s = offline::Store::Open((dir / "box.db").string());
    EXPECT_OK(s);
    store = std::move(*s);
    jobs = std::make_unique<offline::PrintJobs>(*store);
  }
  std::unique_ptr<VirtualPrinterServer> Printer(unsigned short port, std::uint64_t die_after = 0) {
    EmulatorOptions o;
    o.port = port;
    o.out_dir = (dir / "paper").string();
    o.interpreter = InterpreterOptions::ForProfile(*FindProfile("80mm"));
    o.die_after_bytes = die_after;
    auto server = std::make_unique<VirtualPrinterServer>(o);
    StatusOr<unsigned short> p = server->Start();
    EXPECT_OK(p);
    if (p.ok()) this->port = *p;
    return server;
  }
  std::string target() const { return "tcp://127.0.0.1:" + std::to_string(port); }
  SpoolerOptions Options() const {
    SpoolerOptions o;
    o.send.connect_timeout = std::chrono::milliseconds(500);
    o.send.status_timeout = std::chrono::milliseconds(500);
    return o;
  }
  test_util::TempDir tmp;  // declared first, so removed last: after the store and the printers
  fs::path dir;
  std::unique_ptr<offline::Store> store;
  std::unique_ptr<offline::PrintJobs> jobs;
  unsigned short port = 0;
};

TEST(Spooler, PrinterDisappearingMidJobLeavesItFailedThenPrintsWhenItReturns) {
  Fixture f("spool-vanish");
  const std::string job = *RenderEscPos(*SampleDocument("pix"), *FindProfile("80mm"));
  ASSERT_GT(job.size(), 1000u);
  auto printer = f.Printer(0, /*die_after=*/job.size() / 2);  // power lost half-way through
  StatusOr<std::int64_t> id = f.jobs->Enqueue("sale-1", "pix", f.target(), job, false);
  ASSERT_OK(id);

  Spooler spooler(*f.jobs, f.Options());
  StatusOr<SpoolPass> pass = spooler.RunOnce();
  ASSERT_OK(pass);
  EXPECT_EQ(pass->failed, 1);
  EXPECT_TRUE(printer->dead());
  StatusOr<offline::PrintJob> j = f.jobs->Get(*id);
  ASSERT_OK(j);
  EXPECT_EQ(j->state, offline::PrintJobState::kFailed);  // "paid but not printed", visible
  EXPECT_FALSE(j->last_error.empty());
  EXPECT_EQ(j->attempts, 1);
  auto failed = f.jobs->List(offline::PrintJobState::kFailed);
  ASSERT_OK(failed);
  ASSERT_EQ(failed->size(), 1u);

  // Still off: nothing changes.
  printer.reset();
  pass = spooler.RunOnce();
  ASSERT_OK(pass);
  EXPECT_EQ(pass->requeued, 0);
  EXPECT_EQ(f.jobs->Get(*id)->state, offline::PrintJobState::kFailed);

  // The printer returns on the same address: the job is printed, whole.
  printer = f.Printer(f.port);
  pass = spooler.RunOnce();
  ASSERT_OK(pass);
  EXPECT_EQ(pass->requeued, 1);
  EXPECT_EQ(pass->printed, 1);
  EXPECT_EQ(f.jobs->Get(*id)->state, offline::PrintJobState::kPrinted);
  ASSERT_TRUE(testing::WaitForJob(f.dir / "paper", 1));
  const std::string text = testing::ReadFile(testing::JobFile(f.dir / "paper", 1, "txt"));
  EXPECT_NE(text.find("PAGUE COM PIX"), std::string::npos);
  EXPECT_NE(text.find("Pix Copia e Cola"), std::string::npos);
}

TEST(Spooler, PaperOutFailsWithAClearErrorAndRetriesWhenRefilled) {
  Fixture f("spool-paper");
  auto printer = f.Printer(0);
  printer->set_state({.paper_out = true});
  const std::string job = *RenderEscPos(*SampleDocument("card"), *FindProfile("80mm"));
  StatusOr<std::int64_t> id = f.jobs->Enqueue("sale-2", "card", f.target(), job, false);
  ASSERT_OK(id);
  Spooler spooler(*f.jobs, f.Options());
  ASSERT_OK(spooler.RunOnce());
  StatusOr<offline::PrintJob> j = f.jobs->Get(*id);
  EXPECT_EQ(j->state, offline::PrintJobState::kFailed);
  EXPECT_NE(j->last_error.find("paper out"), std::string::npos) << j->last_error;
  ASSERT_OK(spooler.RunOnce());  // still no paper: stays failed
  EXPECT_EQ(f.jobs->Get(*id)->state, offline::PrintJobState::kFailed);
  printer->set_state({});
  StatusOr<SpoolPass> pass = spooler.RunOnce();
  ASSERT_OK(pass);
  EXPECT_EQ(pass->printed, 1);
  EXPECT_EQ(f.jobs->Get(*id)->state, offline::PrintJobState::kPrinted);
  EXPECT_TRUE(testing::WaitForJob(f.dir / "paper", 2));  // two copies
}

TEST(Spooler, DrawerKickJobsAreNotReprintedAutomatically) {
  Fixture f("spool-drawer");
  auto printer = f.Printer(0);
  printer->set_state({.cover_open = true});
  ReceiptOptions ro;
  ro.drawer_kick = true;
  const Document receipt = PixPaidReceipt({{"Loja"}, 0, 100, "E12345678202611211527abcdef12345"}, ro);
  const std::string job = *RenderEscPos(receipt, *FindProfile("80mm"));
  ASSERT_TRUE(OpensDrawer(receipt, *FindProfile("80mm")));
  StatusOr<std::int64_t> id =
      f.jobs->Enqueue("sale-3", "pix-paid", f.target(), job, OpensDrawer(receipt, *FindProfile("80mm")));
  Spooler spooler(*f.jobs, f.Options());
  ASSERT_OK(spooler.RunOnce());
  printer->set_state({});
  StatusOr<SpoolPass> pass = spooler.RunOnce();
  ASSERT_OK(pass);
  EXPECT_EQ(pass->requeued, 0);
  EXPECT_EQ(f.jobs->Get(*id)->state, offline::PrintJobState::kFailed);
  // The operator reprints it.
  ASSERT_OK(f.jobs->Requeue(*id));
  pass = spooler.RunOnce();
  EXPECT_EQ(pass->printed, 1);
  EXPECT_EQ(f.jobs->Get(*id)->state, offline::PrintJobState::kPrinted);
}

TEST(Spooler, BackgroundThreadPrintsWhatIsQueued) {
  Fixture f("spool-thread");
  auto printer = f.Printer(0);
  SpoolerOptions o = f.Options();
  o.poll_interval = std::chrono::milliseconds(20);
  Spooler spooler(*f.jobs, o);
  spooler.Start();
  for (int i = 0; i < 5; ++i) {
    Document d;
    d.Text("job " + std::to_string(i)).Cut();
    ASSERT_OK(f.jobs->Enqueue("", "test", f.target(), *RenderEscPos(d, *FindProfile("80mm")), false));
  }
  EXPECT_TRUE(testing::WaitForJob(f.dir / "paper", 5));
  spooler.Stop();
  auto printed = f.jobs->List(offline::PrintJobState::kPrinted);
  ASSERT_OK(printed);
  EXPECT_EQ(printed->size(), 5u);
}

}  // namespace
}  // namespace balcao::printer
