// Near-duplicate search: (1) recall and precision per transformation at several thresholds, on generated
// photo-like scenes and their edited copies (crops 0-20%, mirror, crop of a mirror, rescale, recompression,
// colour shift, brightness); (2) scale: R reference images x C candidates hashed, indexed and searched, against
// a full pairwise scan of the same hashes in the same run, with the cache's second run, peak memory stated.
// Usage: near_duplicate_bench [--scenes N] [--reference R] [--candidates C] [--search-only]
//        (defaults 200, 50000, 5000; --search-only times the index against the full scan on random hashes alone)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <string>
#include <thread>
#include <vector>

#include "datasets/images/hamming_index.h"
#include "datasets/images/near_duplicates.h"
#include "tests/flickr/fake_flickr.h"

namespace {

namespace fs = std::filesystem;
using evalsuite::datasets::HammingDistance;
using evalsuite::datasets::ImageHashes;
using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// A photo-like scene: shapes, blurred, with mild noise so that it has some texture.
cv::Mat Scene(uint64_t seed, int width, int height) {
  const std::string jpeg = evalsuite::flickr::testing::MakeJpeg(seed, width, height, 95);
  cv::Mat image =
      cv::imdecode(cv::Mat(1, static_cast<int>(jpeg.size()), CV_8U, const_cast<char*>(jpeg.data())), cv::IMREAD_COLOR);
  cv::GaussianBlur(image, image, cv::Size(7, 7), 2);
  cv::Mat noise(image.size(), image.type());
  cv::RNG rng(seed * 7 + 1);
  rng.fill(noise, cv::RNG::NORMAL, 0, 6);
  image += noise;
  return image;
}

cv::Mat Crop(const cv::Mat& image, double fraction) {  // keeps the centre (1 - fraction) of each side
  const int dx = static_cast<int>(image.cols * fraction / 2), dy = static_cast<int>(image.rows * fraction / 2);
  return image(cv::Rect(dx, dy, image.cols - 2 * dx, image.rows - 2 * dy)).clone();
}

cv::Mat Mirror(const cv::Mat& image) {
  cv::Mat out;
  cv::flip(image, out, 1);
  return out;
}

ImageHashes HashOf(const cv::Mat& image, const fs::path& scratch, int quality = 90) {
  cv::imwrite(scratch.string(), image, {cv::IMWRITE_JPEG_QUALITY, quality});
  std::string reason;
  return evalsuite::datasets::PerceptualHashesFile(scratch, &reason).value_or(ImageHashes{});
}

long PeakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

void Calibration(int scenes, const fs::path& dir) {
  struct Transform {
    const char* name;
    std::function<cv::Mat(const cv::Mat&)> apply;
    int quality = 90;
  };
  const std::vector<Transform> transforms = {
      {"recompress q30", [](const cv::Mat& m) { return m.clone(); }, 30},
      {"rescale 0.5",
       [](const cv::Mat& m) {
         cv::Mat o;
         cv::resize(m, o, cv::Size(), 0.5, 0.5, cv::INTER_AREA);
         return o;
       }},
      {"colour shift",
       [](const cv::Mat& m) {
         cv::Mat o;
         cv::add(m, cv::Scalar(20, -10, 15), o);
         return o;
       }},
      {"brightness +15%",
       [](const cv::Mat& m) {
         cv::Mat o;
         m.convertTo(o, -1, 1.15, 10);
         return o;
       }},
      {"crop 5%", [](const cv::Mat& m) { return Crop(m, 0.05); }},
      {"crop 10%", [](const cv::Mat& m) { return Crop(m, 0.10); }},
      {"crop 15%", [](const cv::Mat& m) { return Crop(m, 0.15); }},
      {"crop 20%", [](const cv::Mat& m) { return Crop(m, 0.20); }},
      {"mirror", [](const cv::Mat& m) { return Mirror(m); }},
      {"crop 10% of mirror", [](const cv::Mat& m) { return Crop(Mirror(m), 0.10); }},
  };
  const std::vector<int> thresholds = {4, 6, 8, 10, 12, 14, 16};
  std::vector<ImageHashes> originals;
  for (int s = 0; s < scenes; ++s) originals.push_back(HashOf(Scene(1000 + s, 320, 240), dir / "o.jpg"));
  // Per transformation, every edited copy is compared with every original: its own (a true pair: recall) and the
  // scenes - 1 others (unrelated pairs: a hit there is a false alarm). Precision = true hits / all hits.
  std::printf(
      "per transformation, %d scenes: recall = share of the %d edited copies within the threshold of their\n"
      "original; precision = true hits / (true hits + false alarms among the %d pairs of a copy and\n"
      "another scene's original); '-' where nothing was flagged\n",
      scenes, scenes, scenes * (scenes - 1));
  std::printf("%-20s %-10s %-9s", "transformation", "signal", "");
  for (int t : thresholds) std::printf("  t=%-4d", t);
  std::printf("\n");
  for (const Transform& transform : transforms) {
    std::vector<ImageHashes> copies;
    for (int s = 0; s < scenes; ++s) {
      copies.push_back(HashOf(transform.apply(Scene(1000 + s, 320, 240)), dir / "c.jpg", transform.quality));
    }
    for (int signal = 0; signal < 2; ++signal) {
      auto distance = [&](const ImageHashes& a, const ImageHashes& b) {
        return signal == 0 ? HammingDistance(a.phash, b.phash) : evalsuite::datasets::MirrorInvariantDistance(a, b);
      };
      std::vector<int64_t> true_hits(thresholds.size()), false_hits(thresholds.size());
      for (int c = 0; c < scenes; ++c) {
        for (int o = 0; o < scenes; ++o) {
          const int d = distance(copies[c], originals[o]);
          for (size_t t = 0; t < thresholds.size(); ++t) (c == o ? true_hits : false_hits)[t] += d <= thresholds[t];
        }
      }
      std::printf("%-20s %-10s %-9s", signal == 0 ? transform.name : "", signal == 0 ? "PHash" : "+mirror", "recall");
      for (size_t t = 0; t < thresholds.size(); ++t) std::printf("  %5.1f%%", 100.0 * true_hits[t] / scenes);
      std::printf("\n%-20s %-10s %-9s", "", "", "precision");
      for (size_t t = 0; t < thresholds.size(); ++t) {
        const int64_t hits = true_hits[t] + false_hits[t];
        if (hits == 0) {
          std::printf("  %6s", "-");
        } else {
          std::printf("  %5.1f%%", 100.0 * true_hits[t] / hits);
        }
      }
      std::printf("\n");
    }
  }
  // False alarms among the originals themselves (what `holdout dedupe` meets within a crawl of unrelated photos).
  std::vector<int64_t> false_plain(thresholds.size()), false_mirror(thresholds.size());
  int64_t pairs = 0;
  for (int a = 0; a < scenes; ++a) {
    for (int b = a + 1; b < scenes; ++b) {
      ++pairs;
      const int dp = HammingDistance(originals[a].phash, originals[b].phash);
      const int dm = evalsuite::datasets::MirrorInvariantDistance(originals[a], originals[b]);
      for (size_t t = 0; t < thresholds.size(); ++t) {
        false_plain[t] += dp <= thresholds[t];
        false_mirror[t] += dm <= thresholds[t];
      }
    }
  }
  std::printf("%-20s %-10s %-9s", "unrelated originals", "PHash", "flagged");
  for (size_t t = 0; t < thresholds.size(); ++t) std::printf("  %6.3f%%", 100.0 * false_plain[t] / pairs);
  std::printf("\n%-20s %-10s %-9s", "", "+mirror", "flagged");
  for (size_t t = 0; t < thresholds.size(); ++t) std::printf("  %6.3f%%", 100.0 * false_mirror[t] / pairs);
  std::printf("\n  of %lld pairs of different scenes\n", static_cast<long long>(pairs));
}

// Search alone: the index against a full scan of the same hashes (2R random reference hashes, C queries of which
// one in ten is a planted copy 2 bits away).
void SearchAlone(int references, int candidates, int threshold) {
  std::printf("\nsearch alone: %d reference hashes, %d queries, threshold %d\n", 2 * references, candidates, threshold);
  std::vector<uint64_t> reference_hashes, candidate_hashes;
  std::mt19937_64 rng(3);
  for (int r = 0; r < 2 * references; ++r) reference_hashes.push_back(rng());
  for (int c = 0; c < candidates; ++c)
    candidate_hashes.push_back(c % 10 == 0 ? reference_hashes[c % references] ^ 0x11 : rng());
  auto start = Clock::now();
  evalsuite::datasets::HammingIndex index(threshold);
  for (size_t r = 0; r < reference_hashes.size(); ++r) index.Add(reference_hashes[r], static_cast<uint32_t>(r));
  const double built = Since(start);
  start = Clock::now();
  size_t found_index = 0;
  for (uint64_t h : candidate_hashes) found_index += index.Query(h).size();
  const double queried = Since(start);
  const double indexed = built + queried;
  start = Clock::now();
  size_t found_scan = 0;
  for (uint64_t h : candidate_hashes) {
    for (uint64_t r : reference_hashes) found_scan += HammingDistance(h, r) <= threshold;
  }
  const double scanned = Since(start);
  std::printf(
      "search of %zu hashes by %zu queries: index %.3f s (of which %.3f s adding; tables are laid out by the first "
      "query), full scan %.3f s (%.1fx), same "
      "hits: %s (%zu)\n",
      reference_hashes.size(), candidate_hashes.size(), indexed, built, scanned, scanned / indexed,
      found_index == found_scan ? "yes" : "NO", found_index);
  // Times depend on what else the machine runs; the comparisons do not.
  const double full = static_cast<double>(reference_hashes.size()) * static_cast<double>(candidate_hashes.size());
  std::printf("hash comparisons: index %llu, full scan %.0f (%.0fx fewer)\n",
              static_cast<unsigned long long>(index.comparisons()), full,
              full / static_cast<double>(std::max<uint64_t>(1, index.comparisons())));
}

void Scale(int references, int candidates, const fs::path& dir) {
  const int threads = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
  auto start = Clock::now();
  fs::create_directories(dir / "reference");
  fs::create_directories(dir / "crawl" / "images");
  for (int r = 0; r < references; ++r) {
    cv::imwrite((dir / "reference" / ("r" + std::to_string(r) + ".jpg")).string(), Scene(500000 + r, 128, 96),
                {cv::IMWRITE_JPEG_QUALITY, 85});
  }
  evalsuite::datasets::CandidateManifest manifest;
  for (int c = 0; c < candidates; ++c) {
    // One candidate in ten is an edited copy of a reference image.
    cv::Mat image = c % 10 == 0 ? Crop(Scene(500000 + c * 7 % references, 128, 96), 0.05) : Scene(900000 + c, 128, 96);
    const std::string name = "images/c" + std::to_string(c) + ".jpg";
    cv::imwrite((dir / "crawl" / name).string(), image, {cv::IMWRITE_JPEG_QUALITY, 85});
    evalsuite::datasets::Candidate item;
    item.id = "n00000000/" + std::to_string(c);
    item.path = name;
    manifest.items.push_back(item);
  }
  std::printf("\nscale: %d reference images, %d candidates (128x96 JPEGs), %d threads; generated in %.1f s\n",
              references, candidates, threads, Since(start));
  evalsuite::datasets::DedupeOptions options;
  options.references = {dir / "reference"};
  options.reference_cache = dir / "reference-hashes.db";
  options.threads = threads;
  start = Clock::now();
  auto summary = evalsuite::datasets::AnnotateNearDuplicates(manifest, dir / "crawl", options);
  const double first = Since(start);
  start = Clock::now();
  summary = evalsuite::datasets::AnnotateNearDuplicates(manifest, dir / "crawl", options);
  const double second = Since(start);
  std::printf("first run (hash everything): %.1f s; second run (reference hashes from the cache): %.1f s (%.1fx)\n",
              first, second, first / second);
  std::printf("flagged against the reference: %d of %d candidates (%d planted copies)\n", summary.flagged_reference,
              candidates, (candidates + 9) / 10);

  SearchAlone(references, candidates, options.threshold);
  std::printf("peak RSS: %ld MB\n", PeakRssMb());
}

}  // namespace

int main(int argc, char** argv) {
  int scenes = 200, references = 50000, candidates = 5000;
  bool search_only = false;
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (std::strcmp(argv[i], "--search-only") == 0) search_only = true;
    if (has_value && std::strcmp(argv[i], "--scenes") == 0) scenes = std::atoi(argv[++i]);
    if (has_value && std::strcmp(argv[i], "--reference") == 0) references = std::atoi(argv[++i]);
    if (has_value && std::strcmp(argv[i], "--candidates") == 0) candidates = std::atoi(argv[++i]);
  }
  if (search_only) {
    SearchAlone(references, candidates, evalsuite::datasets::DedupeOptions{}.threshold);
    return 0;
  }
  const fs::path dir = fs::temp_directory_path() / ("near_duplicate_bench." + std::to_string(getpid()));
  fs::create_directories(dir);
  Calibration(scenes, dir);
  Scale(references, candidates, dir);
  fs::remove_all(dir);
  return 0;
}
