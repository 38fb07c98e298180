// Reading a study file's `[variance]` table into the plan (the design itself, its runs and seeds, is
// variance_design.h's). Part of loading a study file (study_plan_loader.h), a floor above the plan's types.
#pragma once

#include <toml++/toml.h>

#include "study/plans/study_plan.h"
#include "study/plans/toml_reader.h"

namespace evalsuite::study {

// Reads `[variance]` off the study file's root into plan.analysis.variance and sets plan.runs to the design's runs
// (entries,
// `[sequential]` and the runs key already read). `runs_line`: the line of an explicit `runs` (0: none); with
// `runs_from_flag`, --runs was given. Refused at the key, with the reason: an unknown or repeated source, levels < 2,
// repeats < 1, more runs than a study plans, a varied source an external entry's command has no placeholder for, a
// `runs` that disagrees, a `[sequential]` study.
void ReadVarianceKeys(const toml::table& root, const TomlReader& reader, long runs_line, bool runs_from_flag,
                      StudyPlan& plan);

}  // namespace evalsuite::study
