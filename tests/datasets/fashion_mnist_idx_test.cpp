// The IDX reader and the Fashion-MNIST loader on good and corrupt fixtures written here.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>

#include "common/error.h"
#include "datasets/fashion_mnist/fashion_mnist.h"
#include "datasets/fashion_mnist/idx_file.h"
#include "tests/datasets/fashion_mnist_fixtures.h"
#include "tests/support/test_support.h"

namespace evalsuite::testing {
namespace {

using datasets::IdxArray;
using ::testing::AllOf;
using ::testing::HasSubstr;

// Runs `read` and returns the evalsuite::Error it throws (fails the test when it throws nothing).
template <typename Fn>
Error CaptureError(Fn&& read) {
  try {
    read();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an evalsuite::Error";
  return Error(ErrorKind::kInternal, "", "no error");
}

TEST(IdxFile, ReadsPlainAndGzippedFilesAlike) {
  TempDir dir;
  const IdxArray images = MakeImages(5);
  WriteFile(dir / "plain", datasets::EncodeIdx(images));
  WriteFile(dir / "packed.gz", Gzip(datasets::EncodeIdx(images)));
  for (const char* name : {"plain", "packed.gz"}) {
    const IdxArray read = datasets::ReadIdxFile(dir / name, 3);
    EXPECT_EQ(read.dims, (std::vector<uint32_t>{5, 28, 28})) << name;
    EXPECT_EQ(read.data, images.data) << name;
  }
}

TEST(IdxFile, BadMagicNumberIsAnInputErrorNamingTheFile) {
  TempDir dir;
  std::string bytes = datasets::EncodeIdx(MakeImages(2));
  bytes[0] = 0x1f;  // not the two zero bytes IDX starts with
  WriteFile(dir / "images", bytes);
  const Error e = CaptureError([&] { datasets::ReadIdxFile(dir / "images", 3); });
  EXPECT_EQ(e.kind(), ErrorKind::kInput);
  EXPECT_EQ(e.where(), (dir / "images").string());
  EXPECT_THAT(e.message(), HasSubstr("bad magic number"));
}

TEST(IdxFile, WrongRankOrTypeIsRejected) {
  TempDir dir;
  WriteFile(dir / "labels", datasets::EncodeIdx(MakeLabels(10)));
  const Error rank = CaptureError([&] { datasets::ReadIdxFile(dir / "labels", 3); });
  EXPECT_THAT(rank.message(), AllOf(HasSubstr("rank 1"), HasSubstr("expected 3")));

  std::string bytes = datasets::EncodeIdx(MakeLabels(10));
  bytes[2] = 0x0d;  // IDX float
  WriteFile(dir / "floats", bytes);
  const Error type = CaptureError([&] { datasets::ReadIdxFile(dir / "floats", 1); });
  EXPECT_THAT(type.message(), HasSubstr("0x0d"));
}

TEST(IdxFile, TruncatedPlainFileSaysHowMuchIsThere) {
  TempDir dir;
  const std::string bytes = datasets::EncodeIdx(MakeImages(4));
  WriteFile(dir / "images", bytes.substr(0, 16 + 2 * 784 + 100));
  const Error e = CaptureError([&] { datasets::ReadIdxFile(dir / "images", 3); });
  EXPECT_EQ(e.kind(), ErrorKind::kInput);
  EXPECT_EQ(e.where(), (dir / "images").string());
  EXPECT_THAT(e.message(), AllOf(HasSubstr("truncated"), HasSubstr("4 items"), HasSubstr("2 complete items")));

  WriteFile(dir / "header", bytes.substr(0, 9));
  EXPECT_THAT(CaptureError([&] { datasets::ReadIdxFile(dir / "header", 3); }).message(),
              HasSubstr("inside the IDX header"));
}

// A 16-byte header declaring 3.9 GB of images: refused from the file's size before any of it is allocated
// (the reader used to hold the whole declared size for seconds before its error, or be OOM-killed).
TEST(IdxFile, AHeaderDeclaringGigabytesIsRefusedWithoutAllocatingThem) {
  TempDir dir;
  IdxArray huge;
  huge.dims = {60000, 256, 256};
  std::string header = datasets::EncodeIdx(huge);
  WriteFile(dir / "images", header + std::string(100, '\0'));
  WriteFile(dir / "images.gz", Gzip(header + std::string(1000, '\0')));
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const Error plain = CaptureError([&] { datasets::ReadIdxFile(dir / "images", 3); });
  EXPECT_THAT(plain.message(), AllOf(HasSubstr("truncated"), HasSubstr("60000 items"), HasSubstr("holds 100 bytes")));
  const Error packed = CaptureError([&] { datasets::ReadIdxFile(dir / "images.gz", 3); });
  EXPECT_THAT(packed.message(), HasSubstr("truncated"));
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 200 * 1024)
      << "peak RSS grew by " << after.ru_maxrss - before.ru_maxrss << " KiB";
}

TEST(IdxFile, TruncatedGzipFileIsAnInputError) {
  TempDir dir;
  const std::string packed = Gzip(datasets::EncodeIdx(MakeImages(20)));
  WriteFile(dir / "images.gz", packed.substr(0, packed.size() / 2));
  const Error e = CaptureError([&] { datasets::ReadIdxFile(dir / "images.gz", 3); });
  EXPECT_EQ(e.kind(), ErrorKind::kInput);
  EXPECT_EQ(e.where(), (dir / "images.gz").string());
  EXPECT_THAT(e.message(), ::testing::AnyOf(HasSubstr("truncated"), HasSubstr("corrupt compressed data")));
}

TEST(IdxFile, TrailingBytesAndZeroDimensionsAreRejected) {
  TempDir dir;
  WriteFile(dir / "long", datasets::EncodeIdx(MakeLabels(10)) + "xx");
  EXPECT_THAT(CaptureError([&] { datasets::ReadIdxFile(dir / "long", 1); }).message(), HasSubstr("trailing bytes"));
  IdxArray empty;
  empty.dims = {0};
  WriteFile(dir / "empty", datasets::EncodeIdx(empty));
  EXPECT_THAT(CaptureError([&] { datasets::ReadIdxFile(dir / "empty", 1); }).message(), HasSubstr("zero"));
}

TEST(IdxFile, MissingFileIsAnIoError) {
  TempDir dir;
  const Error e = CaptureError([&] { datasets::ReadIdxFile(dir / "absent", 1); });
  EXPECT_EQ(e.kind(), ErrorKind::kIo);
  EXPECT_EQ(e.where(), (dir / "absent").string());
}

TEST(FashionMnistLoader, LoadsGzippedAndPlainFixturesIntoSplits) {
  for (bool gzipped : {true, false}) {
    TempDir dir;
    WriteFashionMnistFixture(dir.path(), MakeImages(30), MakeLabels(30), MakeImages(40), MakeLabels(40), gzipped);
    const datasets::FashionMnist data = datasets::LoadFashionMnist(dir.path());
    EXPECT_EQ(data.train.size(), 30u);
    EXPECT_EQ(data.train.pixels, MakeImages(30).data);
    ASSERT_EQ(data.validation.size(), 20u);
    ASSERT_EQ(data.holdout.size(), 20u);
    // Each split image is the test image it says it is.
    const IdxArray test_images = MakeImages(40);
    for (size_t i = 0; i < data.validation.size(); ++i) {
      const uint32_t source = data.validation.source_indices[i];
      EXPECT_EQ(data.validation.labels[i], source % 10);
      EXPECT_TRUE(std::equal(data.validation.image(i), data.validation.image(i) + 784,
                             test_images.data.begin() + source * 784));
    }
  }
}

TEST(FashionMnistLoader, LabelOutOfRangeNamesTheFileAndItem) {
  TempDir dir;
  IdxArray labels = MakeLabels(40);
  labels.data[17] = 12;
  WriteFashionMnistFixture(dir.path(), MakeImages(30), MakeLabels(30), MakeImages(40), labels, true);
  const Error e = CaptureError([&] { datasets::LoadFashionMnist(dir.path()); });
  EXPECT_EQ(e.kind(), ErrorKind::kInput);
  EXPECT_EQ(e.where(), (dir / "t10k-labels-idx1-ubyte.gz").string());
  EXPECT_THAT(e.message(), AllOf(HasSubstr("label 12"), HasSubstr("item 17"), HasSubstr("out of range")));
}

TEST(FashionMnistLoader, CountMismatchAndWrongSizeAreRejected) {
  TempDir dir;
  WriteFashionMnistFixture(dir.path(), MakeImages(30), MakeLabels(29), MakeImages(40), MakeLabels(40), false);
  EXPECT_THAT(CaptureError([&] { datasets::LoadFashionMnist(dir.path()); }).message(),
              AllOf(HasSubstr("29 labels"), HasSubstr("30 images")));
  TempDir small;
  WriteFashionMnistFixture(small.path(), MakeImages(30, 14), MakeLabels(30), MakeImages(40), MakeLabels(40), false);
  EXPECT_THAT(CaptureError([&] { datasets::LoadFashionMnist(small.path()); }).message(),
              HasSubstr("14x14, expected 28x28"));
}

TEST(FashionMnistLoader, MissingFolderOrFileNamesWhatIsMissing) {
  TempDir dir;
  const Error folder = CaptureError([&] { datasets::LoadFashionMnist(dir / "nowhere"); });
  EXPECT_EQ(folder.kind(), ErrorKind::kIo);
  EXPECT_THAT(folder.message(), HasSubstr("--data"));
  const Error file = CaptureError([&] { datasets::LoadFashionMnist(dir.path()); });
  EXPECT_EQ(file.kind(), ErrorKind::kIo);
  EXPECT_THAT(file.message(), AllOf(HasSubstr("train-images-idx3-ubyte"), HasSubstr(".gz")));
}

}  // namespace
}  // namespace evalsuite::testing
