// A full disk: `balcao serve` with its data dir on a small tmpfs of its own (a user and mount
// namespace, `unshare -rm`: no root needed, and the ENOSPC is the kernel's, at whatever write
// comes next, not an injected one). The test fills the tmpfs through /proc/<pid>/root, leaving
// a random few kilobytes (so the write that fails first differs from seed to seed), while a
// customer pays a Pix shown before. While it is full: new sales 507 naming the store, /readyz
// 503 "disk full", the failed write in the log, a counter. Once space returns the paid Pix is
// seen within 5 s, and the books balance.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <random>

#include "sandbox/sandbox.h"
#include "tests/terminal/fault_fixture.h"

namespace balcao::terminal::testing {
namespace {

// Writes `path` until the filesystem refuses (ENOSPC), then gives back `slack` bytes.
void FillUp(const std::filesystem::path& path, std::size_t slack) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path << ": " << std::strerror(errno);
  const std::string block(64 << 10, 'x');
  while (std::fwrite(block.data(), 1, block.size(), f) == block.size()) {
  }
  std::fclose(f);
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size > slack ? size - slack : 0);
}

// Whether this machine lets a user mount a tmpfs in its own user and mount namespace (chroots,
// many containers and hardened kernels do not); "" when it does, else why not.
std::string PrivateTmpfsRefusal(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const std::string probe =
      "/usr/bin/unshare --user --map-root-user --mount /bin/sh -c 'mount -t tmpfs -o size=1m "
      "tmpfs \"" +
      dir.string() + "\"' 2>&1";
  std::string output;
  FILE* out = ::popen(probe.c_str(), "r");
  if (out == nullptr) return "popen failed";
  char buffer[512];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, out)) > 0;) output.append(buffer, n);
  const int status = ::pclose(out);
  if (status == 0) return "";
  return output.empty() ? "unshare exited with " + std::to_string(status) : output;
}

TEST(FaultDisk, FullDiskIsNamedAndAPaidPixIsSeenOnceSpaceReturns) {
  std::mt19937_64 rng(FaultSeed());
  const auto dir = FreshDir("fault-disk");
  if (const std::string refusal = PrivateTmpfsRefusal(dir / "probe"); !refusal.empty())
    GTEST_SKIP() << "needs a tmpfs in a private user and mount namespace (unshare -rm), which this machine "
                    "refuses (a chroot, a container or a hardened kernel): "
                 << refusal;
  const auto data = dir / "data", stage = dir / "stage";
  std::filesystem::create_directories(stage);
  sandbox::SandboxOptions options;
  options.data_dir = (dir / "bank").string();
  options.https = false;
  options.tick_millis = 100;
  auto bank = sandbox::Sandbox::Start(options);
  ASSERT_TRUE(bank.ok()) << bank.status().ToString();
  const std::string bank_url = "http://127.0.0.1:" + std::to_string((*bank)->port());
  const std::string config = WriteConfig(dir, {{"checkout", {{"poll_interval_s", 1}}}, {"disk_free_floor_mb", 2}});

  // The data dir (with the operators Start writes first) moves onto a 24 MB tmpfs that only
  // the service's mount namespace sees.
  const std::string script = "cp -a '" + data.string() + "'/. '" + stage.string() +
                             "'/ && mount -t tmpfs -o size=24m tmpfs '" + data.string() + "' && cp -a '" +
                             stage.string() + "'/. '" + data.string() + "'/ && exec \"$0\" \"$@\"";
  ServeProcess serve;
  serve.Start(data, {"--config", config}, {{"BALCAO_CREDENTIALS", (*bank)->credentials().credentials_path}},
              {"/usr/bin/unshare", "--user", "--map-root-user", "--mount", "/bin/sh", "-c", script});
  ASSERT_TRUE(serve.running()) << serve.output();
  const std::filesystem::path seen_by_serve = "/proc/" + std::to_string(serve.pid()) + "/root" + data.string();

  std::map<std::string, long long> opened, paid;
  auto pay_pix = [&](const std::string& id) {
    const Reply view = serve.Get("/api/sales/" + id);
    const Reply pay = Http("POST", bank_url + "/sandbox/dynamic-brcode/pay",
                           Json{{"uuid", BankId(view.json, "brcode")}, {"name", "Cliente"}}.dump());
    ASSERT_EQ(pay.status, 200) << pay.body;
  };
  auto open_pix = [&] {
    const std::string id = OpenSale(serve, rng, opened);
    EXPECT_EQ(serve.Post("/api/sales/" + id + "/method", {{"method", "pix"}}).json["status"], "pix");
    return std::pair{id, opened[id]};
  };
  // A few sales paid before the fault, and one whose customer pays while the disk is full.
  const int before = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int i = 0; i < before; ++i) {
    auto [id, amount] = open_pix();
    pay_pix(id);
    serve.WaitFor(id, "paid");
    paid[id] = amount;
  }
  auto [waiting, waiting_amount] = open_pix();

  FillUp(seen_by_serve / "filler", std::uniform_int_distribution<std::size_t>(0, 48 << 10)(rng));
  pay_pix(waiting);
  // The sale's next poll finds the payment and cannot journal it: counted and logged.
  ASSERT_TRUE(Eventually([&] { return MetricValue(serve, "balcao_store_write_failures_total{where=\"timer\"}") >= 1; }))
      << serve.Drain();
  std::string log;
  ASSERT_TRUE(Eventually([&] {
    std::ifstream file(seen_by_serve / "balcao.log");
    log = std::string(std::istreambuf_iterator<char>(file), {}) + serve.Drain();
    return log.find("store write failed") != std::string::npos;
  })) << log;
  EXPECT_NE(log.find("No space left on device"), std::string::npos) << log;
  const Reply ready = serve.Get("/readyz");
  EXPECT_EQ(ready.status, 503) << ready.body;
  EXPECT_NE(ready.json["checks"]["store"].value("reason", "").find("disk full"), std::string::npos) << ready.body;
  const Reply refused = serve.Post("/api/sales", {{"amount", 500}});
  EXPECT_EQ(refused.status, 507) << refused.body;
  EXPECT_EQ(refused.json["error"]["field"], "store") << refused.body;
  EXPECT_FALSE(serve.Get("/api/status").json["health"]["disk"]["ok"].get<bool>());

  // Space returns: the paid Pix is seen within 5 s, new sales open again.
  std::filesystem::remove(seen_by_serve / "filler");
  Reply view;
  EXPECT_TRUE(Eventually(
      [&] {
        view = serve.Get("/api/sales/" + waiting);
        return view.json.value("status", "") == "paid";
      },
      std::chrono::seconds(5)))
      << view.body;
  paid[waiting] = waiting_amount;
  EXPECT_TRUE(Eventually([&] { return serve.Get("/readyz").status == 200; })) << serve.Get("/readyz").body;
  const Reply again = serve.Post("/api/sales", {{"amount", 700}});
  EXPECT_EQ(again.status, 201) << again.body;
  if (again.status == 201) opened[again.json["id"].get<std::string>()] = 700;

  ExpectBooksBalance(serve, opened, paid);
  serve.Stop();
  (*bank)->Stop();
}

}  // namespace
}  // namespace balcao::terminal::testing
