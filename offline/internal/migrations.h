// The store's schema history: offline/migrations/NNNN_name.sql, embedded at build
// time (offline/CMakeLists.txt generates the table). Numbers start at 1 and have no
// gaps; the number of the last one applied is the database's PRAGMA user_version.
// A migration may also have a C++ part (what SQL cannot do, e.g. SHA-256), run after
// its SQL in the same transaction, so the schema change and the data it needs commit
// together or not at all.
#pragma once

#include <string_view>
#include <vector>

#include "common/status.h"

namespace balcao::offline::internal {

class Txn;

struct Migration {
  int number;
  const char* name;  // "0001_initial"
  const char* sql;
};

const std::vector<Migration>& Migrations();

// The C++ part of migration `name` ("0004_journal_chain"), found by the name without its
// number, so renumbering a migration is a file rename; nullptr when it is SQL only.
using MigrationStep = Status (*)(Txn& txn);
MigrationStep MigrationStepOf(std::string_view name);

}  // namespace balcao::offline::internal
