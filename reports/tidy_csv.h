// Runs and evaluations as tidy CSV (one row per attempt, one per evaluation; RFC 4180 quoting), for people who take
// them to pandas or R: every row carries the study, its kind and the entry it was filed under, and each attempt where
// it came from (run folder or imported file, and the entry's source), so the identity a user sees is the one every
// answer of evalsuite used. Status, counted and TTA are the analysis layer's own (analysis/run_counting.h), not
// recomputed here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "analysis/run.h"

namespace evalsuite::reports {

struct TidyStudy {
  std::string name;
  std::string kind;  // "study" or "import"
  std::vector<analysis::Entry> entries;
  std::size_t consecutive_evaluations = 1;  // the study's TTA crossing rule
};

// runs.csv: study, study_kind, entry, entry_source, metric, time_unit, threshold, run_index, attempt, status, counted,
// seed, tta, reached, epochs_to_target, time_spent, evaluations, best_metric, origin, entry_origin.
std::string RunsCsv(const std::vector<TidyStudy>& studies);
// evaluations.csv: study, entry, run_index, attempt, evaluation, epoch, time, metric.
std::string EvaluationsCsv(const std::vector<TidyStudy>& studies);

// A field as RFC 4180 writes it: quoted when it holds a comma, a quote, CR or LF (quotes doubled).
std::string CsvField(const std::string& text);

}  // namespace evalsuite::reports
