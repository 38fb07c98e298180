// A store on a read-only mount: study list, study show and report read it; study resume and study run say
// plainly that the store is read-only, naming it (they used to fail with "attempt to write a readonly
// database" or "no study with id 1"). Needs root to mount; skips with a message where mount is not permitted.
#include <sys/mount.h>

#include <filesystem>
#include <string>

#include "tests/study/fake_entries.h"
#include "tests/support/test_support.h"

namespace evalsuite {
namespace {

namespace fs = std::filesystem;
using testing::RunEvalsuite;
using testing::TempDir;
using testing::WriteFile;

class ReadOnlyMount {
 public:
  ReadOnlyMount(const fs::path& source, const fs::path& target) : target_(target) {
    fs::create_directories(target);
    if (mount(source.c_str(), target.c_str(), nullptr, MS_BIND, nullptr) != 0) return;
    mounted_ = true;
    ok_ = mount(nullptr, target.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) == 0;
  }
  ~ReadOnlyMount() {
    if (mounted_) umount2(target_.c_str(), MNT_DETACH);
  }
  bool ok() const { return ok_; }

 private:
  fs::path target_;
  bool mounted_ = false, ok_ = false;
};

TEST(ReadOnlyStoreCliTest, ReadingCommandsWorkAndWritingOnesSaySoPlainly) {
  TempDir dir;
  study::testing::WriteFakeEntry(dir.path());
  WriteFile(dir / "s.toml",
            "name = \"ro\"\nruns = 2\nthreshold = 0.85\nentries = [ { name = \"a\", command = "
            "\"sh {study_dir}/fake_entry.sh {log} {seed} ok\" } ]\n");
  fs::create_directories(dir / "stores");
  ASSERT_EQ(RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", (dir / "stores" / "ro.db").string(),
                          "--out", (dir / "runs").string(), "--progress", "none"})
                .exit_code,
            0);
  ReadOnlyMount ro(dir / "stores", dir / "ro");
  if (!ro.ok()) GTEST_SKIP() << "cannot make a read-only bind mount here (needs root and mount permission)";
  const std::string store = (dir / "ro" / "ro.db").string();

  auto list = RunEvalsuite({"study", "list", "--store", store});
  EXPECT_EQ(list.exit_code, 0) << list.err;
  EXPECT_NE(list.out.find("2/2"), std::string::npos) << list.out;
  auto show = RunEvalsuite({"study", "show", "ro", "--store", store});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  auto report = RunEvalsuite({"report", store, "--out", (dir / "report").string()});
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_TRUE(fs::exists(dir / "report" / "report.json"));

  auto resume = RunEvalsuite({"study", "resume", "ro", "--store", store});
  EXPECT_NE(resume.exit_code, 0);
  EXPECT_NE(resume.err.find(store + ": the store is read-only"), std::string::npos) << resume.err;
  auto run = RunEvalsuite({"study", "run", (dir / "s.toml").string(), "--store", store, "--progress", "none"});
  EXPECT_NE(run.err.find("the store is read-only"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace evalsuite
