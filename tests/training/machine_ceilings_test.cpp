// The machine ceilings: probes return positive figures that agree with themselves within a run (the median of
// the repetitions near the best: no assertion on how fast), and the theoretical peak's derivation from
// /proc/cpuinfo text by hand.
#include "training/machine_ceilings.h"

#include <gtest/gtest.h>

#include "common/cpu_features.h"
#include "common/theoretical_peak.h"

namespace evalsuite::training {
namespace {

TEST(MachineCeilings, ProbesArePositiveAndStableWithinARun) {
  CeilingOptions options;
  options.threads = 1;
  options.repetitions = 3;
  options.seconds_per_repetition = 0.03;
  options.triad_elements = int64_t{1} << 22;
  options.matmul_side = 256;
  options.conv_batch = 1;
  options.steps.warmup_steps = 1;
  options.steps.min_steps = 2;
  options.steps.min_seconds = 0;
  const MachineCeilings m = MeasureMachineCeilings(options);
  EXPECT_EQ(m.threads, 1);
  ASSERT_GE(m.probes.size(), 3u);
  for (const ProbeResult& p : m.probes) {
    SCOPED_TRACE(p.name);
    ASSERT_EQ(p.per_second.size(), 3u);
    for (double r : p.per_second) EXPECT_GT(r, 0);
    // Stable within the run: on a shared machine a repetition may be slowed, but not the middle one by 10x.
    EXPECT_GT(p.Median(), p.Best() / 10);
  }
  EXPECT_GT(m.peak_fp32_flops, 0);
  EXPECT_GT(m.bandwidth_bytes, 0);
  EXPECT_GT(m.RidgeIntensity("fp32"), 0);
  const nlohmann::json j = MachineCeilingsToJson(m);
  EXPECT_EQ(j["threads"], 1);
  EXPECT_DOUBLE_EQ(j["peak_fp32_flops"].get<double>(), m.peak_fp32_flops);
  ASSERT_TRUE(m.load_average_1m) << "Linux always has a load average";
  EXPECT_GE(j["load_average_1m"].get<double>(), 0.0);
  ASSERT_TRUE(m.busy_cores_before) << "Linux always has /proc/stat";
  EXPECT_GE(j["busy_cores_before"].get<double>(), 0.0);
  EXPECT_LE(j["busy_cores_before"].get<double>(), m.cores + 0.01);
  EXPECT_TRUE(j["load_note"].is_null() || j["load_note"].is_string());
  // Both forms of every bf16 entry (fast, bf16), timed with the probe's threads: what the precision choice reads.
  ASSERT_EQ(j["step_probes"].size(), 4u) << j["step_probes"].dump();
  for (const nlohmann::json& row : j["step_probes"]) {
    EXPECT_EQ(row["threads"], 1);
    EXPECT_GT(row["seconds_per_step"].get<double>(), 0);
  }
}

TEST(TheoreticalPeak, Zen5WithAvx512Bf16) {
  // This machine's /proc/cpuinfo: AMD family 26 (Zen 5), 2596.122 MHz, AVX-512 and AVX-512 BF16.
  const CpuFacts cpu = ParseCpuInfo(
      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\n"
      "cpu MHz\t\t: 2596.122\nflags\t\t: fpu avx2 fma avx512f avx512_bf16\n");
  EXPECT_EQ(cpu.family, 26);
  EXPECT_EQ(cpu.model_number, 2);
  EXPECT_DOUBLE_EQ(cpu.mhz, 2596.122);
  const TheoreticalPeak peak = DeriveTheoreticalPeak(cpu, 2);
  ASSERT_TRUE(peak.derived);
  // 2 cores x 2596.122e6 Hz x 2 FMA units x 16 lanes x 2 = 332.30 GFLOP/s; bf16 dot products double it.
  EXPECT_DOUBLE_EQ(peak.fp32_flops_per_second, 2 * 2596.122e6 * 64);
  EXPECT_DOUBLE_EQ(peak.bf16_flops_per_second, 2 * 2596.122e6 * 128);
  EXPECT_NE(peak.derivation.find("Zen 5"), std::string::npos) << peak.derivation;
}

TEST(TheoreticalPeak, Zen3HasNoNativeBf16AndUnknownCpusGetAReason) {
  const CpuFacts zen3 = ParseCpuInfo(
      "processor : 0\nvendor_id : AuthenticAMD\ncpu family : 25\nmodel : 1\ncpu MHz : 2000.000\nflags : avx2 fma\n");
  const TheoreticalPeak peak = DeriveTheoreticalPeak(zen3, 4);
  ASSERT_TRUE(peak.derived);
  EXPECT_DOUBLE_EQ(peak.fp32_flops_per_second, 4 * 2000e6 * 32);  // 2 x 256-bit FMA: 32 FLOPs per cycle
  EXPECT_DOUBLE_EQ(peak.bf16_flops_per_second, peak.fp32_flops_per_second);
  const TheoreticalPeak unknown = DeriveTheoreticalPeak(ParseCpuInfo("processor : 0\nvendor_id : Other\n"), 2);
  EXPECT_FALSE(unknown.derived);
  EXPECT_NE(unknown.derivation.find("not derived"), std::string::npos);
}

// This machine (Zen 5, 'cpu MHz' 2596) measured 440 GFLOP/s fp32 and 874 bf16 on 2 threads against a
// nominal-clock figure of 332 / 665: the cores boost. The figure must then say it is no upper bound.
TEST(TheoreticalPeak, AMeasuredPeakAboveTheFigureIsExplainedWithTheClockItImplies) {
  const CpuFacts zen3 = ParseCpuInfo(
      "processor : 0\nvendor_id : AuthenticAMD\ncpu family : 25\nmodel : 1\ncpu MHz : 2000.000\nflags : avx2 fma\n");
  const TheoreticalPeak peak = DeriveTheoreticalPeak(zen3, 2);      // 2 x 2000 MHz x 32 = 128 GFLOP/s fp32 and bf16
  EXPECT_EQ(MeasuredAboveTheoreticalNote(peak, 100e9, 100e9), "");  // below: nothing to say
  EXPECT_EQ(MeasuredAboveTheoreticalNote(peak, 128e9, 0), "");      // equal: still a bound
  const std::string note = MeasuredAboveTheoreticalNote(peak, 144e9, 160e9);  // bf16 the larger ratio, 1.25
  EXPECT_NE(note.find("measured bf16 peak is 1.25x"), std::string::npos) << note;
  EXPECT_NE(note.find("2500 MHz or more"), std::string::npos) << note;
  EXPECT_NE(note.find("nominal 2000 MHz"), std::string::npos) << note;
  EXPECT_EQ(MeasuredAboveTheoreticalNote(DeriveTheoreticalPeak(ParseCpuInfo("processor : 0\n"), 2), 1e12, 1e12), "");
}

}  // namespace
}  // namespace evalsuite::training
