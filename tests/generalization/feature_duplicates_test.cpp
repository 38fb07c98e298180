// The feature signal of the near-duplicate search: a TorchScript extractor (built here with define(): a 4x4
// average pool of the image, 48 numbers) embeds candidates and references; a 15% crop of a mirrored photo,
// which the perceptual hash misses, is found by cosine similarity; the nearest-neighbour product agrees with
// a pair loop.
#include "generalization/feature_duplicates.h"

#include <gtest/gtest.h>
#include <torch/script.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <random>

#include "common/error.h"
#include "tests/support/test_support.h"

namespace evalsuite::generalization {
namespace {

namespace fs = std::filesystem;

void SavePoolModel(const fs::path& file) {
  torch::jit::Module module("PoolFeatures");
  module.define(R"(
    def forward(self, x):
        return torch.adaptive_avg_pool2d(x, [4, 4]).flatten(1)
  )");
  module.save(file.string());
}

// A photo-like scene: coloured blocks of different sizes, blurred.
cv::Mat Scene(uint64_t seed) {
  cv::RNG rng(seed);
  cv::Mat image(240, 320, CV_8UC3, cv::Scalar(rng.uniform(0, 256), rng.uniform(0, 256), rng.uniform(0, 256)));
  for (int i = 0; i < 8; ++i) {
    cv::rectangle(image, cv::Point(rng.uniform(0, 320), rng.uniform(0, 240)),
                  cv::Point(rng.uniform(0, 320), rng.uniform(0, 240)),
                  cv::Scalar(rng.uniform(0, 256), rng.uniform(0, 256), rng.uniform(0, 256)), cv::FILLED);
  }
  cv::GaussianBlur(image, image, cv::Size(15, 15), 5);
  return image;
}

void Save(const fs::path& file, const cv::Mat& image) {
  fs::create_directories(file.parent_path());
  ASSERT_TRUE(cv::imwrite(file.string(), image));
}

TEST(FeatureNeighbours, CosineProductAgreesWithAPairLoop) {
  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  const int d = 16, n = 40, m = 300;
  auto unit_rows = [&](int rows) {
    std::vector<float> v(static_cast<size_t>(rows * d));
    for (int r = 0; r < rows; ++r) {
      float norm = 0;
      for (int j = 0; j < d; ++j) norm += (v[r * d + j] = normal(rng)) * v[r * d + j];
      for (int j = 0; j < d; ++j) v[r * d + j] /= std::sqrt(norm);
    }
    return v;
  };
  const std::vector<float> q = unit_rows(n), keys = unit_rows(m);
  const auto found = NearestByCosine(q, keys, d, 3, 0.3f);
  for (int i = 0; i < n; ++i) {
    std::vector<std::pair<float, int>> all;
    for (int j = 0; j < m; ++j) {
      float dot = 0;
      for (int c = 0; c < d; ++c) dot += q[i * d + c] * keys[j * d + c];
      if (dot >= 0.3f) all.push_back({-dot, j});
    }
    std::sort(all.begin(), all.end());
    ASSERT_EQ(found[i].size(), std::min<size_t>(3, all.size())) << "query " << i;
    for (size_t r = 0; r < found[i].size(); ++r) {
      EXPECT_EQ(found[i][r].index, all[r].second);
      EXPECT_NEAR(found[i][r].similarity, -all[r].first, 1e-5);
    }
  }
}

TEST(FeatureNeighbours, ACropOfAMirrorImageIsFoundWhereTheHashMissesIt) {
  evalsuite::testing::TempDir dir;
  SavePoolModel(dir / "features.pt");
  cv::Mat mirrored;
  cv::flip(Scene(3), mirrored, 1);
  const cv::Mat crop_of_mirror = mirrored(cv::Rect(24, 18, 272, 204)).clone();  // 15% off each side pair
  Save(dir / "crawl" / "images" / "a.jpg", crop_of_mirror);
  Save(dir / "crawl" / "images" / "b.jpg", Scene(4));
  Save(dir / "crawl" / "images" / "c.jpg", Scene(5));
  Save(dir / "val" / "original.jpg", Scene(3));
  for (uint64_t seed = 10; seed < 16; ++seed) Save(dir / "val" / ("o" + std::to_string(seed) + ".jpg"), Scene(seed));
  datasets::CandidateManifest manifest;
  for (const char* name : {"a", "b", "c"}) {
    datasets::Candidate item;
    item.id = std::string("n01440764/") + name;
    item.path = std::string("images/") + name + ".jpg";
    manifest.items.push_back(item);
  }
  datasets::DedupeOptions hash_options;
  hash_options.references = {dir / "val"};
  const auto hashed = datasets::AnnotateNearDuplicates(manifest, dir / "crawl", hash_options);
  EXPECT_EQ(hashed.flagged_reference, 0) << "the hash should miss a 15% crop of a mirror image";

  // The crop of the mirror image is not the mirror of the original in feature space either: the extractor here
  // is a plain pool, so mirror the reference too (as the hash does) by adding the mirrored original.
  cv::Mat original_mirrored;
  cv::flip(Scene(3), original_mirrored, 1);
  Save(dir / "val" / "original_mirrored.jpg", original_mirrored);
  auto extractor = LoadTorchScriptFeatureExtractor(dir / "features.pt", {3, 224, 224});
  EXPECT_EQ(extractor->dimensions(), 48);
  FeatureDedupeOptions options;
  options.references = {dir / "val"};
  options.min_similarity = 0.9f;  // measured: 0.966 for the crop, at most 0.71 for unrelated scenes
  const FeatureDedupeSummary summary =
      AnnotateFeatureNeighbours(manifest, dir / "crawl", *extractor, "pool.pt", options);
  EXPECT_EQ(summary.candidates_embedded, 3);
  EXPECT_EQ(summary.references_embedded, 8);
  EXPECT_EQ(summary.flagged_reference, 1);
  const nlohmann::json& flags = manifest.items[0].near_duplicates;
  ASSERT_FALSE(flags.empty());
  EXPECT_EQ(flags.back().at("signal"), "features");
  EXPECT_EQ(flags.back().at("match"), (dir / "val" / "original_mirrored.jpg").string());
  EXPECT_GE(flags.back().at("similarity").get<double>(), 0.9);
  EXPECT_TRUE(manifest.items[1].near_duplicates.empty());
  EXPECT_TRUE(manifest.items[2].near_duplicates.empty());
  EXPECT_EQ(manifest.source.at("dedupe").at("features").at("model"), "pool.pt");
}

TEST(FeatureNeighbours, AModelThatIsNotAnExtractorIsRefusedWithItsFile) {
  evalsuite::testing::TempDir dir;
  evalsuite::testing::WriteFile(dir / "bad.pt", "not a model");
  try {
    LoadTorchScriptFeatureExtractor(dir / "bad.pt", {3, 224, 224});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), (dir / "bad.pt").string());
  }
}

}  // namespace
}  // namespace evalsuite::generalization
