// The study's start-up line about the ceilings it recorded: the figures, where they came from, and a caution when
// the probe ran while other work kept its cores busy.
#include "study/plans/ceilings_record.h"

#include <gtest/gtest.h>

namespace evalsuite::study {
namespace {

TEST(CeilingsRecordTest, TheStartUpLineCarriesTheProbesLoadCaution) {
  nlohmann::json record = {{"where", "this study's machine (vm), before its runs, with their 2 thread(s)"},
                           {"machine",
                            {{"peak_fp32_flops", 250e9},
                             {"peak_bf16_flops", 500e9},
                             {"bandwidth_bytes", 40e9},
                             {"busy_cores_before", 0.01},
                             {"load_note", nullptr}}}};
  const std::string quiet = DescribeCeilings(record);
  EXPECT_EQ(quiet,
            "machine ceilings (this study's machine (vm), before its runs, with their 2 thread(s)): peak fp32 250.0 "
            "GFLOP/s, bf16 500.0 GFLOP/s, triad 40.0 GB/s");
  record["machine"]["load_note"] = "other processes kept 1.03 of 2 cores busy just before the probe";
  EXPECT_EQ(DescribeCeilings(record),
            quiet + "; caution: other processes kept 1.03 of 2 cores busy just before the probe");
}

}  // namespace
}  // namespace evalsuite::study
