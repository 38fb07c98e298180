// Candidates from the user's own folder: real JPEG and PNG files written by OpenCV, class folders by wnid and
// by name, what is refused (HTML saved as .jpg, a byte-identical copy) listed with its reason.
#include "datasets/images/folder_candidates.h"

#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "common/error.h"
#include "common/sha256.h"
#include "tests/support/test_support.h"

namespace evalsuite::datasets {
namespace {

namespace fs = std::filesystem;
using evalsuite::testing::TempDir;
using evalsuite::testing::WriteFile;

void WriteImage(const fs::path& file, int shade) {
  fs::create_directories(file.parent_path());
  cv::Mat image(48, 64, CV_8UC3, cv::Scalar(shade, 255 - shade, 90));
  cv::circle(image, {20, 20}, 10, cv::Scalar(0, 0, 0), -1);
  ASSERT_TRUE(cv::imwrite(file.string(), image));
}

std::vector<CandidateClass> Classes() {
  return {{0, "n01440764", {"tench", "Tinca tinca"}, "a fish"}, {217, "n02102040", {"English springer"}, "a dog"}};
}

TEST(FolderCandidatesTest, CopiesImagesByClassAndListsWhatItRefuses) {
  TempDir dir;
  WriteImage(dir / "photos" / "n01440764" / "b.jpg", 10);
  WriteImage(dir / "photos" / "n01440764" / "a.png", 60);
  fs::copy_file(dir / "photos" / "n01440764" / "b.jpg", dir / "photos" / "n01440764" / "c.jpg");
  WriteImage(dir / "photos" / "English springer" / "dog.jpeg", 200);
  WriteFile(dir / "photos" / "English springer" / "error.jpg", "<!doctype html><html>rate limited</html>");
  WriteFile(dir / "photos" / "n01440764" / "notes.txt", "not an image");

  const FolderCandidates result = CandidatesFromFolder(dir / "photos", Classes(), dir / "out");
  EXPECT_EQ(result.copied, 3u);
  EXPECT_EQ(result.rejected, 2u);
  const CandidateManifest manifest = ReadCandidateManifest(dir / "out");
  ASSERT_EQ(manifest.items.size(), 3u);
  EXPECT_EQ(manifest.classes.size(), 2u);
  EXPECT_EQ(manifest.classes.at("n02102040").synonyms.front(), "English springer");
  // Class folders in name order, files in name order: rank follows.
  EXPECT_EQ(manifest.items[0].wnid, "n01440764");
  EXPECT_EQ(manifest.items[0].url, "n01440764/a.png");
  EXPECT_EQ(manifest.items[0].rank, 1);
  EXPECT_EQ(manifest.items[1].url, "n01440764/b.jpg");
  EXPECT_EQ(manifest.items[2].class_index, 217);
  for (const Candidate& item : manifest.items) {
    EXPECT_EQ(Sha256FileHex(dir / "out" / item.path), item.sha256) << item.path;
    EXPECT_EQ(item.width, 64);
    EXPECT_EQ(item.height, 48);
  }
  ASSERT_EQ(manifest.rejected.size(), 2u);
  EXPECT_NE(manifest.rejected.dump().find("the same bytes as n01440764/b.jpg"), std::string::npos)
      << manifest.rejected.dump();
  EXPECT_NE(manifest.rejected.dump().find("English springer/error.jpg"), std::string::npos);
  // The source is untouched; a second run into the same folder is refused.
  EXPECT_TRUE(fs::exists(dir / "photos" / "n01440764" / "c.jpg"));
  EXPECT_THROW(CandidatesFromFolder(dir / "photos", Classes(), dir / "out"), Error);
}

TEST(FolderCandidatesTest, AFolderNamingNoClassIsRefusedByName) {
  TempDir dir;
  WriteImage(dir / "photos" / "cats" / "x.jpg", 5);
  try {
    CandidatesFromFolder(dir / "photos", Classes(), dir / "out");
    ADD_FAILURE() << "an unknown class folder was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cats"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace evalsuite::datasets
