#include "stats/stability_statistics.h"

#include <utility>

namespace evalsuite::stats {
namespace {

// Methods two statistics share (CoV of TTA and of epochs to target): written once.
StatisticMethod CovMethod() {
  return {"CoV and its 95% interval", "s / mean of the TTAs of runs that reached; modified McKay interval",
          "Vangel 1996, Am. Statistician 50(1)"};
}

StatisticValue RunsOf(const EntryStatistics& e) { return {static_cast<double>(e.at_target.runs), {}, {}, {}}; }

StatisticValue ReachedOf(const EntryStatistics& e) { return {static_cast<double>(e.at_target.reached), {}, {}, {}}; }

StatisticValue TtaCovOf(const EntryStatistics& e) { return {e.at_target.cov, e.at_target.cov_interval, {}, {}}; }

StatisticValue EpochsCovOf(const EntryStatistics& e) {
  if (!e.in_epochs) return {};
  return {e.in_epochs->cov, e.in_epochs->cov_interval, {}, {}};
}

StatisticValue TimePerEpochCovOf(const EntryStatistics& e) { return {e.variation.cov_time_per_epoch, {}, {}, {}}; }

StatisticValue HitRateOf(const EntryStatistics& e) {
  return {e.at_target.hit_rate, e.at_target.hit_rate_interval, {}, {}};
}

// The headline median counts every run: with runs that never reached, the median of the others is biased low, so
// the Kaplan-Meier median stands in (none when fewer than half reach), and theirs is labelled as such.
StatisticValue MedianTtaOf(const EntryStatistics& e) {
  const StabilityStats& s = e.at_target;
  if (s.runs == 0) return {std::nullopt, {}, "no runs", {}};
  if (s.reached == s.runs) return {s.tta_summary.median, {}, "all runs reached", {}};
  if (!s.time_to_target.median) return {std::nullopt, {}, "not reached (fewer than half the runs reached)", {}};
  return {s.time_to_target.median, {}, "Kaplan-Meier", {}};
}

StatisticValue MedianOfReachedOf(const EntryStatistics& e) {
  if (e.at_target.reached == 0) return {};
  return {e.at_target.tta_summary.median, {}, {}, {}};
}

StatisticValue OlympicMeanOf(const EntryStatistics& e) { return {e.at_target.olympic_mean, {}, {}, {}}; }

StatisticValue ErtOf(const EntryStatistics& e) { return {e.at_target.ert, {}, {}, {}}; }

StatisticValue TtaGridOf(const EntryStatistics& e) {
  return {e.at_target.resolution, {}, {}, e.at_target.grid_coarser_than_spread};
}

StatisticValue EpochsGridOf(const EntryStatistics& e) {
  if (!e.in_epochs) return {};
  return {e.in_epochs->resolution, {}, {}, e.in_epochs->grid_coarser_than_spread};
}

StatisticValue MedianEpochsOf(const EntryStatistics& e) {
  if (!e.in_epochs || e.in_epochs->reached == 0) return {};
  return {e.in_epochs->tta_summary.median, {}, {}, {}};
}

// One table entry, written field by field by name (the table below reads as a list of statistics).
class StatisticEntry {
 public:
  StatisticEntry(std::string key, StatisticValue (*compute)(const EntryStatistics&)) {
    s_.key = std::move(key);
    s_.compute = compute;
  }
  StatisticEntry& Heading(std::string heading) {
    s_.heading = std::move(heading);
    return *this;
  }
  StatisticEntry& Summary(std::string heading, int order) {
    s_.summary_heading = std::move(heading);
    s_.summary_order = order;
    return *this;
  }
  StatisticEntry& Reads(StatisticUnit unit, StatisticForm form, StatisticDirection direction) {
    s_.unit = unit;
    s_.form = form;
    s_.direction = direction;
    return *this;
  }
  StatisticEntry& WithInterval() {
    s_.has_interval = true;
    return *this;
  }
  StatisticEntry& StatesBasis() {
    s_.states_basis = true;
    return *this;
  }
  StatisticEntry& CoarseFlag(std::string key) {
    s_.flag_key = std::move(key);
    return *this;
  }
  StatisticEntry& Decimals(int decimals) {
    s_.decimals = decimals;
    return *this;
  }
  StatisticEntry& Cites(std::vector<StatisticMethod> methods) {
    s_.methods = std::move(methods);
    return *this;
  }
  StabilityStatistic Done() const { return s_; }

