// The revision the binaries report (--version, every report's environment) is written at build time by
// cmake/GitRevision.cmake: it follows new commits without a new configure, marks uncommitted changes, and leaves the
// header untouched when nothing changed (so that a build with nothing new recompiles nothing).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::RunCommand;

std::string Git(const fs::path& repo, std::vector<std::string> args) {
  // Who commits, and no signing: a scratch repository needs neither the user's identity nor their keys.
  std::vector<std::string> argv{"git", "-C", repo.string()};
  for (const char* setting : {"user.name=test", "user.email=test@example.org", "commit.gpgsign=false"}) {
    argv.insert(argv.end(), {"-c", setting});
  }
  argv.insert(argv.end(), args.begin(), args.end());
  const CommandResult r = RunCommand(argv);
  EXPECT_EQ(r.exit_code, 0) << "git " << args.front() << ": " << r.err;
  std::string out = r.out;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// The revision in the header the script writes for `repo`.
std::string WrittenRevision(const fs::path& repo, const fs::path& header) {
  const CommandResult r = RunCommand({"cmake", "-DSOURCE_DIR=" + repo.string(), "-DOUTPUT=" + header.string(), "-P",
                                      (testing::SourceDir() / "cmake" / "GitRevision.cmake").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string text = testing::ReadFile(header);
  const std::string key = "#define EVALSUITE_GIT_REVISION \"";
  const size_t at = text.find(key);
  if (at == std::string::npos) return "(no definition in: " + text + ")";
  const size_t begin = at + key.size();
  return text.substr(begin, text.find('"', begin) - begin);
}

TEST(GitRevisionTest, FollowsEachCommitMarksUncommittedChangesAndRewritesNothingUnchanged) {
  if (RunCommand({"git", "--version"}).exit_code != 0) GTEST_SKIP() << "no git";
  testing::TempDir dir;
  const fs::path repo = dir / "repo";
  const fs::path header = dir / "generated" / "evalsuite_git_revision.h";
  fs::create_directories(repo);
  fs::create_directories(header.parent_path());
  Git(repo, {"init", "-q"});
  testing::WriteFile(repo / "a.txt", "one\n");
  Git(repo, {"add", "a.txt"});
  Git(repo, {"commit", "-q", "-m", "first"});
  const std::string first = Git(repo, {"rev-parse", "--short", "HEAD"});
  EXPECT_EQ(WrittenRevision(repo, header), first);

  // Nothing changed: the header keeps its time stamp, so nothing that includes it is rebuilt.
  const auto old_time = fs::file_time_type::clock::now() - std::chrono::hours(1);
  fs::last_write_time(header, old_time);
  EXPECT_EQ(WrittenRevision(repo, header), first);
  EXPECT_EQ(fs::last_write_time(header), old_time);

  testing::WriteFile(repo / "a.txt", "two\n");
  EXPECT_EQ(WrittenRevision(repo, header), first + "-dirty");

  Git(repo, {"commit", "-q", "-am", "second"});
  const std::string second = Git(repo, {"rev-parse", "--short", "HEAD"});
  ASSERT_NE(second, first);
  EXPECT_EQ(WrittenRevision(repo, header), second);

  // A folder that is no git checkout (a source tarball); git must not find one above the temp folder either.
  const fs::path plain = dir / "plain";
  fs::create_directories(plain);
  const testing::ScopedEnv no_search_above("GIT_CEILING_DIRECTORIES", dir.path().string());
  EXPECT_EQ(WrittenRevision(plain, header), "unknown");
}

}  // namespace
}  // namespace evalsuite
