// The front binary `evalsuite` serves import, report, compare, study and entries without LibTorch, OpenCV or the
// labeling server's libraries, hands `label` to evalsuite-label and every other command to evalsuite-full beside
// it. These tests pin each part: what each binary links, that a forwarded command behaves as the serving binary's
// own, and the error when a binary is missing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "evalsuite/cli/light/label_command_names.h"
#include "tests/support/test_support.h"

namespace evalsuite::testing {
namespace {

namespace fs = std::filesystem;
namespace cli = evalsuite::cli;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(FrontBinary, LinksNeitherLibTorchNorOpenCv) {
  const CommandResult ldd = RunCommand({"ldd", EVALSUITE_BINARY});
  ASSERT_EQ(ldd.exit_code, 0) << ldd.err;
  EXPECT_THAT(ldd.out, Not(HasSubstr("libtorch")));
  EXPECT_THAT(ldd.out, Not(HasSubstr("libc10")));
  EXPECT_THAT(ldd.out, Not(HasSubstr("libopencv")));
  EXPECT_THAT(ldd.out, HasSubstr("libsqlite3"));  // it does serve the store commands itself
  // Nor the labeling server's: cpp-httplib's library starts OpenSSL as it loads (about 6 ms of every import and
  // report), and ICU's are 5 MB of relocations.
  EXPECT_THAT(ldd.out, Not(HasSubstr("libcpp-httplib")));
  EXPECT_THAT(ldd.out, Not(HasSubstr("libssl")));
  EXPECT_THAT(ldd.out, Not(HasSubstr("libicu")));
  // Nor OpenSSL's libcrypto: the front never hashes (common/CMakeLists.txt keeps SHA-256 in an object of its own),
  // and loading it writes about 100 pages of relocations, 2 to 3 ms of every command.
  EXPECT_THAT(ldd.out, Not(HasSubstr("libcrypto")));
}

// The revision --version (and every report's environment) names is the checkout's as it was built, not as CMake
// last configured it: the header is written at each build (cmake/GitRevision.cmake).
TEST(FrontBinary, VersionNamesTheRevisionOfTheCheckoutItWasBuiltFrom) {
  const CommandResult head = RunCommand({"git", "-C", SourceDir().string(), "rev-parse", "--short", "HEAD"});
  if (head.exit_code != 0) GTEST_SKIP() << "the source folder is no git checkout";
  const std::string revision = head.out.substr(0, head.out.find('\n'));
  const CommandResult version = RunEvalsuite({"--version"});
  ASSERT_EQ(version.exit_code, 0) << version.err;
  EXPECT_THAT(version.out, HasSubstr("(" + revision)) << "built from another commit than the checkout's HEAD";
}

TEST(FrontBinary, LabelBinarySitsBesideItAndServesTheLabelCommandsTheFrontRoutesToIt) {
  const fs::path label = fs::path(EVALSUITE_BINARY).parent_path() / "evalsuite-label";
  ASSERT_TRUE(fs::exists(label)) << label;
  const CommandResult ldd = RunCommand({"ldd", label.string()});
  ASSERT_EQ(ldd.exit_code, 0) << ldd.err;
  EXPECT_THAT(ldd.out, HasSubstr("libcpp-httplib"));
  EXPECT_THAT(ldd.out, Not(HasSubstr("libtorch")));
  // The manifests it reads are compiled apart from the image decoding (datasets/CMakeLists.txt): no OpenCV.
  EXPECT_THAT(ldd.out, Not(HasSubstr("libopencv")));
  // Every name the front routes to it (label_command_names.h) is one it serves, through the front
  // as well as directly; what it does not serve is a usage error.
  const CommandResult help = RunCommand({label.string(), "--help"});
  EXPECT_EQ(help.exit_code, 0) << help.err;
  for (const char* name : cli::kLabelCommandNames) {
    EXPECT_THAT(help.out, HasSubstr(name));
    const CommandResult direct = RunCommand({label.string(), name, "--help"});
    EXPECT_EQ(direct.exit_code, 0) << direct.err;
    const CommandResult routed = RunEvalsuite({name, "--help"});
    EXPECT_EQ(routed.exit_code, 0) << routed.err;
    // The same help but for the usage line's argv[0], which stays the name the user typed.
    EXPECT_THAT(routed.out, HasSubstr("evalsuite " + std::string(name)));
    EXPECT_EQ(routed.out.substr(routed.out.find("Options:")), direct.out.substr(direct.out.find("Options:")));
  }
  const CommandResult import = RunCommand({label.string(), "import", "somewhere"});
  EXPECT_EQ(import.exit_code, 2) << import.err;
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
  // The version is its own to tell (the full binary's start, 0.6 s, bought nothing): the same line as the full's.
  const CommandResult version = RunCommand({lone.string(), "--version"});
  EXPECT_EQ(version.exit_code, 0) << version.err;
  const CommandResult full_version =
      RunCommand({(fs::path(EVALSUITE_BINARY).parent_path() / "evalsuite-full").string(), "--version"});
  EXPECT_EQ(full_version.exit_code, 0) << full_version.err;
  EXPECT_FALSE(version.out.empty());
  EXPECT_EQ(version.out, full_version.out);
  // ...and names the missing full binary for the others instead of failing obscurely.
  const CommandResult train = RunCommand({lone.string(), "train", "fast"});
  EXPECT_EQ(train.exit_code, 1);
  EXPECT_THAT(train.err, HasSubstr("evalsuite-full"));
  EXPECT_THAT(train.err, HasSubstr("LibTorch"));
  const CommandResult label = RunCommand({lone.string(), "label", "serve", "--help"});
  EXPECT_EQ(label.exit_code, 1);
  EXPECT_THAT(label.err, HasSubstr("evalsuite-label"));
  EXPECT_THAT(label.err, HasSubstr("labeling server"));
}

}  // namespace
}  // namespace evalsuite::testing
