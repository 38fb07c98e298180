// The SQLite files of the holdout pipeline opened fresh by eight processes at once: the API call ledger that
// concurrent crawls share, a crawl's state and the reference hash cache. Before the set-up statements were
// retried, the ledger's switch to WAL answered "database is locked" to some of them (one CI run in ten).
#include <gtest/gtest.h>

#include "datasets/flickr/crawl_state.h"
#include "datasets/flickr/shared_call_ledger.h"
#include "datasets/images/reference_hash_cache.h"
#include "tests/support/open_at_once.h"

namespace evalsuite::flickr {
namespace {

TEST(OpenedAtOnceTest, TheApiCallLedgerOpensForEveryCrawl) {
  const auto errors = evalsuite::testing::ErrorsOpeningAtOnce(8, 25, [](const std::filesystem::path& file) {
    SharedCallLedger ledger(file, ApiKeyFingerprint("key"));
    ledger.TryStart(1000.0, 1010.0, RateLimit{1000, 1});
    ledger.Finish(1001.0);
  });
  EXPECT_TRUE(errors.empty()) << errors.size() << " of 200 opens failed, first: " << errors.front();
}

TEST(OpenedAtOnceTest, ACrawlStateOpensForEveryProcess) {
  const auto errors =
      evalsuite::testing::ErrorsOpeningAtOnce(8, 25, [](const std::filesystem::path& file) { CrawlState state(file); });
  EXPECT_TRUE(errors.empty()) << errors.size() << " of 200 opens failed, first: " << errors.front();
}

TEST(OpenedAtOnceTest, TheReferenceHashCacheOpensForEveryProcess) {
  const auto errors = evalsuite::testing::ErrorsOpeningAtOnce(
      8, 25, [](const std::filesystem::path& file) { datasets::ReferenceHashCache cache(file); });
  EXPECT_TRUE(errors.empty()) << errors.size() << " of 200 opens failed, first: " << errors.front();
}

}  // namespace
}  // namespace evalsuite::flickr
