// Stored studies seen from outside: the report's input built from the store (every attempt, incomplete ones
// marked so reports/ leaves them out of statistics), and the compact tables of `study list` and `study show`.
#pragma once

#include <string>
#include <vector>

#include "reports/report_input.h"
#include "store/entry_choice.h"
#include "store/run_store.h"

namespace evalsuite::study {

// What BuildReportInput does with the hardware rows the store yields (study/hardware/).
enum class StoreHardwareRows {
  kDecode,         // decoded with the study's ceilings (reports::DecodeHardwareSection): the input is ready
  kLeaveUndecoded  // left in `hardware_given`, for `report --section hardware=F` to join before it decodes them
};

// One or more studies of one store. With several, an entry name two studies share becomes "study/entry" and the plan is
// {"studies": {name: plan}}. The rule is the (first) study plan's [stability], else the default.
reports::StabilityReportInput BuildReportInput(store::RunStore& store, const std::vector<store::StudyInfo>& studies,
                                               StoreHardwareRows hardware = StoreHardwareRows::kDecode);
// The input of the studies that hold `located` (store/entry_choice.h), and in `shown` the name under which each
// located entry appears there (its own, or "study/entry" where two of those studies share the name).
reports::StabilityReportInput BuildReportInputFor(store::RunStore& store,
                                                  const std::vector<store::EntryLocation>& located,
                                                  std::vector<std::string>& shown);

// id, name, kind, created, runs recorded of planned, complete or not.
std::string FormatStudyList(store::RunStore& store);

// Per entry: runs recorded of planned, reached, failed, interrupted attempts, the statistics of
// stats/stability_statistics.h that have a summary column (median TTA, CoV with its interval, hit rate with its
// interval, CoV of time per epoch), the verdict under the study's rule and the basis it was judged on
// (stats/entry_verdict.h, as the report judges it).
std::string FormatStudySummary(store::RunStore& store, const store::StudyInfo& study);

}  // namespace evalsuite::study
