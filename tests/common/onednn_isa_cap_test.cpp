// The oneDNN ISA cap: the decision (apart from probing), the probes on this machine, and the CPU facts.
#include "common/onednn_isa_cap.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "common/cpu_features.h"
#include "common/isa_probe.h"

namespace evalsuite {
namespace {

// The first lines of /proc/cpuinfo on a Sapphire Rapids guest, cut to the flags that matter.
constexpr const char* kSapphireRapidsCpuInfo =
    "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Processor\n"
    "flags\t\t: fpu sse4_1 avx2 fma avx512f avx512dq avx512bw avx512vl avx512_vnni avx512_bf16 amx_bf16 amx_tile "
    "amx_int8\n\nprocessor\t: 1\nvendor_id\t: SomethingElse\nflags\t\t: fpu\n";
constexpr const char* kEpycZen3CpuInfo =
    "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu sse4_1 avx2 fma\n";

std::vector<IsaLevel> SapphireRapidsLevels() { return ClaimedIsaLevels(ParseCpuInfo(kSapphireRapidsCpuInfo)); }

// A probe that answers from a table and counts its calls.
struct ScriptedProbe {
  std::map<IsaLevel, bool> executes;
  std::vector<IsaLevel> calls;
  ProbeOutcome operator()(IsaLevel level) {
    calls.push_back(level);
    return executes.at(level) ? ProbeOutcome{true, "executes"} : ProbeOutcome{false, "SIGILL"};
  }
};

TEST(CpuFacts, ParsesTheFirstProcessorBlockOnly) {
  const CpuFacts cpu = ParseCpuInfo(kSapphireRapidsCpuInfo);
  EXPECT_EQ(cpu.model, "Intel(R) Xeon(R) Processor");
  EXPECT_EQ(cpu.vendor, "GenuineIntel");
  EXPECT_TRUE(cpu.Has("amx_tile"));
  EXPECT_FALSE(cpu.Has("avx512_fp16"));
  EXPECT_EQ(RelevantIsaFlags(cpu)["amx_bf16"], true);
  EXPECT_TRUE(ParseCpuInfo("").model.empty());
}

TEST(IsaLevels, ClaimedLevelsFollowTheFlags) {
  EXPECT_EQ(SapphireRapidsLevels().back(), IsaLevel::kAvx512CoreAmx);
  EXPECT_EQ(SapphireRapidsLevels().size(), 6u);
  const std::vector<IsaLevel> zen3 = ClaimedIsaLevels(ParseCpuInfo(kEpycZen3CpuInfo));
  ASSERT_EQ(zen3.size(), 2u);
  EXPECT_EQ(zen3.back(), IsaLevel::kAvx2);
  EXPECT_STREQ(OneDnnIsaName(IsaLevel::kAvx512CoreBf16), "AVX512_CORE_BF16");
}

TEST(OneDnnIsaCapDecision, ProbeSaysNoToAmxSoTheCapIsTheBestLevelThatExecutes) {
  ScriptedProbe probe{{{IsaLevel::kAvx512CoreAmx, false}, {IsaLevel::kAvx512CoreBf16, true}}};
  const IsaCapDecision d = DecideOneDnnIsaCap(SapphireRapidsLevels(), std::ref(probe), std::nullopt, false);
  ASSERT_TRUE(d.cap.has_value());
  EXPECT_EQ(*d.cap, "AVX512_CORE_BF16");
  EXPECT_EQ(d.source, "evalsuite");
  EXPECT_NE(d.reason.find("SIGILL"), std::string::npos) << d.reason;
  EXPECT_EQ(probe.calls.size(), 2u);  // AMX, then BF16: nothing lower is probed once a level executes
}

TEST(OneDnnIsaCapDecision, FallsFurtherWhenBf16AlsoFails) {
  ScriptedProbe probe{
      {{IsaLevel::kAvx512CoreAmx, false}, {IsaLevel::kAvx512CoreBf16, false}, {IsaLevel::kAvx512CoreVnni, true}}};
  const IsaCapDecision d = DecideOneDnnIsaCap(SapphireRapidsLevels(), std::ref(probe), std::nullopt, false);
  EXPECT_EQ(d.cap.value_or(""), "AVX512_CORE_VNNI");
}

TEST(OneDnnIsaCapDecision, AUsersSettingIsLeftAloneAndNothingIsProbed) {
  ScriptedProbe probe{{{IsaLevel::kAvx512CoreAmx, false}}};
  const IsaCapDecision d = DecideOneDnnIsaCap(SapphireRapidsLevels(), std::ref(probe), "AVX2", false);
  EXPECT_EQ(d.cap.value_or(""), "AVX2");
  EXPECT_EQ(d.source, "user");
  EXPECT_TRUE(probe.calls.empty());
}

TEST(OneDnnIsaCapDecision, ProbeSaysYesSoNothingIsSet) {
  ScriptedProbe probe{{{IsaLevel::kAvx512CoreAmx, true}}};
  const IsaCapDecision d = DecideOneDnnIsaCap(SapphireRapidsLevels(), std::ref(probe), std::nullopt, false);
  EXPECT_FALSE(d.cap.has_value());
  EXPECT_EQ(d.source, "none");
  EXPECT_EQ(probe.calls.size(), 1u);
}

TEST(OneDnnIsaCapDecision, TheOffSwitchSetsNothing) {
  ScriptedProbe probe{{{IsaLevel::kAvx512CoreAmx, false}}};
  const IsaCapDecision d = DecideOneDnnIsaCap(SapphireRapidsLevels(), std::ref(probe), std::nullopt, true);
  EXPECT_FALSE(d.cap.has_value());
  EXPECT_EQ(d.source, "disabled");
  EXPECT_TRUE(probe.calls.empty());
}

void CallerSigillHandler(int /*signal*/) {}

TEST(IsaProbe, AnUndefinedInstructionIsSeenAsSigillWithoutHarmingTheCaller) {
  // The child shares this process's memory but not its signal handlers or limits: the SIGILL handler it resets to
  // the default and the core-dump limit it lowers to 0 must stay the caller's.
  struct sigaction mine {};
  mine.sa_handler = CallerSigillHandler;
  struct sigaction original {};
  ASSERT_EQ(sigaction(SIGILL, &mine, &original), 0);
  rlimit original_core{};
  getrlimit(RLIMIT_CORE, &original_core);
  rlimit some_core = original_core;
  some_core.rlim_cur = std::min<rlim_t>(original_core.rlim_max, 1 << 20);
  setrlimit(RLIMIT_CORE, &some_core);

  const ProbeOutcome outcome = ProbeUndefinedInstruction();
  EXPECT_FALSE(outcome.executes);
  EXPECT_EQ(outcome.detail, "SIGILL");

  struct sigaction after {};
  sigaction(SIGILL, &original, &after);
  rlimit core_after{};
  getrlimit(RLIMIT_CORE, &core_after);
  setrlimit(RLIMIT_CORE, &original_core);
  EXPECT_EQ(after.sa_handler, &CallerSigillHandler);
  EXPECT_EQ(core_after.rlim_cur, some_core.rlim_cur);
}

TEST(IsaProbe, TheBaselineLevelExecutesOnThisMachine) {
  EXPECT_TRUE(ProbeIsaLevel(IsaLevel::kSse41).executes);
  // Every level this CPU lists either executes or fails cleanly; the answer is stable within the process.
  for (IsaLevel level : ClaimedIsaLevels(ThisCpu())) {
    const ProbeOutcome first = ProbeIsaLevel(level);
    EXPECT_EQ(first.executes, ProbeIsaLevel(level).executes) << OneDnnIsaName(level);
    EXPECT_FALSE(first.detail.empty());
  }
}

TEST(OneDnnIsaCap, TheRecordOfThisMachineMatchesTheEnvironmentItLeft) {
  const nlohmann::json& record = PrepareOneDnnForThisMachine();
  EXPECT_EQ(record["model"], ThisCpu().model);
  ASSERT_TRUE(record.contains("onednn_max_cpu_isa"));
  const nlohmann::json& cap = record["onednn_max_cpu_isa"];
  const char* in_force = std::getenv("ONEDNN_MAX_CPU_ISA");
  if (cap["source"] == "evalsuite") {
    ASSERT_NE(in_force, nullptr);
    EXPECT_EQ(cap["value"], in_force);
    EXPECT_EQ(record["amx_usable"], false);
  }
  if (record["amx_usable"] == true) EXPECT_NE(cap["source"], "evalsuite");
  std::cout << "this machine: " << record.dump() << "\n";
}

}  // namespace
}  // namespace evalsuite
