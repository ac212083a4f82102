// Durable enqueue (Outbox::Enqueue: validation, card-data scan, key check, insert,
// BEGIN IMMEDIATE ... COMMIT with synchronous=FULL) against the floor it cannot beat: a
// raw sqlite3 loop inserting the same row with the same pragmas, one transaction per
// row, on the same disk (the directory of $BALCAO_BENCH_DIR, default the current one).
#include <benchmark/benchmark.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "offline/outbox.h"

namespace balcao::offline {
namespace {

std::string BenchDir() {
  const char* env = std::getenv("BALCAO_BENCH_DIR");
  std::string base = env != nullptr ? env : std::filesystem::current_path().string();
  std::string pattern = base + "/offline-bench-XXXXXX";
  return ::mkdtemp(pattern.data());
}

const std::string kBody =
    R"({"invoices":[{"amount":1990,"name":"Maria Souza","taxId":"33745107608","tags":["sale-00000000"]}]})";

OutboxRequest Request(std::int64_t i) {
  OutboxRequest r;
  r.key = "sale-" + std::to_string(i);
  r.kind = "invoice.create";
  r.method = "POST";
  r.path = "/v2/invoice";
  r.body = kBody;
  r.sale_id = r.key;
  r.amount = 1990;
  return r;
}

void BM_DurableEnqueue(benchmark::State& state) {
  const std::string dir = BenchDir();
  auto store = std::move(*Store::Open(dir + "/box.db"));
  Outbox outbox(*store);
  const int batch = static_cast<int>(state.range(0));
  std::int64_t i = 0;
  for (auto _ : state) {
    if (batch == 1) {
      if (!outbox.Enqueue(Request(i++)).ok()) state.SkipWithError("enqueue failed");
    } else {
      std::vector<OutboxRequest> rows;
      for (int b = 0; b < batch; ++b) rows.push_back(Request(i++));
      if (!outbox.EnqueueAll(rows).ok()) state.SkipWithError("enqueue failed");
    }
  }
  state.SetItemsProcessed(i);
  store.reset();
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_DurableEnqueue)->Arg(1)->Arg(10)->UseRealTime();

void BM_RawSqliteInsert(benchmark::State& state) {
  const std::string dir = BenchDir();
  sqlite3* db = nullptr;
  sqlite3_open((dir + "/raw.db").c_str(), &db);
  sqlite3_exec(db,
               "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA secure_delete=ON; PRAGMA busy_timeout=5000;"
               "CREATE TABLE q (id INTEGER PRIMARY KEY, key TEXT UNIQUE, kind TEXT, method TEXT, path TEXT, body TEXT,"
               " sale_id TEXT, amount INTEGER, created_at INTEGER);",
               nullptr, nullptr, nullptr);
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(db,
                     "INSERT INTO q (key, kind, method, path, body, sale_id, amount, created_at) "
                     "VALUES (?1, 'invoice.create', 'POST', '/v2/invoice', ?2, ?1, 1990, 0)",
                     -1, &insert, nullptr);
  const int batch = static_cast<int>(state.range(0));
  std::int64_t i = 0;
  for (auto _ : state) {
    sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    for (int b = 0; b < batch; ++b) {
      const std::string key = "sale-" + std::to_string(i++);
      sqlite3_bind_text(insert, 1, key.c_str(), -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(insert, 2, kBody.c_str(), -1, SQLITE_STATIC);
      if (sqlite3_step(insert) != SQLITE_DONE) state.SkipWithError("insert failed");
      sqlite3_reset(insert);
    }
    if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) state.SkipWithError("commit failed");
  }
  state.SetItemsProcessed(i);
  sqlite3_finalize(insert);
  sqlite3_close(db);
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_RawSqliteInsert)->Arg(1)->Arg(10)->UseRealTime();

}  // namespace
}  // namespace balcao::offline

BENCHMARK_MAIN();
