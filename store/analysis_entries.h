// The store's records as analysis reads them (analysis/run.h): the one conversion, used by the report, `study show`,
// the sequential decision and run planning.
#pragma once

#include <vector>

#include "analysis/run.h"
#include "store/run_store.h"

namespace evalsuite::store {

// The record as analysis reads it; `resumable`: its study is one resume continues (kind "study").
analysis::Run ToAnalysisRun(const RunRecord& run, bool resumable);

// A study's entries in the store's order, each with every attempt (its name as stored; extra["study"] = the study's
// name). Runs of an entry without an entry row come last, as entries of their own.
std::vector<analysis::Entry> LoadAnalysisEntries(RunStore& store, const StudyInfo& study);
// The same from the study's records as LoadRuns gave them.
std::vector<analysis::Entry> AnalysisEntriesOf(RunStore& store, const StudyInfo& study,
                                               const std::vector<RunRecord>& records);

}  // namespace evalsuite::store
