// Helpers every test binary shares: where ../shared/data is (tests that need it skip when it is absent),
// a temporary folder removed at scope exit, and running the built evalsuite binary as a user would.
#pragma once

#include <gtest/gtest.h>
#include <sys/types.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::testing {

// ../shared/data beside the project root, or $EVALSUITE_SHARED_DATA; nullopt when neither exists.
std::optional<std::filesystem::path> SharedDataDir();

// Skips the current test when ../shared/data is absent; evaluates to its path otherwise.
#define EVALSUITE_REQUIRE_SHARED_DATA(var)                              \
  auto var##_opt = ::evalsuite::testing::SharedDataDir();               \
  if (!var##_opt) GTEST_SKIP() << "../shared/data is absent: skipping"; \
  const std::filesystem::path var = *var##_opt

// A fresh folder under the system temp dir, deleted (recursively) on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code = -1;  // -1 when killed by a signal
  std::string out;
  std::string err;
};

// Runs argv (argv[0] resolved through PATH) with stdin closed, capturing stdout and stderr.
CommandResult RunCommand(const std::vector<std::string>& argv);
// Runs the built evalsuite binary with these arguments.
CommandResult RunEvalsuite(const std::vector<std::string>& args);
// Starts the built binary in the background, stdout and stderr to files; the caller waits (or kills) the pid.
pid_t SpawnEvalsuite(const std::vector<std::string>& args, const std::filesystem::path& out,
                     const std::filesystem::path& err);

// A spawned child that an assertion returning early would leave running (a study that waits, a server): killed
// with SIGKILL and reaped when this goes out of scope, unless it has been reaped already.
class ReapedAtScopeEnd {
 public:
  explicit ReapedAtScopeEnd(pid_t pid) : pid_(pid) {}
  ~ReapedAtScopeEnd();
  ReapedAtScopeEnd(const ReapedAtScopeEnd&) = delete;
  ReapedAtScopeEnd& operator=(const ReapedAtScopeEnd&) = delete;

 private:
  pid_t pid_;
};

std::string ReadFile(const std::filesystem::path& file);
void WriteFile(const std::filesystem::path& file, const std::string& content);

std::filesystem::path SourceDir();

// One MLPerf ":::MLLOG {...}" record line (with its newline), keys in mllog's order.
std::string MllogRecord(long time_ms, const std::string& key, const std::string& value,
                        const std::string& metadata = "{}");

// Sets an environment variable for a scope and puts the old value (or its absence) back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = std::string(old);
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_.c_str(), old_->c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

}  // namespace evalsuite::testing
