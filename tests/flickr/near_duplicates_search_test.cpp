// The near-duplicate search at scale and against mirrors: the multi-index hash finds exactly what a full scan
// finds while comparing far fewer pairs, a mirrored copy is as close as the original, and reference hashes are
// read back from the cache on a second run.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <random>
#include <set>
#include <thread>

#include "datasets/images/hamming_index.h"
#include "datasets/images/near_duplicates.h"
#include "tests/flickr/fake_flickr.h"
#include "tests/flickr/scene_images.h"
#include "tests/support/test_support.h"

namespace evalsuite::datasets {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::TempDir;

TEST(HammingIndexTest, FindsExactlyWhatAFullScanFindsWithFewerComparisons) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> stored(20000);
  for (uint64_t& h : stored) h = rng();
  // Near copies of some stored hashes: 0 to 10 bits flipped.
  std::vector<uint64_t> queries;
  for (int q = 0; q < 200; ++q) {
    uint64_t h = stored[static_cast<size_t>(q * 37)];
    const int flips = q % 11;
    for (int f = 0; f < flips; ++f) h ^= 1ull << (rng() % 64);
    queries.push_back(q % 4 == 0 ? rng() : h);
  }
  for (int threshold : {0, 4, 8, 12, 19, 30}) {
    HammingIndex index(threshold);
    for (size_t i = 0; i < stored.size(); ++i) index.Add(stored[i], static_cast<uint32_t>(i));
    for (uint64_t query : queries) {
      std::set<std::pair<uint32_t, int>> expected, found;
      for (size_t i = 0; i < stored.size(); ++i) {
        const int d = HammingDistance(query, stored[i]);
        if (d <= threshold) expected.insert({static_cast<uint32_t>(i), d});
      }
      for (const auto& hit : index.Query(query)) EXPECT_TRUE(found.insert({hit.id, hit.distance}).second) << "twice";
      EXPECT_EQ(found, expected) << "threshold " << threshold;
    }
    // A full scan compares queries x stored; the index a small share: about 1/100 at the default 8 bits.
    const uint64_t full_scan = queries.size() * stored.size();
    if (threshold <= 11) EXPECT_LT(index.comparisons() * 50, full_scan) << "threshold " << threshold;
    if (threshold <= 19) EXPECT_LT(index.comparisons() * 5, full_scan) << "threshold " << threshold;
  }
}

// The tables are laid out on the first query; entries added after it must be found by the next one, and
// queries from several threads at once on a fresh index must all see the whole index.
TEST(HammingIndexTest, EntriesAddedAfterAQueryAreFoundAndConcurrentFirstQueriesAgree) {
  HammingIndex index(8);
  index.Add(0x0123456789abcdefULL, 1);
  ASSERT_EQ(index.Query(0x0123456789abcdefULL).size(), 1u);
  index.Add(0x0123456789abcdeeULL, 2);  // one bit away
  EXPECT_EQ(index.Query(0x0123456789abcdefULL).size(), 2u);
  EXPECT_TRUE(index.Query(0xfedcba9876543210ULL).empty());

  std::mt19937_64 rng(11);
  HammingIndex fresh(8);
  std::vector<uint64_t> stored(5000);
  for (size_t i = 0; i < stored.size(); ++i) fresh.Add(stored[i] = rng(), static_cast<uint32_t>(i));
  std::vector<size_t> found(4, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < found.size(); ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < stored.size(); i += found.size()) found[t] += fresh.Query(stored[i] ^ 0x3).size();
    });
  }
  for (auto& thread : threads) thread.join();
  size_t total = 0;
  for (size_t f : found) total += f;
  EXPECT_EQ(total, stored.size());  // each query finds its own entry two bits away (random others are far)
}

TEST(NearDuplicatesSearchTest, AMirroredCopyIsAsCloseAsTheOriginal) {
  TempDir dir;
  const cv::Mat original = PhotoLikeScene(31);
  cv::Mat mirrored;
  cv::flip(original, mirrored, 1);
  SaveJpeg(dir / "a.jpg", original);
  SaveJpeg(dir / "b.jpg", mirrored);
  std::string reason;
  const auto a = PerceptualHashesFile(dir / "a.jpg", &reason);
  const auto b = PerceptualHashesFile(dir / "b.jpg", &reason);
  ASSERT_TRUE(a && b) << reason;
  EXPECT_GT(HammingDistance(a->phash, b->phash), kDefaultNearDuplicateThreshold);  // what PHash alone saw
  bool was_mirrored = false;
  EXPECT_LE(MirrorInvariantDistance(*a, *b, &was_mirrored), 2);
  EXPECT_TRUE(was_mirrored);
}

TEST(NearDuplicatesSearchTest, MirroredCopiesAreFlaggedAndReferenceHashesComeFromTheCacheTheSecondTime) {
  TempDir dir;
  cv::Mat a_mirrored;
  cv::flip(PhotoLikeScene(41), a_mirrored, 1);
  SaveJpeg(dir / "crawl" / "images" / "a.jpg", PhotoLikeScene(41));
  SaveJpeg(dir / "crawl" / "images" / "b.jpg", a_mirrored);  // a mirrored copy of a, under another id
  SaveJpeg(dir / "crawl" / "images" / "c.jpg", PhotoLikeScene(42));
  cv::Mat c_mirrored;
  cv::flip(PhotoLikeScene(42), c_mirrored, 1);
  SaveJpeg(dir / "val" / "c_mirrored.jpg", c_mirrored);  // c is in the reference set, mirrored
  for (uint64_t seed = 50; seed < 60; ++seed)
    SaveJpeg(dir / "val" / ("other" + std::to_string(seed) + ".jpg"), PhotoLikeScene(seed));

  CandidateManifest manifest;
  for (const char* name : {"a", "b", "c"}) {
    Candidate item;
    item.id = std::string("n01440764/") + name;
    item.path = std::string("images/") + name + ".jpg";
    manifest.items.push_back(item);
  }
  DedupeOptions options;
  options.references = {dir / "val"};
  options.reference_cache = dir / "reference-hashes.db";
  DedupeSummary summary = AnnotateNearDuplicates(manifest, dir / "crawl", options);
  EXPECT_EQ(summary.flagged_within, 2);
  EXPECT_EQ(summary.flagged_reference, 1);
  ASSERT_EQ(manifest.items[0].near_duplicates.size(), 1u);
  EXPECT_EQ(manifest.items[0].near_duplicates[0].at("match"), "n01440764/b");
  EXPECT_EQ(manifest.items[0].near_duplicates[0].at("mirrored"), true);
  ASSERT_EQ(manifest.items[2].near_duplicates.size(), 1u);
  EXPECT_EQ(manifest.items[2].near_duplicates[0].at("kind"), "reference");
  EXPECT_EQ(manifest.items[2].near_duplicates[0].at("mirrored"), true);
  EXPECT_EQ(summary.references_hashed, 11);
  EXPECT_EQ(summary.references_from_cache, 0);

  summary = AnnotateNearDuplicates(manifest, dir / "crawl", options);
  EXPECT_EQ(summary.references_from_cache, 11);
  EXPECT_EQ(summary.flagged_reference, 1);
  EXPECT_EQ(manifest.source.at("dedupe").at("references_from_cache"), 11);

  // A reference that changed is hashed again, not read from the cache.
  SaveJpeg(dir / "val" / "other50.jpg", PhotoLikeScene(99));
  summary = AnnotateNearDuplicates(manifest, dir / "crawl", options);
  EXPECT_EQ(summary.references_from_cache, 10);
}

}  // namespace
}  // namespace evalsuite::datasets
