// The study plan's questions about two entries: `compare = [["A", "B"], ...]` (a report section per pair,
// reports/comparison_section.h) and the `[sequential]` table, which makes the study stop as soon as its question
// is answered (study/execution/sequential_stopping.h). The typed settings live in
// analysis/analysis_settings.h, which also writes and reads their stored form:
//   [sequential]
//   min_runs = 3          # the first look: runs per entry
//   max_runs = 20         # the last look; the plan schedules this many runs per entry (runs, if given, must agree)
//   alpha = 0.05          # the error rate kept over all looks
//   question = ["A", "B"] # is A faster than B (group-sequential log-rank), or "stability" (every entry judged)
#pragma once

#include <toml++/toml.h>

#include "study/plans/study_plan.h"
#include "study/plans/toml_reader.h"

namespace evalsuite::study {

// Reads `compare` and `[sequential]` off the study file's root into `plan` (entries already read). With
// [sequential], plan.runs becomes max_runs; `runs_line` is the line of an explicit `runs` (0: none, or --runs when
// `runs_from_flag`), which must then equal max_runs. Errors name the file, the line and the key.
void ReadComparisonKeys(const toml::table& root, const TomlReader& reader, long runs_line, bool runs_from_flag,
                        StudyPlan& plan);

}  // namespace evalsuite::study
