#include "analysis/variance_sources.h"

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <map>
#include <set>

#include "analysis/run_counting.h"
#include "stats/curve.h"
#include "stats/variance_design_power.h"

namespace evalsuite::analysis {

const std::vector<std::string> kSeedSources = {"init", "data_order", "augmentation"};

namespace {

// The run's seed of a source, as its record gives it (0 where it gives none).
uint64_t SeedOfSource(const Run& run, const std::string& source) { return run.seeds.Of(source).value_or(0); }

double CovOfLogVariance(double variance) { return std::sqrt(std::expm1(std::max(variance, 0.0))); }

// The responses' values and the left-out count, with the reason the left-out runs are out.
struct ResponseValues {
  std::vector<size_t> runs;  // positions into the design's runs
  std::vector<double> y;
};

ResponseValues ValuesOf(const std::vector<DesignRun>& runs, std::optional<double> (*value)(const DesignRun&)) {
  ResponseValues out;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (const std::optional<double> v = value(runs[i]); v && std::isfinite(*v)) {
      out.runs.push_back(i);
      out.y.push_back(*v);
    }
  }
  return out;
}

std::optional<double> LnTta(const DesignRun& run) {
  if (!run.time_to_target || *run.time_to_target <= 0) return std::nullopt;
  return std::log(*run.time_to_target);
}
std::optional<double> LnEpochs(const DesignRun& run) {
  if (!run.epochs_to_target || *run.epochs_to_target <= 0) return std::nullopt;
  return std::log(*run.epochs_to_target);
}
std::optional<double> SecondsPerEpoch(const DesignRun& run) { return run.seconds_per_epoch; }
std::optional<double> FinalMetric(const DesignRun& run) { return run.final_metric; }

ResponseComponents ComponentsOf(const std::string& response, const std::vector<DesignRun>& runs,
                                const std::vector<size_t>& varied_positions, const std::vector<std::string>& varied,
                                std::optional<double> (*value)(const DesignRun&), const std::string& left_out_reason,
                                const VarianceSourcesOptions& options) {
  ResponseComponents out;
  out.response = response;
  const ResponseValues values = ValuesOf(runs, value);
  out.runs_used = static_cast<int>(values.y.size());
  out.runs_left_out = static_cast<int>(runs.size() - values.y.size());
  if (out.runs_left_out > 0) out.left_out_reason = left_out_reason;
  stats::VarianceDesign design;
  design.factors = varied;
  design.y = values.y;
  // A source's level is its seed: each distinct seed numbered in order of appearance.
  std::vector<std::map<uint64_t, int>> level_of(varied_positions.size());
  for (size_t position : values.runs) {
    std::vector<int> levels;
    for (size_t k = 0; k < varied_positions.size(); ++k) {
      std::map<uint64_t, int>& numbering = level_of[k];
      const uint64_t seed = runs[position].seeds[varied_positions[k]];
      levels.push_back(numbering.emplace(seed, static_cast<int>(numbering.size())).first->second);
    }
    design.levels.push_back(levels);
  }
  if (values.y.empty()) {
    out.components.withheld =
        runs.empty() ? "the design has no ended runs" : "no run has a value: every one " + left_out_reason;
    return out;
  }
  out.components = stats::EstimateVarianceComponents(design, options.components);
  return out;
}

// Which held sources (not varied) nonetheless differ between runs: the design would hide them in the residual.
std::vector<std::string> HeldSourcesThatVary(const std::vector<DesignRun>& runs, const std::vector<bool>& is_varied) {
  std::vector<std::string> out;
  for (size_t s = 0; s < kSeedSources.size(); ++s) {
    if (is_varied[s]) continue;
    std::set<uint64_t> seen;
    for (const DesignRun& run : runs) seen.insert(run.seeds[s]);
    if (seen.size() > 1) out.push_back(kSeedSources[s]);
  }
  return out;
}

std::optional<SameSeedsSpread> SameSeedsOf(const std::vector<DesignRun>& runs, double confidence) {
  std::map<std::vector<uint64_t>, std::vector<double>> cells;
  std::map<std::vector<uint64_t>, std::vector<const DesignRun*>> members;
  for (const DesignRun& run : runs) {
    if (const std::optional<double> y = LnTta(run)) cells[run.seeds].push_back(*y);
    members[run.seeds].push_back(&run);
  }
  bool training_identical = true;
  for (const auto& [seeds, cell] : members) {
    for (const DesignRun* run : cell) {
      // Runs that logged no epochs say nothing about it.
      training_identical = training_identical && run->epochs_to_target.has_value() &&
                           run->epochs_to_target == cell.front()->epochs_to_target &&
                           run->final_metric == cell.front()->final_metric;
    }
  }
  SameSeedsSpread out;
  double ss = 0;
  bool identical = true;
  for (const auto& [seeds, values] : cells) {
    if (values.size() < 2) continue;
    ++out.cells;
    out.degrees_of_freedom += static_cast<int>(values.size()) - 1;
    double mean = 0;
    for (double v : values) mean += v / static_cast<double>(values.size());
    for (double v : values) {
      ss += (v - mean) * (v - mean);
      identical = identical && v == values.front();
    }
  }
  if (out.degrees_of_freedom < 1) return std::nullopt;
  out.variance = ss / out.degrees_of_freedom;
  out.identical = identical;
  out.training_identical = training_identical;
  const double tail = (1 - confidence) / 2;
  const boost::math::chi_squared chi(out.degrees_of_freedom);
  out.variance_interval =
      stats::Interval{ss / boost::math::quantile(chi, 1 - tail), ss / boost::math::quantile(chi, tail)};
  return out;
}

// The fewest sources whose seeds, held, leave at most half of TTA's CoV (ties: the smaller CoV left).
HoldToHalve HoldToHalveOf(const stats::VarianceComponents& tta, size_t sources) {
  const double cov = CovOfLogVariance(tta.total);
  HoldToHalve best;
  best.cov_left = cov;
  bool found = false;
  for (size_t size = 1; size <= sources && !found; ++size) {
    for (uint32_t mask = 1; mask < (1U << sources); ++mask) {
      if (static_cast<size_t>(__builtin_popcount(mask)) != size) continue;
      double left = tta.total;
      std::vector<std::string> hold;
      for (size_t s = 0; s < sources; ++s) {
        if (mask & (1U << s)) {
          left -= tta.components[s].variance;
          hold.push_back(tta.components[s].name);
        }
      }
      const double cov_left = CovOfLogVariance(left);
      if (cov_left <= cov / 2 && (!found || cov_left < best.cov_left)) {
        best.hold = hold;
        best.cov_left = cov_left;
        found = true;
      }
    }
  }
  if (!found) best.cov_left = CovOfLogVariance(tta.components.back().variance);  // every source held
  return best;
}

}  // namespace

