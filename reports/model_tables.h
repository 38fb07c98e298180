// The report model's own tables (report_table.h's ReportTable): the Tables 2-3 view, each entry's runs, threshold
// grid and expected best, the comparisons, the methods and the environment, with the notes printed under them.
// A floor above the sections, whose helpers some of these tables use; the outline (report_outline.h) places them.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/report_model.h"
#include "reports/report_table.h"

namespace evalsuite::reports {

// The DAWNBench Tables 2-3 view: one row per entry of the model's table, a column per statistic of
// stats/stability_statistics.h (those sharing a heading share a column).
ReportTable StabilityTable(const std::vector<TableRowModel>& rows);
// What the table's epoch and time-per-epoch columns are for, printed under it by both renderers.
inline constexpr const char* kEpochsColumnNote =
    "CoV of epochs to target counts the same runs in epochs instead of seconds, which leaves the machine's speed "
    "out: when it is much smaller than the CoV of TTA, the time per epoch varied more than the training did. CoV of "
    "time per epoch (each run's TTA / its epochs to target) is the machine's part; each verdict states how the "
    "variance of TTA splits between the two.";
// Raw per-run values of one entry: its first kRunsListed runs (RunsNotListedNote says where the others are), so that
// a report of thousands of runs stays quick to open.
constexpr std::size_t kRunsListed = 50;
ReportTable RunsTable(const EntryModel& entry);
// "" up to kRunsListed runs; beyond, the sentence that says how many are not listed and where they are.
std::string RunsNotListedNote(const EntryModel& entry);
// The entry's statistics over its threshold grid; the target's row says so in its first cell.
ReportTable SensitivityTable(const EntryModel& entry);
// Probability of improvement between entries (the model's comparisons).
ReportTable ComparisonsTable(const std::vector<EntryComparisonModel>& comparisons);
inline constexpr const char* kComparisonsNote =
    "P(TTA_A < TTA_B): the chance that a run of A reaches the target sooner than a run of B, over every pair of "
    "their runs (ties count one half; a run that never reached is slower than any that did; Agarwal et al. 2021, "
    "rliable; Bouthillier et al. 2021), with Newcombe's interval (method 5, Hanley-McNeil variance inverted, "
    "Student's t; Newcombe 2006), the interval the table names. 50% = no difference.";
// Expected best-of-n TTA of one entry (Dodge et al. 2019).
ReportTable ExpectedBestTable(const EntryModel& entry);
inline constexpr const char* kExpectedBestNote =
    "What reporting the best of n runs buys (Dodge et al. 2019, expected validation performance of -TTA): the "
    "expected fastest TTA among n runs drawn from these, given that at least one reaches the target.";
// The rules and formulas the report uses, with their sources (the model's methods).
ReportTable MethodsTable(const std::vector<MethodModel>& methods);
// The environment object (user data, as recorded) flattened to dotted keys.
ReportTable EnvironmentTable(const nlohmann::json& environment);

// "run=3 init=17 …" for a run's seeds object.
std::string SeedsText(const analysis::RunSeeds& seeds);

}  // namespace evalsuite::reports
