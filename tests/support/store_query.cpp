#include "tests/support/store_query.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

namespace evalsuite::testing {

std::vector<std::vector<std::string>> Query(const std::filesystem::path& db, const std::string& sql, bool quiet) {
  sqlite3* handle = nullptr;
  std::vector<std::vector<std::string>> rows;
  if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(handle);
    ADD_FAILURE() << "cannot open " << db;
    return rows;
  }
  sqlite3_busy_timeout(handle, 5000);
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(handle, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK) {
    while (sqlite3_step(statement) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int c = 0; c < sqlite3_column_count(statement); ++c) {
        const unsigned char* text = sqlite3_column_text(statement, c);
        row.push_back(text ? reinterpret_cast<const char*>(text) : "");
      }
      rows.push_back(std::move(row));
    }
  } else if (!quiet) {
    ADD_FAILURE() << sqlite3_errmsg(handle);
  }
  sqlite3_finalize(statement);
  sqlite3_close(handle);
  return rows;
}

}  // namespace evalsuite::testing
