// The front binary `evalsuite` serves import, report, study, label and entries without LibTorch or OpenCV and
// hands every other command to evalsuite-full beside it. These tests pin both halves: what the front links, that a
// forwarded command behaves as the full binary's own, and the error when the full binary is missing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/test_support.h"

namespace evalsuite::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(FrontBinary, LinksNeitherLibTorchNorOpenCv) {
  const CommandResult ldd = RunCommand({"ldd", EVALSUITE_BINARY});
  ASSERT_EQ(ldd.exit_code, 0) << ldd.err;
  EXPECT_THAT(ldd.out, Not(HasSubstr("libtorch")));
  EXPECT_THAT(ldd.out, Not(HasSubstr("libc10")));
  EXPECT_THAT(ldd.out, Not(HasSubstr("libopencv")));
  EXPECT_THAT(ldd.out, HasSubstr("libsqlite3"));  // it does serve the store commands itself
}

TEST(FrontBinary, FullBinarySitsBesideItAndLinksLibTorch) {
  const fs::path full = fs::path(EVALSUITE_BINARY).parent_path() / "evalsuite-full";
  ASSERT_TRUE(fs::exists(full)) << full;
  const CommandResult ldd = RunCommand({"ldd", full.string()});
  ASSERT_EQ(ldd.exit_code, 0) << ldd.err;
  EXPECT_THAT(ldd.out, HasSubstr("libtorch"));
}

TEST(FrontBinary, ForwardsLibTorchCommandsAndTopLevelHelp) {
  const CommandResult train_help = RunEvalsuite({"train", "--help"});
  EXPECT_EQ(train_help.exit_code, 0) << train_help.err;
  EXPECT_THAT(train_help.out, HasSubstr("--evals-per-epoch"));

  const CommandResult help = RunEvalsuite({"--help"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  for (const char* command : {"train", "study", "import", "holdout", "label", "report", "entries"}) {
    EXPECT_THAT(help.out, HasSubstr(command));
  }
  // A usage error keeps the full binary's exit code.
  const CommandResult bad = RunEvalsuite({"train", "no-such-entry"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  const CommandResult unknown = RunEvalsuite({"no-such-command"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.err;
}

TEST(FrontBinary, ServesLightCommandsItself) {
  const CommandResult import_help = RunEvalsuite({"import", "--help"});
  EXPECT_EQ(import_help.exit_code, 0) << import_help.err;
  EXPECT_THAT(import_help.out, HasSubstr("import"));
  // Copied alone into an empty folder, the front still serves its own commands...
  TempDir dir;
  const fs::path lone = dir / "evalsuite";
  fs::copy_file(EVALSUITE_BINARY, lone);
  const CommandResult entries = RunCommand({lone.string(), "entries"});
  EXPECT_EQ(entries.exit_code, 0) << entries.err;
  EXPECT_THAT(entries.out, HasSubstr("baseline"));
  const CommandResult compare = RunCommand({lone.string(), "compare", "--help"});  // issue 28: light too
  EXPECT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_THAT(compare.out, HasSubstr("--horizon"));
  // ...and names the missing full binary for the others instead of failing obscurely.
  const CommandResult train = RunCommand({lone.string(), "train", "fast"});
  EXPECT_EQ(train.exit_code, 1);
  EXPECT_THAT(train.err, HasSubstr("evalsuite-full"));
  EXPECT_THAT(train.err, HasSubstr("LibTorch"));
}

}  // namespace
}  // namespace evalsuite::testing