DesignRuns DesignRunsOf(const Entry& entry, double threshold, std::size_t consecutive) {
  DesignRuns out;
  for (const Run* run : CountedRuns(entry)) {
    DesignRun design_run;
    for (const std::string& source : kSeedSources) design_run.seeds.push_back(SeedOfSource(*run, source));
    design_run.time_to_target = stats::TimeToTarget(run->points, threshold, consecutive);
    const bool ended = run->status == RunStatus::kReached || run->status == RunStatus::kNotReached;
    if (!design_run.time_to_target && !ended) {
      ++out.failed;  // crashed, or a log without its end, before reaching: its TTA is unknown, not censored
      continue;
    }
    if (HasEpochs(*run) && !run->points.empty()) {
      const stats::RunCurve epochs = EpochCurveOf(*run);
      design_run.epochs_to_target = stats::TimeToTarget(epochs.points, threshold, consecutive);
      const double last_epoch = run->epochs.back();
      if (last_epoch > 0) design_run.seconds_per_epoch = run->points.back().time / last_epoch;
    }
    if (!run->points.empty()) design_run.final_metric = run->points.back().metric;
    out.runs.push_back(design_run);
  }
  return out;
}

VarianceSources AnalyzeVarianceSources(const DesignRuns& design, const std::vector<std::string>& varied,
                                       const VarianceSourcesOptions& options) {
  VarianceSources out;
  out.varied = varied;
  out.failed = design.failed;
  const std::vector<DesignRun>& runs = design.runs;
  out.runs = static_cast<int>(runs.size());
  std::vector<bool> is_varied(kSeedSources.size(), false);
  std::vector<size_t> varied_positions;
  for (const std::string& source : varied) {
    const auto found = std::find(kSeedSources.begin(), kSeedSources.end(), source);
    if (found == kSeedSources.end()) {
      out.withheld = "\"" + source + "\" is not a seed source (init, data_order, augmentation)";
      return out;
    }
    const size_t position = static_cast<size_t>(found - kSeedSources.begin());
    if (is_varied[position]) {
      out.withheld = "\"" + source + "\" is named twice";
      return out;
    }
    is_varied[position] = true;
    varied_positions.push_back(position);
  }
  if (varied.empty()) {
    out.withheld = "the design varies no source";
    return out;
  }
  for (const DesignRun& run : runs) {
    if (run.seeds.size() != kSeedSources.size()) {
      out.withheld = "a run gives " + std::to_string(run.seeds.size()) + " seeds, not one per source";
      return out;
    }
  }
  if (const std::vector<std::string> stray = HeldSourcesThatVary(runs, is_varied); !stray.empty()) {
    std::string names;
    for (const std::string& name : stray) names += (names.empty() ? "" : ", ") + name;
    out.withheld = "the design holds " + names +
                   ", but its runs have different seeds of it: these runs are not one design (was the study's "
                   "[variance] changed between runs?)";
    return out;
  }
  std::map<std::vector<uint64_t>, int> cells;
  for (const DesignRun& run : runs) out.repeats = std::max(out.repeats, ++cells[run.seeds]);
  for (size_t position : varied_positions) {
    std::set<uint64_t> levels;
    for (const DesignRun& run : runs) levels.insert(run.seeds[position]);
    out.levels = std::max(out.levels, static_cast<int>(levels.size()));
  }
  for (const DesignRun& run : runs) out.not_reached += run.time_to_target ? 0 : 1;

  const bool too_many_unreached = out.runs > 0 && static_cast<double>(out.not_reached) / out.runs > kMaxUnreachedShare;
  const std::string unreached_reason = "did not reach the target (their TTA is only known to exceed their budget)";
  ResponseComponents tta = ComponentsOf("ln_tta", runs, varied_positions, varied, LnTta, unreached_reason, options);
  ResponseComponents epochs = ComponentsOf("ln_epochs_to_target", runs, varied_positions, varied, LnEpochs,
                                           "did not reach the target, or logged no epochs", options);
  if (too_many_unreached) {
    const std::string reason = std::to_string(out.not_reached) + " of " + std::to_string(out.runs) +
                               " runs did not reach the target: leaving out more than a quarter, the slowest, "
                               "would bias every component";
    for (ResponseComponents* r : {&tta, &epochs}) {
      r->components = stats::VarianceComponents{};
      r->components.withheld = reason;
    }
  }
  out.responses.push_back(tta);
  out.responses.push_back(epochs);
  out.responses.push_back(
      ComponentsOf("time_per_epoch", runs, varied_positions, varied, SecondsPerEpoch, "logged no epochs", options));
  out.responses.push_back(
      ComponentsOf("final_metric", runs, varied_positions, varied, FinalMetric, "logged no evaluation", options));

  const double confidence = options.components.confidence;
  if (!too_many_unreached) out.same_seeds = SameSeedsOf(runs, confidence);
  const stats::VarianceComponents& c = tta.components;
  if (c.withheld || c.components.empty()) return out;
  out.cov_tta = CovOfLogVariance(c.total);
  for (const stats::VarianceComponent& component : c.components) {
    SourceShare share;
    share.source = component.name;
    share.share = component.share;
    share.share_interval = component.share_interval;
    share.cov_alone = CovOfLogVariance(component.variance);
    if (component.variance_interval) {
      share.cov_alone_interval = stats::Interval{CovOfLogVariance(component.variance_interval->lower),
                                                 CovOfLogVariance(component.variance_interval->upper)};
    }
    out.shares.push_back(share);
  }
  std::stable_sort(out.shares.begin(), out.shares.end(),
                   [](const SourceShare& a, const SourceShare& b) { return a.share > b.share; });
  out.hold_to_halve = HoldToHalveOf(c, varied.size());
  if (varied.size() >= 2) {
    std::vector<const stats::VarianceComponent*> sources;
    for (size_t k = 0; k < varied.size(); ++k) sources.push_back(&c.components[k]);
    std::stable_sort(sources.begin(), sources.end(),
                     [](const auto* a, const auto* b) { return a->variance > b->variance; });
    stats::LevelsQuestion question;
    question.variance_a = sources[0]->variance;
    question.variance_b = sources[1]->variance;
    question.residual = c.components.back().variance;
    // The next study: a crossed design of just these two sources (the others held), at the design's repeats.
    question.factors = 2;
    question.repeats = std::max(1, out.repeats);
    LevelsNeeded needed;
    needed.first = sources[0]->name;
    needed.second = sources[1]->name;
    needed.levels = stats::LevelsToTellApart(question);
    needed.repeats = question.repeats;
    out.levels_needed = needed;
  }
  return out;
}

}  // namespace evalsuite::analysis
