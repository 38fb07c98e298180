// The statistics table itself (stats/stability_statistics.h): well-formed entries, and values taken from the
// analyses they name (the outputs that read the table are checked in tests/study/statistics_in_every_output_test.cpp).
#include "stats/stability_statistics.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

namespace evalsuite::stats {
namespace {

TEST(StabilityStatisticsTest, EntriesAreWellFormed) {
  std::set<std::string> keys;
  std::set<std::string> headings;
  std::string previous_heading;
  for (const StabilityStatistic& s : StabilityStatistics()) {
    SCOPED_TRACE(s.key);
    EXPECT_TRUE(keys.insert(s.key).second) << "duplicate key";
    EXPECT_NE(s.compute, nullptr);
    // Statistics share a column only when they are next to each other in the table.
    if (!s.heading.empty() && s.heading != previous_heading) {
      EXPECT_TRUE(headings.insert(s.heading).second) << "heading reused away from its column";
    }
    previous_heading = s.heading;
    // The form fits the unit: counts read as integers, shares as percentages.
    EXPECT_EQ(s.form == StatisticForm::kCount, s.unit == StatisticUnit::kCount);
    EXPECT_EQ(s.form == StatisticForm::kShare, s.unit == StatisticUnit::kShare);
    if (!s.summary_heading.empty()) EXPECT_GT(s.summary_order, 0);
    for (const StatisticMethod& m : s.methods) {
      EXPECT_FALSE(m.name.empty());
      EXPECT_FALSE(m.formula.empty());
      EXPECT_FALSE(m.source.empty());
    }
  }
}

const StabilityStatistic& Named(const std::string& key) {
  for (const StabilityStatistic& s : StabilityStatistics()) {
    if (s.key == key) return s;
  }
  throw std::logic_error("no statistic " + key);
}

TEST(StabilityStatisticsTest, ValuesComeFromTheAnalysesTheyName) {
  EntryStatistics e;
  e.at_target.runs = 4;
  e.at_target.reached = 3;
  e.at_target.tta_summary.median = 12;
  e.at_target.time_to_target.median = 14;
  e.at_target.cov = 0.05;
  e.at_target.cov_interval = Interval{0.03, 0.2};
  e.variation.cov_time_per_epoch = 0.07;
  // Not every run reached: the headline median is Kaplan-Meier's, and says so.
  const StatisticValue median = Named("median_tta").compute(e);
  EXPECT_EQ(median.value, 14);
  EXPECT_EQ(median.basis, "Kaplan-Meier");
  EXPECT_EQ(Named("median_tta_reached").compute(e).value, 12);
  EXPECT_EQ(Named("cov").compute(e).interval->upper, 0.2);
  EXPECT_EQ(Named("time_per_epoch_cov").compute(e).value, 0.07);
  // No epochs logged: every epochs statistic is undefined, not 0.
  EXPECT_FALSE(Named("epochs_cov").compute(e).value.has_value());
  EXPECT_FALSE(Named("epochs_resolution").compute(e).coarse.has_value());
  e.at_target.time_to_target.median.reset();
  EXPECT_EQ(Named("median_tta").compute(e).basis, "not reached (fewer than half the runs reached)");
  EXPECT_FALSE(Named("median_tta").compute(e).value.has_value());
}

}  // namespace
}  // namespace evalsuite::stats
