// An external run log's hardware declarations (runlog/declared_hardware.h): bad values are ignored with
// a warning naming the file, line and field, the rest of the header is kept, nothing crashes; Python's NaN and
// Infinity (not JSON) in a header no longer cost the whole header.
#include "runlog/declared_hardware.h"

#include <gtest/gtest.h>

#include "runlog/jsonl_run_log.h"
#include "tests/runlog/warning_match.h"

namespace evalsuite::runlog {
namespace {

std::string Joined(const RunLog& run) {
  std::string out;
  for (const std::string& w : run.warnings) out += w + "\n";
  return out;
}

TEST(DeclaredHardwareTest, GoodDeclarationsAreReadWithoutWarnings) {
  const RunLog run = ParseJsonlRunLog(
      "{\"type\":\"header\",\"entry\":\"e\",\"flops_per_sample\":6e9,\"bytes_per_sample\":2e8,"
      "\"samples_per_epoch\":50000,\"device\":\"NVIDIA A100-SXM4-80GB\",\"precision\":\"bf16\",\"device_count\":8,"
      "\"peak_flops\":312e12,\"peak_bandwidth\":2.039e12}\n",
      "log.jsonl");
  EXPECT_TRUE(run.warnings.empty()) << Joined(run);
  const DeclaredHardware d = ReadDeclaredHardware(run.header, "", nullptr);
  EXPECT_DOUBLE_EQ(*d.flops_per_sample, 6e9);
  EXPECT_DOUBLE_EQ(*d.bytes_per_sample, 2e8);
  EXPECT_DOUBLE_EQ(*d.samples_per_epoch, 50000);
  EXPECT_DOUBLE_EQ(*d.peak_flops, 312e12);
  EXPECT_EQ(d.device_count, 8);
  EXPECT_EQ(d.precision, "bf16");
}

TEST(DeclaredHardwareTest, BadValuesAreWarnedWithFileLineAndField) {
  const RunLog run = ParseJsonlRunLog(
      "\n{\"type\":\"header\",\"entry\":\"e\",\"threshold\":0.9,\"flops_per_sample\":-6e9,\"bytes_per_sample\":"
      "\"lots\","
      "\"samples_per_epoch\":0,\"peak_flops\":1e30,\"precision\":\"fp64\",\"device_count\":2.5,\"device\":7}\n"
      "{\"type\":\"eval\",\"epoch\":1,\"train_seconds\":2,\"metric\":0.95}\n",
      "ext/log.jsonl");
  EXPECT_TRUE(HasWarning(run,
                         "ext/log.jsonl:2: header field \"flops_per_sample\" must be a finite number above 0, got "
                         "-6000000000.0; ignored"))
      << Joined(run);
  EXPECT_TRUE(HasWarning(run, "ext/log.jsonl:2: header field \"bytes_per_sample\" must be a number")) << Joined(run);
  EXPECT_TRUE(HasWarning(run, "header field \"samples_per_epoch\" must be a finite number above 0")) << Joined(run);
  EXPECT_TRUE(HasWarning(run, "header field \"peak_flops\" 1e+30 is beyond any real value")) << Joined(run);
  EXPECT_TRUE(HasWarning(run, "header field \"precision\" must be fp32, tf32, bf16, fp16 or fp8")) << Joined(run);
  EXPECT_TRUE(HasWarning(run, "header field \"device_count\" must be a whole number")) << Joined(run);
  EXPECT_TRUE(HasWarning(run, "header field \"device\" must be a non-empty string")) << Joined(run);
  // The rest of the log is intact.
  EXPECT_EQ(run.header.value("entry", ""), "e");
  EXPECT_EQ(run.points.size(), 1u);
  const DeclaredHardware d = ReadDeclaredHardware(run.header, "", nullptr);
  EXPECT_FALSE(d.Declared());
  EXPECT_FALSE(d.peak_flops.has_value());
  EXPECT_EQ(d.device_count, 1);
}

TEST(DeclaredHardwareTest, PythonNanAndInfinityInAHeaderNameTheirFieldAndKeepTheRest) {
  // json.dumps({"flops_per_sample": float("nan"), ...}) writes NaN and Infinity, which JSON does not have.
  const RunLog run = ParseJsonlRunLog(
      "{\"type\": \"header\", \"entry\": \"py\", \"note\": \"NaN inside a string stays\", \"flops_per_sample\": NaN, "
      "\"peak_flops\": Infinity, \"hyperparameters\": {\"lr\": -Infinity, \"batch_size\": 64}, \"threshold\": 0.9}\n"
      "{\"type\": \"eval\", \"epoch\": 1, \"train_seconds\": 2, \"metric\": NaN}\n",
      "py.jsonl");
  EXPECT_TRUE(HasWarning(run, "py.jsonl:1: header field \"flops_per_sample\" is NaN, not a JSON number; ignored"))
      << Joined(run);
  EXPECT_TRUE(HasWarning(run, "py.jsonl:1: header field \"peak_flops\" is Infinity")) << Joined(run);
  EXPECT_TRUE(HasWarning(run, "header field \"hyperparameters.lr\" is -Infinity")) << Joined(run);
  EXPECT_EQ(run.header.value("entry", ""), "py");
  EXPECT_EQ(run.header.value("note", ""), "NaN inside a string stays");
  EXPECT_FALSE(run.header.contains("flops_per_sample"));
  EXPECT_TRUE(run.header["hyperparameters"]["lr"].is_null());
  EXPECT_EQ(run.header["hyperparameters"]["batch_size"], 64);
  // An eval record with NaN is still skipped as before, with the parser's reason.
  EXPECT_TRUE(run.points.empty());
  EXPECT_TRUE(HasWarning(run, "py.jsonl:2:")) << Joined(run);
}

}  // namespace
}  // namespace evalsuite::runlog
