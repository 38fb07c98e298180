// The precision decision, apart from any probing: measured ceilings in, fp32 or bf16 out with the reason; a forced
// precision is obeyed; no measurement means fp32. The machines are the three the issue names, by their measured
// figures: Intel Cascade Lake (no avx512_bf16, no AMX: oneDNN converts bf16 in software), Intel Sapphire Rapids
// (AMX tiles) and AMD EPYC Zen 4 (avx512_bf16).
#include "evalsuite/entries/precision_choice.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"
#include "evalsuite/study/plans/ceilings_record.h"
#include "tests/support/test_support.h"

namespace evalsuite::entries {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

json Machine(double conv_fp32_gflops, double conv_bf16_gflops) {
  return {{"peak_fp32_flops", conv_fp32_gflops * 1e9},
          {"peak_bf16_flops", conv_bf16_gflops * 1e9},
          {"probes",
           {{{"name", "conv_fp32"}, {"precision", "fp32"}, {"best", conv_fp32_gflops * 1e9}},
            {{"name", "conv_bf16"}, {"precision", "bf16"}, {"best", conv_bf16_gflops * 1e9}}}}};
}

TEST(PrecisionChoiceTest, CeilingSaysBf16IsSlowerSoTheBf16RecipeTrainsInFp32) {
  // The Cascade Lake VM: bf16 28.4 GFLOP/s against 117.5 for fp32.
  const PrecisionChoice c = ChoosePrecision("bf16", kPrecisionAuto, Machine(117.5, 28.4));
  EXPECT_EQ(c.precision, "fp32");
  EXPECT_EQ(c.decided_by, "measured ceilings");
  EXPECT_NEAR(c.bf16_over_fp32, 28.4 / 117.5, 1e-12);
  EXPECT_THAT(c.reason, HasSubstr("28.4 GFLOP/s"));
  EXPECT_THAT(c.reason, HasSubstr("117.5 GFLOP/s"));
  EXPECT_THAT(c.reason, HasSubstr("fp32 instead of the recipe's bf16"));
  const json record = PrecisionChoiceToJson(c);
  EXPECT_EQ(record["precision"], "fp32");
  EXPECT_EQ(record["recipe"], "bf16");
  EXPECT_EQ(record["requested"], "auto");
}

TEST(PrecisionChoiceTest, NativeBf16ThatIsClearlyFasterIsUsed) {
  // Sapphire Rapids with AMX (bf16 several times fp32) and a Zen 4 EPYC with avx512_bf16 (about 1.7x).
  EXPECT_EQ(ChoosePrecision("bf16", kPrecisionAuto, Machine(150, 600)).precision, "bf16");
  const PrecisionChoice zen4 = ChoosePrecision("bf16", kPrecisionAuto, Machine(100, 170));
  EXPECT_EQ(zen4.precision, "bf16");
  EXPECT_THAT(zen4.reason, HasSubstr("1.70x"));
  // Faster, but not by enough to pay for autocast's casts: fp32.
  EXPECT_EQ(ChoosePrecision("bf16", kPrecisionAuto, Machine(100, 110)).precision, "fp32");
  EXPECT_EQ(ChoosePrecision("bf16", kPrecisionAuto, Machine(100, 100 * kMinBf16Speedup * 1.001)).precision, "bf16");
}

TEST(PrecisionChoiceTest, ForcedPrecisionIsObeyedEitherWay) {
  const PrecisionChoice fp32 = ChoosePrecision("bf16", "fp32", Machine(100, 400));
  EXPECT_EQ(fp32.precision, "fp32");
  EXPECT_EQ(fp32.decided_by, "forced");
  EXPECT_THAT(fp32.reason, HasSubstr("forced"));
  const PrecisionChoice bf16 = ChoosePrecision("bf16", "bf16", Machine(117.5, 28.4));
  EXPECT_EQ(bf16.precision, "bf16");
  EXPECT_EQ(bf16.decided_by, "forced");
  EXPECT_EQ(ChoosePrecision("fp32", "bf16", nullptr).precision, "bf16");  // an fp32 recipe can be forced too
}

TEST(PrecisionChoiceTest, WithoutMeasuredCeilingsTheBf16RecipeTrainsInFp32AndSaysWhy) {
  const PrecisionChoice c = ChoosePrecision("bf16", kPrecisionAuto, nullptr);
  EXPECT_EQ(c.precision, "fp32");
  EXPECT_EQ(c.decided_by, "no ceilings");
  EXPECT_THAT(c.reason, HasSubstr("no bf16/fp32 ceilings were measured"));
  // Peaks without the convolution probes (an older `evalsuite machine --json` file) are used instead.
  const PrecisionChoice peaks =
      ChoosePrecision("bf16", kPrecisionAuto, json{{"peak_fp32_flops", 1e11}, {"peak_bf16_flops", 3e11}});
  EXPECT_EQ(peaks.precision, "bf16");
  EXPECT_THAT(peaks.reason, HasSubstr("peak throughput"));
  // fp32 recipes are not touched by auto.
  EXPECT_EQ(ChoosePrecision("fp32", kPrecisionAuto, Machine(100, 400)).precision, "fp32");
  EXPECT_EQ(ChoosePrecision("fp32", kPrecisionAuto, Machine(100, 400)).decided_by, "recipe");
}

TEST(PrecisionChoiceTest, UnknownPrecisionIsAUsageErrorNamingTheKey) {
  try {
    ChoosePrecision("bf16", "fp16", nullptr, "--precision");
    FAIL() << "no error";
  } catch (const evalsuite::Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("--precision"));
    EXPECT_THAT(e.what(), HasSubstr("fp16"));
  }
}

TEST(PrecisionChoiceTest, TheStudysFileForItsRunsHoldsOnlyMeasuredCeilings) {
  evalsuite::testing::TempDir dir;
  const auto file = dir / study::kRunCeilingsFile;
  // A study that skipped the probe records the theoretical peak: it says nothing about bf16's real speed.
  study::WriteCeilingsForRuns({{"source", "theoretical"}, {"machine", Machine(100, 400)}}, file);
  EXPECT_TRUE(study::ReadCeilingsFileOrNull(file).is_null());
  study::WriteCeilingsForRuns(nullptr, file);
  EXPECT_TRUE(study::ReadCeilingsFileOrNull(file).is_null());
  study::WriteCeilingsForRuns({{"source", "measured"}, {"machine", Machine(117.5, 28.4)}}, file);
  const json machine = study::ReadCeilingsFileOrNull(file);
  EXPECT_EQ(ChoosePrecision("bf16", kPrecisionAuto, machine).precision, "fp32");
}

}  // namespace
}  // namespace evalsuite::entries
