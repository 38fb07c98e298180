// RunStore::Begin: what an import writes lands together or not at all; runs inserted inside nest as savepoints.
#include <gtest/gtest.h>

#include <atomic>

#include "store/run_store.h"
#include "tests/support/open_at_once.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

store::RunRecord ReachedRun(int index) {
  store::RunRecord r;
  r.entry = "e";
  r.run_index = index;
  r.log.status = analysis::EndedAs::kReached;
  r.log.points.push_back({1.0, 1.0, 1.0, 0.9, std::nullopt});
  return r;
}

TEST(StoreTransaction, AnUncommittedImportLeavesTheStoreAsItWas) {
  evalsuite::testing::TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  {
    auto transaction = store->Begin();
    const int64_t id = store->CreateStudy("import x", "import", nlohmann::json::object(), nlohmann::json::object());
    store->InsertRun(id, ReachedRun(0));
    store->InsertRun(id, ReachedRun(1));
    // No Commit: a failure half-way through the import.
  }
  EXPECT_TRUE(store->ListStudies().empty()) << "a failed import left a study behind";
  {
    auto transaction = store->Begin();
    const int64_t id = store->CreateStudy("import y", "import", nlohmann::json::object(), nlohmann::json::object());
    store->InsertRun(id, ReachedRun(0));
    transaction->Commit();
  }
  ASSERT_EQ(store->ListStudies().size(), 1u);
  EXPECT_EQ(store->LoadRuns(store->ListStudies()[0].id).size(), 1u);
}

// A study and its report (or two imports) creating one store at the same moment: every one opens it.
TEST(StoreTransaction, EightProcessesCreatingOneStoreAtOnceAllOpenIt) {
  std::atomic<int> opened{0};
  const auto errors = evalsuite::testing::ErrorsOpeningAtOnce(8, 15, [&](const std::filesystem::path& file) {
    auto store = store::RunStore::Open(file);
    auto transaction = store->Begin();
    store->CreateStudy("s" + std::to_string(opened++), "import", nlohmann::json::object(), nlohmann::json::object());
    transaction->Commit();
  });
  EXPECT_TRUE(errors.empty()) << errors.size() << " of 120 opens failed, first: " << errors.front();
}

}  // namespace
}  // namespace evalsuite::study
