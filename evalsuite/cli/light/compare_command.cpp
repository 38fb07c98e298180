// evalsuite compare STORE A B [--study S] [--json F] [--alpha 0.05] [--horizon T] [--resamples N]
// Is A's time to accuracy really shorter than B's? The Brunner-Munzel test of P(A faster) decides, the log-rank
// test beside it (runs that never reached are censored at the time they stopped), the ratio of median TTA and of median
// epochs to target with bootstrap intervals, the restricted mean difference up to a stated horizon and P(A faster),
// with a verdict that says what it tested (analysis/pair_answer.h, stats/entry_comparison.h). In a sequential study
// whose question is this pair, the intervals are the repeated confidence intervals of its stopping look.
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "analysis/pair_answer.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "common/test_level.h"
#include "evalsuite/cli/commands.h"
#include "evalsuite/cli/light/option_checks.h"
#include "reports/comparison_section.h"
#include "store/entry_choice.h"
#include "store/run_store.h"
#include "study/study_summary.h"

namespace evalsuite::cli {
namespace {

struct CompareArgs {
  std::string store, a, b, study, json_out;
  double alpha = 0.05;
  std::optional<double> horizon;
  std::size_t resamples = 4000;
};

// A finite figure with `format`, else `otherwise` (the JSON has null there).
std::string Number(const std::optional<double>& v, const char* otherwise, const char* format = "{:.4g}") {
  return v && std::isfinite(*v) ? fmt::format(fmt::runtime(format), *v) : std::string(otherwise);
}

// "median A / median B = ratio [lower, upper]": the interval as the JSON writes it (reports::ComparisonIntervalText).
std::string Ratio(const std::optional<stats::MedianRatio>& r) {
  if (!r) return "-";
  return fmt::format("{} / {} = {} {}", Number(r->median_a, "not reached"), Number(r->median_b, "not reached"),
                     Number(r->ratio, "-", "{:.3f}"),
                     reports::ComparisonIntervalText(r->interval, r->withheld, "{:.3f}"));
}

void Run(const CompareArgs& args) {
  CheckTestLevel(args.alpha);
  if (args.horizon && !(*args.horizon > 0 && std::isfinite(*args.horizon))) {
    throw UsageError("--horizon", "must be a finite number > 0");
  }
  if (args.a == args.b) {
    throw UsageError("compare " + args.a + " " + args.b,
                     "A and B are both '" + args.a + "': name two different entries");
  }
  auto store = store::RunStore::OpenForReading(args.store);
  // A and B may be entries of two studies (two imports of one store): store/entry_choice.h finds each or says where.
  const std::vector<store::EntryLocation> located =
      store::LocateEntries(*store, {args.a, args.b}, args.study, args.store);
  if (located[0].study.id == located[1].study.id && located[0].entry == located[1].entry) {
    throw UsageError("compare " + args.a + " " + args.b,
                     "A and B both name entry '" + located[0].entry + "' of study '" + located[0].study.name + "'");
  }
  std::vector<std::string> shown;
  const reports::StabilityReportInput input = study::BuildReportInputFor(*store, located, shown);
  std::string study_names = located[0].study.name;
  if (located[1].study.id != located[0].study.id) study_names += " and " + located[1].study.name;

  stats::ComparisonOptions options;
  options.alpha = args.alpha;
  options.horizon = args.horizon;
  options.resamples = args.resamples;
  const analysis::PairAnswer answer = analysis::AnswerPair(input.entries, input.settings, shown[0], shown[1], options);
  const stats::EntryComparison& c = answer.comparison;
  nlohmann::json json = reports::EntryComparisonJson(c);
  json["study"] = study_names;
  json["studies"] = {{"a", located[0].study.name}, {"b", located[1].study.name}};
  json["store"] = args.store;

  const std::string level = fmt::format("{:.3g}%", 100 * c.interval_level);
  std::cout << fmt::format(
      "compare {} with {} (study {}): runs that never reached the target are censored at the "
      "time they stopped\n",
      c.a, c.b, study_names);
  if (answer.sequential) {
    const analysis::SequentialOutcome& s = *answer.sequential;
    std::cout << fmt::format("sequential study: {} look(s), {}{}\n", s.looks, s.stop ? s.result + ": " : "", s.reason);
    if (args.alpha != 0.05 && args.alpha != c.alpha) {
      std::cout << fmt::format("  (--alpha {} is not used: the sequential study's design fixed alpha {})\n", args.alpha,
                               c.alpha);
    }
    json["sequential"] = {{"looks", s.looks},
                          {"reason", s.reason},
                          {"result", s.result},
                          {"stopped", s.stop},
                          {"runs_per_entry", s.runs_per_entry},
                          {"runs_after_look", {{"a", answer.after_look_a}, {"b", answer.after_look_b}}}};
  }
  std::cout << "verdict: " << c.verdict << "\n";
  for (const std::string& note : c.notes) std::cout << "  note: " << note << "\n";
  std::cout << fmt::format("  runs                {} {} ({} reached), {} {} ({} reached)\n", c.a, c.runs_a, c.reached_a,
                           c.b, c.runs_b, c.reached_b);
  if (answer.after_look_a + answer.after_look_b > 0) {
    std::cout << fmt::format(
        "  after the look      {} {}, {} {} counted runs recorded after the deciding look: not part of the "
        "decision, not tested (testing them against the look's boundary would not keep alpha)\n",
        c.a, answer.after_look_a, c.b, answer.after_look_b);
  }
  // The interval's method only beside an interval: a withheld one says why instead.
  const bool tta_interval = c.tta_ratio.interval.has_value();
  std::cout << fmt::format(
      "  median TTA          {}{}\n", Ratio(c.tta_ratio),
      tta_interval ? fmt::format(" ({} percentile bootstrap, {} resamples)", level, c.tta_ratio.resamples) : "");
  std::cout << fmt::format("  median epochs       {}\n", Ratio(c.epochs_ratio));
  if (c.restricted_mean) {
    const auto& r = *c.restricted_mean;
    const std::string interval = r.interval
                                     ? fmt::format("[{:.4g}, {:.4g}] ({} t interval, {:.1f} df)", r.interval->lower,
                                                   r.interval->upper, level, r.degrees_of_freedom)
                                     : "(" + r.withheld + ")";
    // A horizon that cuts runs which reached says so on this line: the figures are then not the mean TTAs.
    const std::string truncated = stats::HorizonTruncationText(r, c.a, c.b);
    std::cout << fmt::format(
        "  restricted mean     up to {:.4g}{}: {} {:.4g} (se {:.3g}), {} {:.4g} (se {:.3g}), difference {:.4g} {}\n",
        r.a.horizon, truncated.empty() ? "" : " (" + truncated + ")", c.a, r.a.mean, r.a.standard_error, c.b, r.b.mean,
        r.b.standard_error, r.difference, interval);
  }
  const stats::BrunnerMunzelResult& bm = c.brunner_munzel;
  std::cout << fmt::format(
      "  Brunner-Munzel      P({} faster) {:.4g}{}{}\n", c.a, bm.probability,
      bm.defined ? fmt::format(", t = {:.3f}, p = {:.4g} ({})", bm.statistic, bm.p_value,
                               bm.exact ? "exact permutation" : fmt::format("t at {:g} df", bm.degrees_of_freedom))
                 : std::string(" (untestable)"),
      c.decided_by == stats::kDecidedByBrunnerMunzel ? "; decides the verdict" : "");
  std::cout << fmt::format(
      "  log-rank            z = {:.3f} (permutation variance), p = {:.4g}; survdiff's "
      "chi-square {:.3f}, p = {:.4g}\n",
      c.log_rank.permutation_z, c.log_rank.permutation_p_value, c.log_rank.chi_square, c.log_rank.p_value);
  std::cout << fmt::format("  P({} faster)        {} ({} interval, Newcombe's method 5)\n", c.a,
                           reports::ProbabilityAFasterText(c.probability_a_faster), level);
  if (!args.json_out.empty()) WriteFileAtomically(args.json_out, json.dump(2) + "\n");
}

}  // namespace

void RegisterCompareCommand(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* command =
      app.add_subcommand("compare",
                         "Is A's time to accuracy really shorter than B's? (two entries "
                         "of a study: Brunner-Munzel test, log-rank test, median TTA ratio, restricted mean)");
  command->add_option("STORE", args->store, "the run store (SQLite)")->required();
  command->add_option("A", args->a, "entry A")->required();
  command->add_option("B", args->b, "entry B")->required();
  command->add_option("--study", args->study,
                      "the study, by name or id (default: the only or latest one when it has both entries, else each "
                      "entry wherever it is in the store, named ENTRY or STUDY/ENTRY)");
  command->add_option("--json", args->json_out, "write the comparison as JSON to this file");
  command->add_option("--alpha", args->alpha, "the test's level; intervals are 100 (1 - alpha)% (default 0.05)");
  command->add_option("--horizon", args->horizon,
                      "the restricted mean's horizon, in the runs' time unit (default: the largest both entries' "
                      "curves define: the longer entry's longest run when both entries' longest runs reached, else "
                      "where a run still below the target stopped)");
  command->add_option("--resamples", args->resamples, "bootstrap resamples of the ratio intervals (default 4000)")
      ->check(WholeNumber(100, 1000000));
  command->callback([args] { Run(*args); });
}

}  // namespace evalsuite::cli
