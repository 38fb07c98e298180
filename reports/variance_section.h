// The report's "Sources of variance" section: for a study with a [variance] design (analysis/analysis_settings.h
// VarianceSettings), each entry's split of TTA's variance between the seed sources it varied and what the same seeds
// did twice (analysis/variance_sources.h), as report.json's "variance_sources", the sentences a researcher acts on,
// a table of every response's components and a chart of the shares with their intervals. `study show` prints
// VarianceSummaryLine per entry.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/variance_sources.h"
#include "reports/report_input.h"
#include "reports/report_model.h"
#include "reports/report_table.h"

namespace evalsuite::reports {

inline constexpr const char* kVarianceSectionKey = "variance_sources";

// Every entry's, in the input's order; empty unless the plan is a variance design.
std::vector<EntryVarianceModel> VarianceSection(const StabilityReportInput& input);

nlohmann::json VarianceSectionJson(const std::vector<EntryVarianceModel>& section);

// A source's name as a reader says it: "initialization", "data order", "augmentation", or "the residual (same seeds
// again, interactions)": nondeterminism and the sources' interactions, which the model leaves in it together (the
// "same seeds again" sentence gives the spread within combinations alone).
std::string SourceLabel(const std::string& source);

// One line: the CoV of TTA and each source's share with its interval, largest first, and what to hold; or why the
// figures are withheld.
std::string VarianceSummaryLine(const analysis::VarianceSources& v);

// The answer in sentences: the line above, the CoV each source gives alone, what to hold to halve the CoV, the
// levels to tell the two largest apart, what identical seeds did, and which runs were left out.
std::vector<std::string> VarianceSentences(const analysis::VarianceSources& v);

// Every response's components: response, source, variance [interval], share [interval], runs used.
ReportTable VarianceComponentsTable(const analysis::VarianceSources& v);

// Stacked bars of ln TTA's shares per entry, each segment's interval drawn as a whisker beside it (SVG).
std::string VarianceSharesChart(const std::vector<EntryVarianceModel>& section);

inline constexpr const char* kVarianceNote =
    "Each source's seed was drawn at a few levels, crossed with the others', and each combination run again with the "
    "same seeds; a random-effects model (REML) splits ln TTA's variance between the sources and what the same seeds "
    "did twice (nondeterminism, with the sources' interactions). Shares are of that variance; \"alone\" is the CoV of "
    "TTA if only that source varied. Runs that never reached the target are left out of TTA and counted.";

}  // namespace evalsuite::reports
