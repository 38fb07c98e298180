// The API calls of one key in a SQLite file that restarts and concurrent crawls share: a call is recorded in
// the same IMMEDIATE transaction that checks the window, so two processes can never both take the last slot.
// Rows are keyed by a fingerprint of the API key (never the key); an unfinished row (its process killed or
// still waiting for the answer) counts until its deadline. All processes must read one clock: the file is
// for crawls on one machine (SQLite's locking is not reliable on network file systems anyway).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "datasets/flickr/rate_limiter.h"

namespace evalsuite::flickr {

class SharedCallLedger : public CallLedger {
 public:
  // Creates or opens `file` (and its folder). Throws IoError naming the file.
  SharedCallLedger(const std::filesystem::path& file, std::string key_fingerprint);
  ~SharedCallLedger() override;
  SharedCallLedger(const SharedCallLedger&) = delete;
  SharedCallLedger& operator=(const SharedCallLedger&) = delete;

  double TryStart(double now, double deadline, const RateLimit& limit) override;
  void Finish(double end) override;

  // Start times of the recorded calls of this key, ascending (tests, diagnostics).
  std::vector<double> CallStarts();

 private:
  void Exec(const char* sql);
  // A set-up statement of the constructor, retried while another process holds the file; closes and throws.
  void SetUp(const char* sql);
  [[noreturn]] void Fail(const std::string& what);
  std::filesystem::path file_;
  std::string key_;
  void* db_ = nullptr;  // sqlite3*
  int64_t open_row_ = -1;
};

// A fingerprint of the API key for the ledger: the first 16 hex digits of SHA-256 over a fixed prefix and
// the key. It tells keys apart and does not reveal the key.
std::string ApiKeyFingerprint(const std::string& api_key);

// Where `holdout crawl` keeps the ledger unless told: $XDG_STATE_HOME/evalsuite/flickr-api-calls.db, else
// $HOME/.local/state/evalsuite/flickr-api-calls.db; empty when neither is set.
std::filesystem::path DefaultCallLedgerFile();

}  // namespace evalsuite::flickr
