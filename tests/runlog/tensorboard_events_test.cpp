// TensorBoard event files against an independent writer (tests/runlog/tensorboard_writer.py: TFRecord framing with a
// bitwise CRC-32C and the Event/Summary/TensorProto wire format written by hand), PyTorch's simple_value style and
// TF2's tensor style, a file cut in the middle of a record and one with a corrupt record; CRC-32C against the
// published check values.
#include "runlog/tensorboard_events.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "runlog/tfrecord.h"
#include "tests/support/test_support.h"

namespace evalsuite::runlog {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct TensorboardWritten {
  testing::TempDir dir;
  json truth;
};

const TensorboardWritten& TensorboardFilesWritten() {
  static TensorboardWritten* written = [] {
    auto* w = new TensorboardWritten;
    const testing::CommandResult r = testing::RunCommand(
        {"python3", (testing::SourceDir() / "tests/runlog/tensorboard_writer.py").string(), w->dir.path().string()});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    w->truth = json::parse(r.out);
    return w;
  }();
  return *written;
}

// Every scalar of `truth` is in `run`, in order, with its seconds, step and value (the writer rounds floats to f32).
void ExpectScalarsAsWritten(const FrameworkRun& run, const json& truth) {
  ASSERT_EQ(run.series.size(), truth.size());
  for (auto it = truth.begin(); it != truth.end(); ++it) {
    ASSERT_TRUE(run.series.count(it.key())) << it.key();
    const std::vector<SeriesPoint>& points = run.series.at(it.key());
    ASSERT_EQ(points.size(), it.value().size()) << it.key();
    for (std::size_t i = 0; i < points.size(); ++i) {
      EXPECT_DOUBLE_EQ(points[i].progress, it.value()[i][0].get<double>()) << it.key() << " " << i;
      EXPECT_DOUBLE_EQ(points[i].epoch, it.value()[i][1].get<double>()) << it.key() << " " << i;
      EXPECT_DOUBLE_EQ(points[i].value, it.value()[i][2].get<double>()) << it.key() << " " << i;
    }
  }
}

TEST(Crc32cTest, PublishedCheckValues) {
  // RFC 3720 B.4 and TensorFlow's crc32c_test: "123456789", 32 zero bytes, 32 0xff bytes.
  EXPECT_EQ(Crc32c("123456789"), 0xe3069283u);
  EXPECT_EQ(Crc32c(std::string(32, '\0')), 0x8a9136aau);
  EXPECT_EQ(Crc32c(std::string(32, '\xff')), 0x62a8ab43u);
}

TEST(TensorboardEventsTest, PytorchSimpleValuesAreReadWithTheirWallTimeAndStep) {
  const TensorboardWritten& w = TensorboardFilesWritten();
  const FrameworkRun run = ReadTensorboardEvents(w.dir / "pytorch/events.out.tfevents.1.host");
  EXPECT_EQ(run.basis, TimeBasis::kSeconds);
  EXPECT_TRUE(run.warnings.empty());
  EXPECT_EQ(run.facts.value("file_version", ""), "brain.Event:2");
  ExpectScalarsAsWritten(run, w.truth["pytorch/events.out.tfevents.1.host"]["scalars"]);
  EXPECT_DOUBLE_EQ(run.progress_spent, 76.5);
}

TEST(TensorboardEventsTest, Tf2ScalarTensorsAreReadAndHistogramsAndImagesLeftOut) {
  const TensorboardWritten& w = TensorboardFilesWritten();
  const FrameworkRun run = ReadTensorboardEvents(w.dir / "tf2/events.out.tfevents.2.host");
  ExpectScalarsAsWritten(run, w.truth["tf2/events.out.tfevents.2.host"]["scalars"]);
  EXPECT_FALSE(run.series.count("weights"));
  EXPECT_FALSE(run.series.count("picture"));
}

TEST(TensorboardEventsTest, AFileCutInARecordKeepsItsCompleteRecordsWithAWarning) {
  const TensorboardWritten& w = TensorboardFilesWritten();
  const fs::path file = w.dir / "cut/events.out.tfevents.3.host";
  const FrameworkRun run = ReadTensorboardEvents(file);
  ExpectScalarsAsWritten(run, w.truth["cut/events.out.tfevents.3.host"]["scalars"]);
  ASSERT_EQ(run.warnings.size(), 1u);
  const std::string records = std::to_string(w.truth["cut/events.out.tfevents.3.host"]["records"].get<int>());
  EXPECT_NE(run.warnings[0].find(file.string() + ": record " + std::to_string(std::stoi(records) + 1)),
            std::string::npos)
      << run.warnings[0];
  EXPECT_NE(run.warnings[0].find("cut short"), std::string::npos) << run.warnings[0];
  EXPECT_NE(run.warnings[0].find("the " + records + " complete record(s) before it are kept"), std::string::npos)
      << run.warnings[0];
}

TEST(TensorboardEventsTest, EveryCutOfTheFileKeepsExactlyTheRecordsBeforeIt) {
  const TensorboardWritten& w = TensorboardFilesWritten();
  const std::string bytes = testing::ReadFile(w.dir / "pytorch/events.out.tfevents.1.host");
  const TfRecordSplit whole = SplitTfRecords(bytes, "whole");
  ASSERT_EQ(whole.records.size(), w.truth["pytorch/events.out.tfevents.1.host"]["records"].get<std::size_t>());
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    const TfRecordSplit split = SplitTfRecords(std::string_view(bytes).substr(0, cut), "cut");
    std::size_t complete = 0;
    for (const TfRecord& r : whole.records) complete += r.offset + 16 + r.data.size() <= cut;
    EXPECT_EQ(split.records.size(), complete) << "cut at " << cut;
    EXPECT_EQ(split.truncated.empty(),
              complete == 0 ? cut == 0
                            : whole.records[complete - 1].offset + 16 + whole.records[complete - 1].data.size() == cut)
        << "cut at " << cut;
  }
}

TEST(TensorboardEventsTest, ACorruptRecordIsAnErrorNamingTheFileRecordAndByte) {
  const TensorboardWritten& w = TensorboardFilesWritten();
  const fs::path file = w.dir / "corrupt/events.out.tfevents.4.host";
  const json& truth = w.truth["corrupt/events.out.tfevents.4.host"];
  try {
    ReadTensorboardEvents(file);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInput);
    const std::string expected = file.string() + ": record " + std::to_string(truth["corrupt_record"].get<int>()) +
                                 " at byte " + std::to_string(truth["corrupt_byte"].get<int>());
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
  }
}

TEST(TensorboardEventsTest, NotAnEventFileIsAnErrorNotACrash) {
  testing::TempDir dir;
  const fs::path file = dir / "events.out.tfevents.9.host";
  testing::WriteFile(file, "epoch,accuracy\n0,0.5\n1,0.6\n2,0.7\n");
  EXPECT_THROW(ReadTensorboardEvents(file), Error);
}

}  // namespace
}  // namespace evalsuite::runlog
