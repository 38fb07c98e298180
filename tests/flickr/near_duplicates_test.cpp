// Near-duplicate flags: perceptual hashes of re-encoded copies stay within the default threshold, unrelated
// images do not; flags name the match and the distance, within the candidates and against a reference folder.
#include "datasets/images/near_duplicates.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "common/error.h"
#include "tests/flickr/fake_flickr.h"
#include "tests/flickr/scene_images.h"
#include "tests/support/test_support.h"

namespace evalsuite::datasets {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

uint64_t HashOf(const fs::path& file) {
  std::string reason;
  auto hash = PerceptualHashFile(file, &reason);
  EXPECT_TRUE(hash.has_value()) << reason;
  return hash.value_or(0);
}

TEST(NearDuplicatesTest, EditedCopiesAreCloseAndUnrelatedImagesFar) {
  TempDir dir;
  const cv::Mat original = PhotoLikeScene(1);
  SaveJpeg(dir / "original.jpg", original);
  cv::Mat half, cropped, brighter;
  cv::resize(original, half, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
  SaveJpeg(dir / "half_q40.jpg", half, 40);
  cropped = original(cv::Rect(8, 6, 304, 228)).clone();
  SaveJpeg(dir / "cropped.jpg", cropped);
  original.convertTo(brighter, -1, 1.1, 15);
  SaveJpeg(dir / "brighter.jpg", brighter);
  const uint64_t h = HashOf(dir / "original.jpg");
  for (const char* copy : {"half_q40.jpg", "cropped.jpg", "brighter.jpg"}) {
    EXPECT_LE(HammingDistance(h, HashOf(dir / copy)), kDefaultNearDuplicateThreshold) << copy;
  }
  int far = 0;
  for (uint64_t seed = 2; seed < 22; ++seed) {
    SaveJpeg(dir / "other.jpg", PhotoLikeScene(seed));
    if (HammingDistance(h, HashOf(dir / "other.jpg")) > kDefaultNearDuplicateThreshold) ++far;
  }
  EXPECT_EQ(far, 20);
  EXPECT_EQ(HammingDistance(0, ~0ull), 64);
}

TEST(NearDuplicatesTest, FlagsWithinAndAgainstReferencesAndDeletesNothing) {
  TempDir dir;
  const cv::Mat a = PhotoLikeScene(11), c = PhotoLikeScene(12);
  cv::Mat a_small;
  cv::resize(a, a_small, cv::Size(), 0.6, 0.6, cv::INTER_AREA);
  SaveJpeg(dir / "crawl" / "images" / "a.jpg", a);
  SaveJpeg(dir / "crawl" / "images" / "b.jpg", a_small, 50);  // a near-copy of a, under another Flickr id
  SaveJpeg(dir / "crawl" / "images" / "c.jpg", c);
  SaveJpeg(dir / "train" / "x" / "c_copy.JPEG", c, 70);  // c is in the training set
  SaveJpeg(dir / "train" / "unrelated.png", PhotoLikeScene(13));
  WriteFile(dir / "train" / "broken.jpg", "<html>not found</html>");
  WriteFile(dir / "train" / "notes.txt", "ignored: not an image extension");

  CandidateManifest manifest;
  for (const char* name : {"a", "b", "c", "missing"}) {
    Candidate item;
    item.id = std::string("n01440764/") + name;
    item.path = std::string("images/") + name + ".jpg";
    manifest.items.push_back(item);
  }
  DedupeOptions options;
  options.references = {dir / "train"};
  DedupeSummary summary = AnnotateNearDuplicates(manifest, dir / "crawl", options);
  EXPECT_EQ(summary.candidates, 4);
  EXPECT_EQ(summary.hashed, 3);
  ASSERT_EQ(summary.candidate_failures.size(), 1u);
  EXPECT_EQ(summary.candidate_failures[0].path, "images/missing.jpg");
  EXPECT_EQ(summary.references_hashed, 2);
  ASSERT_EQ(summary.reference_failures.size(), 1u);
  EXPECT_NE(summary.reference_failures[0].reason.find("HTML"), std::string::npos);
  EXPECT_EQ(summary.flagged_within, 2);
  EXPECT_EQ(summary.flagged_reference, 1);

  ASSERT_EQ(manifest.items[0].near_duplicates.size(), 1u);
  EXPECT_EQ(manifest.items[0].near_duplicates[0].at("kind"), "within");
  EXPECT_EQ(manifest.items[0].near_duplicates[0].at("match"), "n01440764/b");
  EXPECT_EQ(manifest.items[0].near_duplicates[0].at("path"), "images/b.jpg");
  EXPECT_EQ(manifest.items[1].near_duplicates[0].at("match"), "n01440764/a");
  EXPECT_EQ(manifest.items[0].near_duplicates[0].at("distance"), manifest.items[1].near_duplicates[0].at("distance"));
  ASSERT_EQ(manifest.items[2].near_duplicates.size(), 1u);
  EXPECT_EQ(manifest.items[2].near_duplicates[0].at("kind"), "reference");
  EXPECT_EQ(manifest.items[2].near_duplicates[0].at("match"), (dir / "train" / "x" / "c_copy.JPEG").string());
  EXPECT_TRUE(manifest.items[3].near_duplicates.empty());
  EXPECT_EQ(manifest.source.at("dedupe").at("threshold"), kDefaultNearDuplicateThreshold);
  EXPECT_TRUE(fs::exists(dir / "crawl" / "images" / "b.jpg"));

  // Running again replaces the flags instead of adding to them; a threshold of 0 keeps exact copies only.
  options.threshold = 0;
  summary = AnnotateNearDuplicates(manifest, dir / "crawl", options);
  EXPECT_EQ(summary.flagged_within, 0);
  EXPECT_TRUE(manifest.items[0].near_duplicates.empty());
  EXPECT_EQ(manifest.source.at("dedupe").at("threshold"), 0);
  options.threshold = 65;
  EXPECT_THROW(AnnotateNearDuplicates(manifest, dir / "crawl", options), Error);
}

}  // namespace
}  // namespace evalsuite::datasets