 private:
  StabilityStatistic s_;
};

std::vector<StabilityStatistic> BuildTable() {
  using D = StatisticDirection;
  using F = StatisticForm;
  using U = StatisticUnit;
  const StatisticMethod runs_that_would_tell = {"Runs that would tell",
                                                "fewest n with P(Vangel upper bound <= limit) >= assurance, the sample "
                                                "CoV distributed by McKay's chi-square approximation",
                                                "McKay 1932; Vangel 1996"};
  const StatisticMethod kaplan_meier = {
      "Kaplan-Meier time to target",
      "product-limit survival of 'not yet at the target', runs that missed censored at their time spent; log-log "
      "band; median = first time survival <= 0.5 (R print.survfit)",
      "Kaplan and Meier 1958; R survival package"};
  const StatisticMethod median_tta = {"Median TTA",
                                      "all runs reached: sample median; some did not: the Kaplan-Meier median ('not "
                                      "reached' when fewer than half reach); the median of the runs that reached is "
                                      "labelled as such",
                                      "this report"};
  return {
      StatisticEntry("runs", RunsOf).Heading("Runs").Reads(U::kCount, F::kCount, D::kNeutral).Done(),
      StatisticEntry("reached", ReachedOf).Heading("Reached").Reads(U::kCount, F::kCount, D::kHigherIsBetter).Done(),
      StatisticEntry("cov", TtaCovOf)
          .Heading("CoV of TTA [95% CI]")
          .Summary("CoV [95% CI]", 2)
          .Reads(U::kShare, F::kShare, D::kLowerIsBetter)
          .WithInterval()
          .Cites({CovMethod(), runs_that_would_tell})
          .Done(),
      StatisticEntry("epochs_cov", EpochsCovOf)
          .Heading("CoV of epochs to target [95% CI]")
          .Reads(U::kShare, F::kShare, D::kLowerIsBetter)
          .WithInterval()
          .Cites({CovMethod()})
          .Done(),
      StatisticEntry("hit_rate", HitRateOf)
          .Heading("Runs reaching [95% CI]")
          .Summary("hit rate [95% CI]", 3)
          .Reads(U::kShare, F::kShare, D::kHigherIsBetter)
          .WithInterval()
          .Decimals(0)
          .Cites({{"Hit rate and its 95% interval", "reached / runs; exact binomial (beta quantiles)",
                   "Clopper and Pearson 1934, Biometrika 26(4)"}})
          .Done(),
      StatisticEntry("median_tta", MedianTtaOf)
          .Heading("Median TTA")
          .Summary("median TTA", 1)
          .Reads(U::kTime, F::kMedianOfAllRuns, D::kLowerIsBetter)
          .StatesBasis()
          .Cites({kaplan_meier, median_tta})
          .Done(),
      StatisticEntry("median_tta_reached", MedianOfReachedOf)
          .Heading("Median of runs that reached")
          .Reads(U::kTime, F::kMagnitude, D::kLowerIsBetter)
          .Done(),
      StatisticEntry("olympic_mean", OlympicMeanOf)
          .Heading("Olympic mean")
          .Reads(U::kTime, F::kMagnitude, D::kLowerIsBetter)
          .Cites({{"Olympic mean",
                   "drop the fastest and slowest run, average the rest; a run that did not reach counts as a slowest "
                   "one",
                   "MLPerf Training rules, result summarizer _compute_olympic_average"}})
          .Done(),
      StatisticEntry("ert", ErtOf)
          .Heading("ERT")
          .Reads(U::kTime, F::kMagnitude, D::kLowerIsBetter)
          .Cites({{"ERT", "time spent by all runs (a reached run until its TTA) / runs that reached",
                   "Hansen et al., COCO (expected running time)"}})
          .Done(),
      // The grid in time and in epochs share one column: "2.10 / 0.25 ep".
      StatisticEntry("tta_resolution", TtaGridOf)
          .Heading("Evaluation grid at the crossing")
          .Reads(U::kTime, F::kGridInTime, D::kNeutral)
          .CoarseFlag("tta_grid_coarser_than_spread")
          .Done(),
      StatisticEntry("epochs_resolution", EpochsGridOf)
          .Heading("Evaluation grid at the crossing")
          .Reads(U::kProgress, F::kGridInProgress, D::kNeutral)
          .CoarseFlag("epochs_grid_coarser_than_spread")
          .Done(),
      StatisticEntry("time_per_epoch_cov", TimePerEpochCovOf)
          .Heading("CoV of time per epoch")
          .Summary("CoV of time per epoch", 4)
          .Reads(U::kShare, F::kShare, D::kLowerIsBetter)
          .Cites({{"CoV of time per epoch",
                   "s / mean of TTA / epochs to target over the runs that reached; var(ln TTA) = var(ln epochs to "
                   "target) + var(ln time per epoch) + 2 cov(ln epochs to target, ln time per epoch), sample (n - 1) "
                   "moments",
                   "Coleman et al. 2019, Analysis of DAWNBench (time per epoch on dedicated hardware); the variance "
                   "of a sum"}})
          .Done(),
      // In report.json only: the Tables 2-3 view shows the CoV of epochs to target, the runs table each run's epochs.
      StatisticEntry("median_epochs", MedianEpochsOf).Reads(U::kProgress, F::kMagnitude, D::kLowerIsBetter).Done(),
  };
}

}  // namespace

const std::vector<StabilityStatistic>& StabilityStatistics() {
  static const std::vector<StabilityStatistic> table = BuildTable();
  return table;
}

}  // namespace evalsuite::stats
