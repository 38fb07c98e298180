#include "reports/tidy_csv.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "analysis/run_counting.h"
#include "stats/curve.h"

namespace evalsuite::reports {
namespace {

// Shortest text that reads back as the same double (%.17g would print 0.1 as 0.10000000000000001).
std::string Number(double value) {
  if (!std::isfinite(value)) return "";
  return fmt::format("{}", value);
}

std::string Number(const std::optional<double>& value) { return value ? Number(*value) : ""; }

std::string Row(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + CsvField(fields[i]);
  return line + "\n";
}

std::string SeedOf(const analysis::Run& run) {
  if (run.seeds.run) return std::to_string(*run.seeds.run);
  // A run seed that is not an unsigned integer (a string, a negative number), as the log gave it.
  const auto it = run.seeds.other.find("run");
  if (it == run.seeds.other.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string EntryOrigin(const analysis::Entry& entry) {
  const auto it = entry.extra.find("source");
  return it != entry.extra.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string RunsCsv(const std::vector<TidyStudy>& studies) {
  std::string out = Row({"study",      "study_kind",  "entry",       "entry_source", "metric",
                         "time_unit",  "threshold",   "run_index",   "attempt",      "status",
                         "counted",    "seed",        "tta",         "reached",      "epochs_to_target",
                         "time_spent", "evaluations", "best_metric", "origin",       "entry_origin"});
  for (const TidyStudy& study : studies) {
    for (const analysis::Entry& entry : study.entries) {
      const std::vector<bool> counted = analysis::CountedFlags(entry);
      for (std::size_t i = 0; i < entry.runs.size(); ++i) {
        const analysis::Run& run = entry.runs[i];
        const stats::RunCurve curve = analysis::TimeCurveOf(run);
        const std::optional<double> tta =
            stats::TimeToTarget(curve.points, entry.threshold, study.consecutive_evaluations);
        std::optional<double> epochs;
        if (tta && analysis::HasEpochs(run)) {
          epochs =
              stats::TimeToTarget(analysis::EpochCurveOf(run).points, entry.threshold, study.consecutive_evaluations);
        }
        std::optional<double> best;
        for (const stats::CurvePoint& p : run.points) best = best ? std::max(*best, p.metric) : p.metric;
        out += Row({study.name,
                    study.kind,
                    entry.name,
                    entry.source,
                    entry.metric,
                    entry.time_unit,
                    Number(entry.threshold),
                    std::to_string(run.index),
                    std::to_string(run.attempt),
                    analysis::RunStatusName(run.status),
                    counted[i] ? "true" : "false",
                    SeedOf(run),
                    Number(tta),
                    tta ? "true" : "false",
                    Number(epochs),
                    Number(curve.time_spent),
                    std::to_string(run.points.size()),
                    Number(best),
                    run.origin,
                    EntryOrigin(entry)});
      }
    }
  }
  return out;
}

std::string EvaluationsCsv(const std::vector<TidyStudy>& studies) {
  std::string out = Row({"study", "entry", "run_index", "attempt", "evaluation", "epoch", "time", "metric"});
  for (const TidyStudy& study : studies) {
    for (const analysis::Entry& entry : study.entries) {
      for (const analysis::Run& run : entry.runs) {
        for (std::size_t k = 0; k < run.points.size(); ++k) {
          const std::string epoch = k < run.epochs.size() ? Number(run.epochs[k]) : "";
          out += Row({study.name, entry.name, std::to_string(run.index), std::to_string(run.attempt), std::to_string(k),
                      epoch, Number(run.points[k].time), Number(run.points[k].metric)});
        }
      }
    }
  }
  return out;
}

}  // namespace evalsuite::reports
