#include "reports/report_json_fields.h"

#include <sstream>

namespace evalsuite::reports {

const std::vector<ReportJsonFieldDoc>& ReportJsonFields() {
  static const std::vector<ReportJsonFieldDoc> fields = {
      // The top level, in the file's order.
      {"schema_version", "integer", "report.json's format version; raised when a key changes meaning", ""},
      {"title", "string", "the report's title", ""},
      {"generated_at", "string", "when the report was written (UTC, ISO 8601)", ""},
      {"environment", "object",
       "the machine and build: CPU (model, ISA flags, oneDNN's ISA cap and why), cores, compiler, evalsuite version "
       "and git revision, and the machine's measured ceilings (peak FLOP/s, bandwidth, step probes)",
       ""},
      {"plan", "object",
       "the study as it was run: every key of the study file after defaults (docs/reference/study-file.md), its "
       "entries and the run schedule (entry, index, seed of every run)",
       ""},
      {"rule", "object", "the stability rule every verdict applies", ""},
      {"points_file", "string",
       "the JSON Lines file beside report.json holding every run's evaluations (time, progress, metric)", ""},
      {"verdicts", "array", "one stability verdict per entry", ""},
      {"table", "array", "one row per entry: DAWNBench's Tables 2-3 (CoV, hit rate, median TTA...)", ""},
      {"entries", "array", "everything about each entry: its runs, statistics, sensitivity and charts' data", ""},
      {"comparisons", "array", "every pair of entries: the probability that one is faster", ""},
      {"methods", "array", "each statistic the report uses, its formula and its source", ""},
      {"compare", "object", "`evalsuite compare`'s answer for the study's pair (reports/comparison_section.h)",
       "the study names a pair to compare"},
      {"cost", "object", "cost to target at the plan's price per hour (reports/cost_section.h)",
       "the plan sets cost_per_hour, or runs record a cost"},
      {"variance_sources", "array",
       "each entry's split of TTA's variance between the seed sources the design varied, with intervals "
       "(docs/variance.md)",
       "the study has a [variance] design"},
      {"hardware", "object",
       "the roofline of each entry: FLOPs, bytes, achieved vs peak, utilization (docs/stability-and-hardware.md)",
       "runs recorded hardware counters, or `--section hardware=FILE`"},
      {"generalization", "object",
       "the holdout evaluation: models' top-1/top-5 with intervals, paired tests, the verdict (docs/holdout.md)",
       "`--section generalization=FILE`"},
      // variance_sources[]
      {"variance_sources[].entry", "string", "the entry", ""},
      {"variance_sources[].varied", "array", "the sources the design varied: init, data_order, augmentation", ""},
      {"variance_sources[].runs", "integer", "the design's counted runs that ended (reached or not)", ""},
      {"variance_sources[].not_reached", "integer", "of those, the runs left out of TTA: they never reached", ""},
      {"variance_sources[].failed", "integer", "counted runs that failed before reaching, left out of everything", ""},
      {"variance_sources[].levels", "integer", "the most seeds any varied source had", ""},
      {"variance_sources[].repeats", "integer", "the most runs any combination of seeds had", ""},
      {"variance_sources[].withheld", "string or null", "why the whole analysis cannot be made", ""},
      {"variance_sources[].cov_tta", "number or null", "the CoV of TTA, sqrt(exp(total) - 1) of ln TTA's components",
       ""},
      {"variance_sources[].shares", "array",
       "ln TTA's components, the largest first: {source, share, share_interval, cov_alone, cov_alone_interval}", ""},
      {"variance_sources[].hold_to_halve", "object or null",
       "the fewest sources whose seeds, held, halve the CoV: {hold, cov_left}", ""},
      {"variance_sources[].levels_needed", "object or null",
       "levels of each of the two largest sources that tell them apart: {first, second, levels, repeats}", ""},
      {"variance_sources[].same_seeds", "object or null",
       "what identical seeds did twice: {cells, degrees_of_freedom, variance, variance_interval, identical, "
       "training_identical}",
       ""},
      {"variance_sources[].responses", "array",
       "the components of ln TTA, ln epochs to target, time per epoch and the final metric: {response, runs_used, "
       "runs_left_out, left_out_reason, withheld, method, mean, components}",
       ""},
      // rule
      {"rule.statement", "string", "the rule in words, as the report prints it", ""},
      {"rule.basis", "string", "what the CoV is of: time to target, or epochs to target", ""},
      {"rule.max_cov_upper", "number", "the CoV's upper 95% bound must lie under this", ""},
      {"rule.min_hit_rate", "number", "the share of runs that must reach the target", ""},
      {"rule.min_reached", "integer", "the fewest runs that must reach the target for a CoV", ""},
      {"rule.consecutive_evaluations", "integer",
       "evaluations at or past the target in a row that count as reaching it", ""},
      {"rule.assurance", "number", "the probability with which 'runs that would tell' should decide", ""},
      // verdicts[]
      {"verdicts[].entry", "string", "the entry judged", ""},
      {"verdicts[].result", "string", "STABLE, NOT STABLE or INCONCLUSIVE", ""},
      {"verdicts[].stable", "boolean", "result is STABLE", ""},
      {"verdicts[].first_line", "string or null", "the verdict's headline as the report prints it", ""},
      {"verdicts[].reasons", "array of strings", "one line per criterion of the rule, then what more runs would do",
       ""},
      {"verdicts[].criteria", "array", "each criterion: {criterion, outcome (met, not met, undecided), detail}", ""},
      {"verdicts[].basis", "string", "time or epochs: what the verdict's CoV is of", ""},
      {"verdicts[].result_on_epochs", "string or null",
       "the verdict on epochs to target, beside the one on time (the machine's part removed)", ""},
      {"verdicts[].threshold", "number", "the target the runs had to reach", ""},
      {"verdicts[].runs", "integer", "runs counted", ""},
      {"verdicts[].reached", "integer", "runs that reached the target", ""},
      {"verdicts[].cov", "number or null", "CoV of time to target over the reached runs", ""},
      {"verdicts[].cov_interval", "object or null", "its 95% interval {lower, upper} (McKay)", ""},
      {"verdicts[].reached_runs_needed", "integer or null",
       "reached runs that would decide with the rule's assurance, where more would tell", ""},
      {"verdicts[].reached_runs_even_odds", "integer or null", "reached runs that would decide with even odds", ""},
      {"verdicts[].assurance", "number or null", "the assurance reached_runs_needed was computed for", ""},
      // table[]
      {"table[].entry", "string", "the entry", ""},
      {"table[].metric", "string", "the validation metric (top1, accuracy, ...)", ""},
      {"table[].threshold", "number", "the target", ""},
      {"table[].time_unit", "string", "what TTA counts: seconds, or the log's own unit", ""},
      {"table[].progress_unit", "string", "what epochs to target count: epochs, samples, steps", ""},
      {"table[].runs", "integer", "runs counted", ""},
      {"table[].reached", "integer", "runs that reached the target", ""},
      {"table[].busy_runs", "integer", "runs measured while the machine was busy with other work", ""},
      {"table[].cov", "number or null", "CoV of time to target (reached runs)", ""},
      {"table[].cov_lower", "number or null", "its 95% interval's lower end", ""},
      {"table[].cov_upper", "number or null", "its 95% interval's upper end", ""},
      {"table[].epochs_cov", "number or null", "CoV of epochs to target", ""},
      {"table[].epochs_cov_lower", "number or null", "its 95% interval's lower end", ""},
      {"table[].epochs_cov_upper", "number or null", "its 95% interval's upper end", ""},
      {"table[].time_per_epoch_cov", "number or null", "CoV of time per epoch: the machine's part", ""},
      {"table[].hit_rate", "number", "share of runs that reached the target", ""},
      {"table[].hit_rate_lower", "number", "its 95% Clopper-Pearson interval's lower end", ""},
      {"table[].hit_rate_upper", "number", "its 95% Clopper-Pearson interval's upper end", ""},
      {"table[].median_tta", "number or null", "median time to target, Kaplan-Meier where runs missed it", ""},
      {"table[].median_tta_basis", "string", "how median_tta was computed (reached runs, or Kaplan-Meier)", ""},
      {"table[].median_tta_reached", "number or null", "median over the reached runs only", ""},
      {"table[].median_epochs", "number or null", "median epochs to target", ""},
      {"table[].olympic_mean", "number or null", "mean without the fastest and slowest run (MLPerf's rule)", ""},
      {"table[].ert", "number or null", "expected running time to a first success (restarts included)", ""},
      {"table[].tta_resolution", "number or null", "time between evaluations: TTA cannot be finer", ""},
      {"table[].tta_grid_coarser_than_spread", "boolean",
       "the evaluation grid is coarser than the runs' spread (the CoV is then mostly the grid)", ""},
      {"table[].epochs_resolution", "number or null", "epochs between evaluations", ""},
      {"table[].epochs_grid_coarser_than_spread", "boolean", "as above, for epochs to target", ""},
      // entries[]
      {"entries[].name", "string", "the entry", ""},
      {"entries[].description", "string", "what the entry is", ""},
      {"entries[].source", "string", "builtin, external, mlperf, dawnbench or the imported format", ""},
      {"entries[].metric", "string", "the validation metric", ""},
      {"entries[].threshold", "number", "the target", ""},
      {"entries[].time_unit", "string", "what TTA counts", ""},
      {"entries[].progress_unit", "string", "what epochs to target count", ""},
      {"entries[].extra", "object", "the entry's own settings as recorded (epochs, timeout, study, ...)", ""},
      {"entries[].runs", "array", "every run, counted or not, in index order", ""},
      {"entries[].stats", "object", "every statistic at the target (below)", ""},
      {"entries[].epochs_to_target", "object or null",
       "the same statistics in epochs; null unless every counted run has epochs", ""},
      {"entries[].sensitivity", "object",
       "the statistics at thresholds around the target: {grid {step, steps_below, steps_above, extra_thresholds, "
       "rule}, thresholds [stats + is_target, within_noise_of_target]}",
       ""},
      {"entries[].threshold_noise", "object or null",
       "the validation set's own noise at the target: standard error, thresholds within it", ""},
      {"entries[].variation", "object or null",
       "the CoV of TTA split into epochs to target (the seed) and time per epoch (the machine), with shares", ""},
      {"entries[].expected_best", "array", "expected TTA of the fastest of n runs, n = 1, 2, ...", ""},
      {"entries[].contention", "object or null",
       "the machine's other work during the runs: load, busy cores, steal, CPU pressure; busy runs", ""},
      {"entries[].curves", "object",
       "what the entry's chart draws: every run's points up to 20 runs, beyond a band of quantiles and a few runs", ""},
      // entries[].runs[]
      {"entries[].runs[].index", "integer", "the run's index in the entry (its seed follows from it)", ""},
      {"entries[].runs[].status", "string", "reached, missed, failed, timed_out, incomplete or did_not_run", ""},
      {"entries[].runs[].counted", "boolean", "the run enters the statistics (incomplete runs do not)", ""},
      {"entries[].runs[].seeds", "object or null", "the run seed and the streams derived from it, with how", ""},
      {"entries[].runs[].tta", "number or null", "time to target; null when it was not reached (never a cap)", ""},
      {"entries[].runs[].epochs_to_target", "number or null", "epochs to target", ""},
      {"entries[].runs[].time_spent", "number or null", "time the run trained, reached or not", ""},
      {"entries[].runs[].wall_seconds", "number or null", "the run's wall time, set-up included", ""},
      {"entries[].runs[].threads", "integer or null", "threads the run used", ""},
      {"entries[].runs[].evaluations", "integer", "its evaluations (the points are in points_file)", ""},
      {"entries[].runs[].error", "string or null", "why the run failed", ""},
      {"entries[].runs[].contention", "object or null", "the machine's other work during this run", ""},
      {"entries[].runs[].precision", "object or null",
       "built-in entries: the precision and recipe the run used and the timed steps that chose it", ""},
      // entries[].stats
      {"entries[].stats.threshold", "number", "the target", ""},
      {"entries[].stats.alpha", "number", "1 - the intervals' confidence", ""},
      {"entries[].stats.consecutive_evaluations", "integer", "evaluations in a row that count as reaching", ""},
      {"entries[].stats.runs", "integer", "runs counted", ""},
      {"entries[].stats.reached", "integer", "runs that reached the target", ""},
      {"entries[].stats.tta", "array of numbers", "the reached runs' times to target", ""},
      {"entries[].stats.tta_summary", "object", "{n, mean, median, stddev, min, max} of tta", ""},
      {"entries[].stats.cov", "number or null", "CoV of tta", ""},
      {"entries[].stats.cov_interval", "object or null", "its 95% interval (McKay)", ""},
      {"entries[].stats.hit_rate", "number", "share of runs that reached", ""},
      {"entries[].stats.hit_rate_interval", "object", "its 95% Clopper-Pearson interval", ""},
      {"entries[].stats.olympic_mean", "number or null", "mean without the fastest and slowest", ""},
      {"entries[].stats.ert", "number or null", "expected running time to a first success", ""},
      {"entries[].stats.resolution", "number or null", "time between evaluations", ""},
      {"entries[].stats.grid_coarser_than_spread", "boolean", "the evaluation grid is coarser than the spread", ""},
      {"entries[].stats.kaplan_meier", "object",
       "survival of 'not yet at target' over time: steps [{time, at_risk, events, survival, lower, upper}], the "
       "median and its interval (censored runs kept)",
       ""},
      // comparisons[]
      {"comparisons[].a", "string", "one entry", ""},
      {"comparisons[].b", "string", "the other", ""},
      {"comparisons[].runs_a", "integer", "a's runs", ""},
      {"comparisons[].runs_b", "integer", "b's runs", ""},
      {"comparisons[].probability_a_faster", "number or null",
       "P(a run of a reaches the target sooner than a run of b), censored runs included", ""},
      {"comparisons[].interval", "object or null", "its 95% interval", ""},
      {"comparisons[].interval_withheld", "string or null", "why the interval is withheld, where it is", ""},
      // methods[]
      {"methods[].name", "string", "the statistic", ""},
      {"methods[].formula", "string", "how it is computed", ""},
      {"methods[].source", "string", "its citation (docs/methods.md has the simulations that check it)", ""},
  };
  return fields;
}

const std::vector<std::string>& ReportJsonDocumentedObjects() {
  static const std::vector<std::string> objects = {"",
                                                   "rule",
                                                   "verdicts[]",
                                                   "table[]",
                                                   "entries[]",
                                                   "entries[].runs[]",
                                                   "entries[].stats",
                                                   "comparisons[]",
                                                   "methods[]",
                                                   "variance_sources[]"};
  return objects;
}

std::string ReportJsonFieldsMarkdown() {
  std::ostringstream out;
  out << "# report.json\n\n"
      << "Generated by `evalsuite reference --out docs/reference` from the table the tests check report.json "
      << "against (reports/report_json_fields.cpp); do not edit by hand. `evalsuite report` and `study run` write "
      << "report.json beside report.md and report.html: every figure of the report, every non-finite or absent "
      << "number as null (a run that missed the target has tta null, never a capped time). [] steps into every "
      << "element of an array. Objects nested deeper are described at their parent; "
      << "[reading the report](../reading-the-report.md) says how to read each part.\n";
  std::string object = "-";
  for (const ReportJsonFieldDoc& field : ReportJsonFields()) {
    const size_t dot = field.path.rfind('.');
    const std::string parent = dot == std::string::npos ? "" : field.path.substr(0, dot);
    if (parent != object) {
      object = parent;
      out << "\n## " << (parent.empty() ? "Top level" : "`" + parent + "`") << "\n\n"
          << "| key | type | meaning |\n|---|---|---|\n";
    }
    const std::string key = dot == std::string::npos ? field.path : field.path.substr(dot + 1);
    out << "| `" << key << "` | " << field.type << " | " << field.meaning
        << (field.present_when.empty() ? "" : " (only when " + field.present_when + ")") << " |\n";
  }
  return out.str();
}

}  // namespace evalsuite::reports
