// The box's one SQLite database: sale journal, outbox, print jobs, store-and-forward.
// WAL, synchronous=FULL, BEGIN IMMEDIATE for every write, busy timeout, numbered
// migrations tracked in PRAGMA user_version. <sqlite3.h> stays inside offline/.
// Crash contract: when a write call returns OK, its row survives power loss.
// Thread-safety: one Store may be used from several threads; calls are serialized.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"

namespace balcao::offline {

// True for a store write the disk refused: kResourceExhausted (full: SQLITE_FULL, ENOSPC) or
// kDataLoss (an I/O error; the store is then poisoned until reopened). Nothing of that write
// was committed, and a write that fails this way may be tried again once space returns.
bool IsDiskFailure(const Status& status);

class Store {
 public:
  // Opens (creating if needed, mode 0600) and migrates the database at `path`
  // (":memory:" allowed). Several processes may open the same file (the service and
  // `balcao queue`); the first one takes the *owner* lock (an flock on "<path>-owner")
  // and runs crash recovery: outbox rows left `inflight` become `unknown` (the crash
  // may have come after the bank committed) and print jobs left `printing` are queued
  // again. A guest (the lock was taken) never recovers: the owner may be mid-send.
  static StatusOr<std::unique_ptr<Store>> Open(const std::string& path);
  // A reader (`balcao journal verify`): opens an existing file read-only, never creates,
  // migrates, takes the owner lock or recovers, so it may run beside the owner (the service)
  // and changes nothing when none runs. kNotFound when the file is missing;
  // kFailedPrecondition when its schema is not this build's (older: a writer's Open
  // migrates it first). Every write on it fails.
  static StatusOr<std::unique_ptr<Store>> OpenReadOnly(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const;
  int schema_version() const;

  // True when this Store holds the owner lock (senders, the drainer, must).
  bool is_owner() const;
  // A guest retries ownership (e.g. once the CLI that held it has exited); on success
  // runs the crash recovery described at Open. kUnavailable while another holds it.
  Status TryBecomeOwner();
  // A real, durable write, for a readiness check: upserts the `settings` row
  // "health.write_probe" (the time) in one BEGIN IMMEDIATE transaction, committed as every
  // write is (synchronous=FULL). Errors as any write: SQLite's (read-only file, disk full,
  // I/O error) or kFailedPrecondition once an I/O error poisoned the store.
  Status ProbeWrite();

  struct Impl;
  Impl& impl() { return *impl_; }  // for the other offline/ components

 private:
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace balcao::offline
