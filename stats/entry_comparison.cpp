#include "stats/entry_comparison.h"

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace evalsuite::stats {
namespace {

std::vector<std::optional<double>> TtaOrNever(const std::vector<SurvivalObservation>& runs) {
  std::vector<std::optional<double>> out;
  for (const auto& o : runs) out.push_back(o.event ? std::optional<double>(o.time) : std::nullopt);
  return out;
}

std::size_t Reached(const std::vector<SurvivalObservation>& runs) {
  std::size_t n = 0;
  for (const auto& o : runs) n += o.event ? 1 : 0;
  return n;
}

std::string Format(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string PValue(double p) { return p < 0.001 ? "< 0.001" : "= " + Format("%.3f", p); }

std::string Bound(double value) { return std::isfinite(value) ? Format("%.2f", value) : "inf"; }

}  // namespace

std::string ComparisonVerdictText(const EntryComparison& c) {
  const std::string log_rank =
      "log-rank p " + PValue(c.log_rank.permutation_p_value) + ", z = " + Format("%.2f", c.log_rank.permutation_z);
  std::string test;
  if (c.decided_by == kDecidedByLogRank) {
    test = log_rank + (std::abs(c.critical_z - 1.959963984540054) < 1e-9
                           ? ", alpha " + Format("%g", c.alpha)
                           : ", critical |z| " + Format("%.2f", c.critical_z));
  } else {
    // The deciding test first, named; the log-rank test beside it, so a reader sees where the curves disagree.
    const BrunnerMunzelResult& bm = c.brunner_munzel;
    test = "decided by the Brunner-Munzel test: P(" + c.a + " faster) " + Format("%.2f", bm.probability);
    if (bm.defined) {
      test += ", p " + PValue(bm.p_value) + ", t = " + Format("%.2f", bm.statistic) +
              (bm.exact ? " (exact permutation)" : " at " + Format("%g", bm.degrees_of_freedom) + " df");
    } else {
      test += " (untestable: " +
              std::string(std::min(c.runs_a, c.runs_b) < 2 ? "an entry has fewer than 2 runs" : "every run ties") + ")";
    }
    test += ", alpha " + Format("%g", c.alpha) + "; " + log_rank + " beside it";
  }
  const std::string level = Format("%.3g", c.interval_level * 100) + "%";
  std::string ratio = "the median TTA ratio " + c.a + "/" + c.b + " ";
  if (c.tta_ratio.ratio) ratio += Format("%.2f", *c.tta_ratio.ratio) + " ";
  if (c.tta_ratio.interval) {
    ratio += "has " + level + " interval [" + Bound(c.tta_ratio.interval->lower) + ", " +
             Bound(c.tta_ratio.interval->upper) + "]";
  } else {
    ratio += "(its " + c.tta_ratio.withheld + ")";
  }
  if (c.result == "A faster") return c.a + " reaches the target faster than " + c.b + " (" + test + "; " + ratio + ")";
  if (c.result == "B faster") return c.b + " reaches the target faster than " + c.a + " (" + test + "; " + ratio + ")";
  const bool includes_one =
      c.tta_ratio.interval && c.tta_ratio.interval->lower <= 1 && c.tta_ratio.interval->upper >= 1;
  std::string text = "no difference shown (" + test + "; " + ratio + (includes_one ? ", which includes 1.00" : "");
  if (c.detectable_difference) {
    text += "; with these runs a difference smaller than " + Format("%.0f", *c.detectable_difference * 100) +
            "% could not be detected";
  } else {
    text += "; these runs cannot bound the ratio, so no size of difference can be ruled out";
  }
  return text + ")";
}

namespace {

// Which way an effect size points: -1 towards A faster, +1 towards B faster, 0 neither (its interval holds the
// value of no difference).
int Direction(const Interval& interval, double none, bool lower_means_a_faster) {
  const int sign = lower_means_a_faster ? 1 : -1;
  if (interval.upper < none) return -sign;
  if (interval.lower > none) return sign;
  return 0;
}

std::string IntervalText(const Interval& i, const char* format) {
  return "[" + (std::isfinite(i.lower) ? Format(format, i.lower) : std::string(i.lower > 0 ? "inf" : "-inf")) + ", " +
         (std::isfinite(i.upper) ? Format(format, i.upper) : std::string(i.upper > 0 ? "inf" : "-inf")) + "]";
}

}  // namespace

std::vector<std::string> ComparisonNotes(const EntryComparison& c) {
  const int verdict = c.result == "A faster" ? -1 : c.result == "B faster" ? 1 : 0;
  const std::string faster = verdict < 0 ? c.a : c.b;
  const std::string why =
      c.decided_by == kDecidedByLogRank
          ? "the log-rank test compares the two curves of time to target over their whole length (every run, those "
            "that never reached counted until they stopped), while this figure looks at "
          : "the Brunner-Munzel test asks whether a run of one entry tends to reach sooner than a run of the other "
            "(every pair of runs, a run that never reached slower than any that did, each pair's spread weighed), "
            "while this figure looks at ";
  std::vector<std::string> notes;
  auto note = [&](const std::string& figure, int direction, const std::string& what, const std::string& none) {
    if (direction == verdict) return;
    std::string text;
    if (verdict == 0) {
      text = figure + " points to " + (direction < 0 ? c.a : c.b) +
             " being faster while the test shows no difference: " + why + what +
             "; the verdict is the test's, decided before looking, and this interval is not a test of its own";
    } else if (direction == 0) {
      text = figure + " includes " + none + " (no difference) while the test finds " + faster + " faster: " + why +
             what + ", so the test can show a difference that this figure does not bound away from " + none;
    } else {
      text = figure + " points the other way (" + (direction < 0 ? c.a : c.b) + " faster) while the test finds " +
             faster + " faster: " + why + what + "; the curves cross, so which is faster depends on the question";
    }
    notes.push_back(text);
  };
  const std::string level = Format("%.3g", c.interval_level * 100) + "%";
  if (c.tta_ratio.interval) {
    note("The median TTA ratio's " + level + " interval " + IntervalText(*c.tta_ratio.interval, "%.2f"),
         Direction(*c.tta_ratio.interval, 1, true), "the medians alone", "1");
  }
  if (c.restricted_mean && c.restricted_mean->interval) {
    note(
        "The restricted mean difference's " + level + " interval " + IntervalText(*c.restricted_mean->interval, "%.4g"),
        Direction(*c.restricted_mean->interval, 0, true),
        "the average time up to the horizon " + Format("%.4g", c.restricted_mean->a.horizon), "0");
  }
  const ImprovementProbability& p = c.probability_a_faster;
  if (p.interval) {
    note("P(" + c.a + " faster) " + Format("%.3f", p.probability) + " with " + level + " interval " +
             IntervalText(*p.interval, "%.3f"),
         Direction(*p.interval, 0.5, false),
         "pairs of runs, each pair counting alike whenever in the runs it happened, a run that never reached "
         "slower than any that did",
         "50%");
  } else if (verdict != 0 && (verdict < 0) != (p.probability > 0.5)) {
    note("P(" + c.a + " faster) " + Format("%.3f", p.probability), verdict < 0 ? 1 : -1,
         "pairs of runs, each pair counting alike, a run that never reached slower than any that did", "50%");
  }
  return notes;
}

EntryComparison CompareEntries(const ComparedRuns& a, const ComparedRuns& b, const ComparisonOptions& options) {
  if (a.tta.empty() || b.tta.empty()) throw std::invalid_argument("CompareEntries: both entries need runs");
  const boost::math::normal normal;
  EntryComparison c;
  c.a = a.name;
  c.b = b.name;
  c.alpha = options.alpha;
  c.critical_z = options.critical_z ? *options.critical_z : boost::math::quantile(normal, 1 - options.alpha / 2);
  const double interval_alpha = 2 * boost::math::cdf(boost::math::complement(normal, c.critical_z));
  c.interval_level = 1 - interval_alpha;
  c.runs_a = a.tta.size();
  c.runs_b = b.tta.size();
  c.reached_a = Reached(a.tta);
  c.reached_b = Reached(b.tta);
  c.log_rank = LogRankTest(a.tta, b.tta);
  c.tta_ratio = BootstrapMedianRatio(a.tta, b.tta, interval_alpha, options.resamples);
  if (!a.epochs.empty() && !b.epochs.empty()) {
    c.epochs_ratio = BootstrapMedianRatio(a.epochs, b.epochs, interval_alpha, options.resamples);
  }
  const double horizon = options.horizon ? *options.horizon : DefaultHorizon(a.tta, b.tta);
  if (horizon > 0) {
    c.restricted_mean = CompareRestrictedMeans(a.tta, b.tta, horizon, interval_alpha, a.name, b.name);
  }
  c.probability_a_faster = ProbabilityOfImprovement(TtaOrNever(a.tta), TtaOrNever(b.tta), interval_alpha);
  if (c.tta_ratio.log_standard_error) {
    const double z_power = boost::math::quantile(normal, options.power);
    c.detectable_difference = std::expm1((c.critical_z + z_power) * *c.tta_ratio.log_standard_error);
  }
  c.brunner_munzel = BrunnerMunzelTest(a.tta, b.tta);
  int direction = 0;  // +1 A faster, -1 B faster
  if (options.critical_z) {
    // A sequential look: its boundary is the log-rank test's (stats/group_sequential.h designed it for that test).
    c.decided_by = kDecidedByLogRank;
    if (c.log_rank.permutation_variance > 0 && std::abs(c.log_rank.permutation_z) >= c.critical_z) {
      direction = c.log_rank.permutation_z > 0 ? 1 : -1;
    }
  } else {
    c.decided_by = kDecidedByBrunnerMunzel;
    direction = BrunnerMunzelVerdict(c.brunner_munzel, c.alpha);
  }
  c.result = direction == 0 ? "no difference shown" : direction > 0 ? "A faster" : "B faster";
  c.verdict = ComparisonVerdictText(c);
  c.notes = ComparisonNotes(c);
  return c;
}

std::vector<MethodDescription> ComparisonMethods() {
  return {
      {"Comparison: Brunner-Munzel test (decides the verdict)",
       "t = (P(A faster) - 1/2) / se, se from each entry's placements in the other (Brunner and Munzel's variance), "
       "runs that never reached slower than any that did; two-sided p from the exact permutation distribution of t "
       "up to 15,000 splits of the runs, else Student's t at min(n_A, n_B) - 1 df. Chosen over the log-rank test "
       "because it keeps its power where the curves cross (the faster entry also the more variable one) and its "
       "type I error where medians are equal and spreads are not (simulated at 5 to 40 runs with censoring)",
       "Brunner and Munzel 2000; Neubert and Brunner 2007"},
      {"Comparison: log-rank test (shown beside it; decides a sequential study's looks)",
       "z = (O_A - E_A) / sqrt(V_perm) over the pooled times to target, V_perm the permutation variance of the "
       "log-rank scores (event - Nelson-Aalen H); runs that never reached are censored at the time they stopped. "
       "survdiff's chi-square (hypergeometric variance) is shown beside it; with few runs it rejects too often",
       "Mantel 1966; Peto and Peto 1972; Heimann and Neuhaus 1998; R survival::survdiff"},
      {"Comparison: ratio of median TTA A/B, and of median epochs to target",
       "Kaplan-Meier medians; percentile bootstrap interval, runs resampled within each entry with censoring kept; "
       "withheld below 5 runs of each entry (simulated coverage of the 95% interval: 65% at 2 runs, 89% at 3) and "
       "when more than alpha of the resamples leave the ratio undefined",
       "Efron and Tibshirani 1993, ch. 13"},
      {"Comparison: restricted mean TTA difference",
       "area under each Kaplan-Meier curve up to the horizon (unless stated, the largest both curves define: a curve "
       "whose longest run reached is 0 after it; never beyond a curve's known part; runs that reached after it are "
       "said), Greenwood-type variance times n / (n - 1), Student's t interval with "
       "Welch-Satterthwaite degrees of freedom; withheld when an entry has no run reaching by the horizon",
       "Royston and Parmar 2013; Klein and Moeschberger 2003, sec. 4.5; Welch 1947"},
      {"Comparison: P(A faster)",
       "P(TTA_A < TTA_B) over all run pairs, ties 1/2, runs that never reached slower than any that did; interval: "
       "Newcombe's method 5 (Hanley-McNeil variance as a function of theta, inverted) with Student's t at m + n - 2 "
       "degrees of freedom in place of z, chosen because it keeps 95% in simulation at 2 to 20 runs per entry",
       "Newcombe 2006, Statistics in Medicine 25:559-573; Hanley and McNeil 1982"},
      {"Comparison: detectable difference",
       "exp((z_{1-alpha/2} + z_{0.80}) x se(log ratio)) - 1, se from the ratio's bootstrap interval (withheld with it)",
       "the usual minimum detectable effect at 80% power"},
  };
}

}  // namespace evalsuite::stats
