// The store's schema history: offline/migrations/NNNN_name.sql, embedded at build
// time (offline/CMakeLists.txt generates the table). Numbers start at 1 and have no
// gaps; the number of the last one applied is the database's PRAGMA user_version.
#pragma once

#include <vector>

namespace balcao::offline::internal {

struct Migration {
  int number;
  const char* name;  // "0001_initial"
  const char* sql;
};

const std::vector<Migration>& Migrations();

}  // namespace balcao::offline::internal
