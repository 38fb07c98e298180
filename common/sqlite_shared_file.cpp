#include "common/sqlite_shared_file.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace evalsuite {

int ExecWhileBusy(sqlite3* db, const std::string& sql, int timeout_ms, std::string* error) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  auto pause = std::chrono::milliseconds(1);
  const bool outside_a_transaction = sqlite3_get_autocommit(db) != 0;
  for (;;) {
    char* message = nullptr;
    const int code = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    const bool busy = (code & 0xFF) == SQLITE_BUSY || (code & 0xFF) == SQLITE_LOCKED;
    if (!busy || std::chrono::steady_clock::now() >= give_up) {
      if (error != nullptr) *error = message != nullptr ? message : (code == SQLITE_OK ? "" : sqlite3_errstr(code));
      sqlite3_free(message);
      return code;
    }
    sqlite3_free(message);
    // A statement of a multi-statement script may have opened a transaction before the busy one failed.
    if (outside_a_transaction && sqlite3_get_autocommit(db) == 0)
      sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

std::string SqliteFileUri(const std::filesystem::path& file, const char* query) {
  std::string uri = "file:";
  for (unsigned char c : std::filesystem::absolute(file).string()) {
    if (c == '%' || c == '?' || c == '#' || c < 0x21 || c > 0x7e) {
      static const char* kHex = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    } else {
      uri += static_cast<char>(c);
    }
  }
  return uri + "?" + query;
}

}  // namespace evalsuite
