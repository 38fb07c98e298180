// The contention record (analysis/run_contention.h): one struct whose JSON is the one the run store has always kept,
// so that a store written before the struct reads back to the same report, and the busy-run rule on it.
#include "analysis/run_contention.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace evalsuite::analysis {
namespace {

using nlohmann::json;

// A record as the monitor writes it for a measured run (a store's runs.execution text, parsed as the store parses it).
json MeasuredRecord() {
  return json::parse(R"({"cores":2,"cpu_pressure_some":0.0123,"cpus":[0,1],
    "load_average_1m":{"max":2.5,"mean":1.75,"samples":4},"method":"m","other_busy_cores":0.25,
    "own_busy_cores":null,"sample_seconds":1.0,"seconds":12.5,"steal_fraction":0.0,"study_busy_cores":0.5})");
}

TEST(RunContentionTest, AMeasuredRecordComesBackByteForByte) {
  const json record = MeasuredRecord();
  const RunContention c = ContentionFromJson(record);
  ASSERT_TRUE(c.other_busy_cores);
  EXPECT_DOUBLE_EQ(*c.other_busy_cores, 0.25);
  EXPECT_FALSE(c.own_busy_cores);
  EXPECT_EQ(c.load_average_1m->samples, 4u);
  EXPECT_EQ(ContentionToJson(c).dump(), record.dump());
}

TEST(RunContentionTest, AnUnmeasuredRecordKeepsItsNullsAndWhy) {
  const json record = json::parse(R"({"cores":1,"cpu_pressure_some":null,"cpus":[3],"load_average_1m":null,
    "method":"m","other_busy_cores":null,"sample_seconds":1.0,"seconds":0.01,"steal_fraction":null,
    "why":"the run's cores' counters did not advance"})");
  const RunContention c = ContentionFromJson(record);
  EXPECT_FALSE(c.other_busy_cores);
  EXPECT_FALSE(c.load_average_1m);
  EXPECT_EQ(ContentionToJson(c).dump(), record.dump()) << "no own_busy_cores or study_busy_cores key is added";
}

TEST(RunContentionTest, ASlurmTasksRecordKeepsWhereItWasSeenFrom) {
  json record = MeasuredRecord();
  record["own_busy_cores"] = 0.9;
  record["seen_from"] = "the Slurm task on its node";
  const RunContention c = ContentionFromJson(record);
  EXPECT_EQ(c.seen_from, "the Slurm task on its node");
  EXPECT_EQ(ContentionToJson(c).dump(), record.dump());
}

TEST(RunContentionTest, AFieldOfAnotherTypeCountsAsAbsent) {
  const RunContention c = ContentionFromJson(json::parse(R"({"other_busy_cores":"busy","steal_fraction":0.2})"));
  EXPECT_FALSE(c.other_busy_cores);
  ASSERT_TRUE(c.steal_fraction);
  EXPECT_DOUBLE_EQ(*c.steal_fraction, 0.2);
}

TEST(RunContentionTest, ABusyRunHasOtherWorkOfHalfACoreOrStealOfFivePercent) {
  RunContention c;
  EXPECT_FALSE(RunWasBusy(c)) << "nothing measured is not busy";
  c.other_busy_cores = 0.49;
  c.steal_fraction = 0.049;
  EXPECT_FALSE(RunWasBusy(c));
  c.other_busy_cores = 0.5;
  EXPECT_TRUE(RunWasBusy(c));
  c.other_busy_cores = 0.0;
  c.steal_fraction = 0.05;
  EXPECT_TRUE(RunWasBusy(c));
}

}  // namespace
}  // namespace evalsuite::analysis
