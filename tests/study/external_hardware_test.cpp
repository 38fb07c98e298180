// Issue 17, external entries in the hardware view: an external run log's header declares flops_per_sample (and
// bytes, device, peak...), evalsuite measures its throughput from the log's evaluations and gives it the built-in
// entries' figures. Every expected number is computed by hand in the comments.
#include "study/hardware/external_hardware.h"

#include <gtest/gtest.h>

#include "runlog/jsonl_run_log.h"
#include "study/study_summary.h"
#include "tests/support/test_support.h"

namespace evalsuite::study {
namespace {

using evalsuite::testing::TempDir;
using nlohmann::json;

// A run whose last evaluation is at `epoch` after `train_seconds` of training (evaluation excluded).
store::RunRecord MakeExternalRun(int index, const json& header, double epoch, double train_seconds) {
  store::RunRecord run;
  run.entry = "ext";
  run.run_index = index;
  run.log.header = header;
  run.log.status = analysis::EndedAs::kReached;
  run.log.points.push_back({epoch / 2, train_seconds / 2, train_seconds / 2 + 5, 0.5, std::nullopt});
  run.log.points.push_back({epoch, train_seconds, train_seconds + 10, 0.95, std::nullopt});
  run.log.train_seconds = train_seconds;
  run.log.wall_seconds = train_seconds + 10;
  return run;
}

json A100Header() {
  return {{"entry", "ext"},
          {"flops_per_sample", 6e9},
          {"bytes_per_sample", 2e8},
          {"samples_per_epoch", 50000},
          {"device", "NVIDIA A100-SXM4-80GB"},
          {"precision", "bf16"},
          {"hyperparameters", {{"batch_size", 256}}}};
}

TEST(ExternalHardwareTest, ThroughputFlopsMfuAndIntensityFromTheDeviceTable) {
  // Run 0: 4 epochs x 50,000 = 200,000 samples in 100 s = 2,000/s; run 1: 200,000 in 125 s = 1,600/s;
  // run 2: 3 x 50,000 = 150,000 in 75 s = 2,000/s. Median 2,000 samples/s.
  const std::vector<store::RunRecord> runs = {MakeExternalRun(0, A100Header(), 4, 100),
                                              MakeExternalRun(1, A100Header(), 4, 125),
                                              MakeExternalRun(2, A100Header(), 3, 75)};
  const std::optional<json> e = ExternalHardwareEntry("ext", runs);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ((*e)["source"], "external");
  EXPECT_DOUBLE_EQ((*e)["samples_per_second"].get<double>(), 2000.0);
  // 2,000 samples/s x 6e9 FLOP = 1.2e13 FLOP/s; the A100's dense bf16 peak is 312e12: MFU 12 / 312 = 0.0384615...
  EXPECT_DOUBLE_EQ((*e)["achieved_flops"].get<double>(), 1.2e13);
  EXPECT_DOUBLE_EQ((*e)["peak_flops"].get<double>(), 312e12);
  EXPECT_NEAR((*e)["mfu"].get<double>(), 12.0 / 312.0, 1e-12);
  EXPECT_NE((*e)["peak_source"].get<std::string>().find("table: NVIDIA A100 datasheet"), std::string::npos);
  // Intensity 6e9 / 2e8 = 30 FLOP/byte; the SXM4 80GB's 2,039 GB/s put the ridge at 312e12 / 2.039e12 = 153, so
  // the roof allows 2.039e12 x 30 = 6.117e13 and 1.2e13 is 19.6% (printed 20%) of it: under half, overhead-bound.
  EXPECT_DOUBLE_EQ((*e)["intensity"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ((*e)["peak_bandwidth"].get<double>(), 2039e9);
  EXPECT_EQ((*e)["bound"], "overhead-bound");
  EXPECT_NE((*e)["evidence"].get<std::string>().find(
                "ridge (153.0), so the roofline allows 61170.00 GFLOP/s; it achieves 12000.00 GFLOP/s, 20% of that"),
            std::string::npos)
      << (*e)["evidence"];
  EXPECT_EQ((*e)["batch_size"], 256);
  ASSERT_EQ((*e)["runs"].size(), 3u);
  EXPECT_DOUBLE_EQ((*e)["runs"][1]["samples_per_second"].get<double>(), 1600.0);
  EXPECT_NEAR((*e)["runs"][1]["mfu"].get<double>(), 1600 * 6e9 / 312e12, 1e-12);
}

TEST(ExternalHardwareTest, DeclaredPeakWinsAndCountsEveryDevice) {
  json header = A100Header();
  header["peak_flops"] = 1e14;
  header["peak_bandwidth"] = 1e12;
  header["device_count"] = 2;
  const std::optional<json> e = ExternalHardwareEntry("ext", {MakeExternalRun(0, header, 4, 100)});
  ASSERT_TRUE(e.has_value());
  // Peak 2 x 1e14 = 2e14: MFU 1.2e13 / 2e14 = 0.06. Bandwidth 2e12: ridge 100, intensity 30 left of it; the roof
  // allows 2e12 x 30 = 6e13, 1.2e13 is 20% of it.
  EXPECT_DOUBLE_EQ((*e)["peak_flops"].get<double>(), 2e14);
  EXPECT_NEAR((*e)["mfu"].get<double>(), 0.06, 1e-12);
  EXPECT_EQ((*e)["peak_source"], "declared by the log x 2 devices");
  EXPECT_NE((*e)["evidence"].get<std::string>().find("20%"), std::string::npos) << (*e)["evidence"];
}

TEST(ExternalHardwareTest, WithoutAPeakOrSamplesItSaysWhat) {
  json header = A100Header();
  header["device"] = "Graphcore IPU";
  const std::optional<json> e = ExternalHardwareEntry("ext", {MakeExternalRun(0, header, 4, 100)});
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ((*e)["achieved_flops"].get<double>(), 1.2e13);  // FLOP/s need no peak
  EXPECT_TRUE((*e)["mfu"].is_null());
  EXPECT_TRUE((*e)["peak_flops"].is_null());
  EXPECT_NE((*e)["peak_source"].get<std::string>().find("no peak"), std::string::npos);
  EXPECT_EQ((*e)["bound"], "unknown");

  header = A100Header();
  header.erase("samples_per_epoch");
  const std::optional<json> no_samples = ExternalHardwareEntry("ext", {MakeExternalRun(0, header, 4, 100)});
  ASSERT_TRUE(no_samples.has_value());
  EXPECT_TRUE((*no_samples)["samples_per_second"].is_null());
  EXPECT_NE((*no_samples)["evidence"].get<std::string>().find("samples_per_epoch"), std::string::npos);

  header = A100Header();
  header.erase("flops_per_sample");  // nothing declared: no hardware row at all
  EXPECT_FALSE(ExternalHardwareEntry("ext", {MakeExternalRun(0, header, 4, 100)}).has_value());
}

TEST(ExternalHardwareTest, AnAbsurdPeakIsIgnoredAndAPeakBelowTheAchievedIsFlagged) {
  json header = A100Header();
  header["peak_flops"] = -5;  // ignored: the table's 312e12 applies
  std::optional<json> e = ExternalHardwareEntry("ext", {MakeExternalRun(0, header, 4, 100)});
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ((*e)["peak_flops"].get<double>(), 312e12);
  header["peak_flops"] = 1e12;  // below the 1.2e13 achieved: MFU 12, said to be wrong
  e = ExternalHardwareEntry("ext", {MakeExternalRun(0, header, 4, 100)});
  EXPECT_NEAR((*e)["mfu"].get<double>(), 12.0, 1e-12);
  EXPECT_NE((*e)["evidence"].get<std::string>().find("exceed the peak"), std::string::npos);
}

TEST(ExternalHardwareTest, ExtremeProgressGivesNoFigureRatherThanInfinity) {
  // 1e300 epochs x 50,000 samples overflow double: the run has no throughput, the entry says so.
  const std::optional<json> e = ExternalHardwareEntry("ext", {MakeExternalRun(0, A100Header(), 1e300, 1e-300)});
  ASSERT_TRUE(e.has_value());
  EXPECT_TRUE((*e)["samples_per_second"].is_null());
  EXPECT_TRUE((*e)["runs"].empty());
}

// Through the store and the report input, as `evalsuite report` builds it: the entry lands in the hardware section.
TEST(ExternalHardwareTest, TheReportInputCarriesTheEntry) {
  TempDir dir;
  auto store = store::RunStore::Open(dir / "s.db");
  const int64_t id = store->CreateStudy("s", "study", {}, {});
  store::EntryRecord entry;
  entry.name = "ext";
  entry.threshold = 0.9;
  store->UpsertEntry(id, entry);
  store->InsertRun(id, MakeExternalRun(0, A100Header(), 4, 100));
  store::EntryRecord other;
  other.name = "plain";
  other.threshold = 0.9;
  store->UpsertEntry(id, other);
  store::RunRecord plain = MakeExternalRun(0, {{"entry", "plain"}}, 4, 100);
  plain.entry = "plain";
  store->InsertRun(id, plain);
  const reports::StabilityReportInput input = BuildReportInput(*store, {*store->FindStudy("s")});
  ASSERT_TRUE(input.extra_sections.contains("hardware"));
  const json& entries = input.extra_sections["hardware"]["entries"];
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0]["entry"], "ext");
  EXPECT_DOUBLE_EQ(entries[0]["samples_per_second"].get<double>(), 2000.0);
}

}  // namespace
}  // namespace evalsuite::study
