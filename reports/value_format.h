// How numbers from the report model (report_model.h) read in Markdown and HTML (both renderers share it, so the two
// show the same text). An absent or non-finite value (undefined, or a failed run) prints as "—", as report.json has
// null there.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "stats/interval.h"
#include "stats/survival.h"

namespace evalsuite::reports {

extern const char* const kMissing;  // "—"

// A number the renderers print: a finite one, else none (report.json has null there).
std::optional<double> Finite(std::optional<double> value);

// A time or other magnitude, at least three significant digits (common/figure_format.h): 1234, 123.4, 12.35,
// 0.1235, 0.0290.
std::string FormatMagnitude(std::optional<double> value);
std::string FormatMagnitude(double value);
// A share in [0, 1] as a percentage, at least three significant digits and `decimals` decimals ("3.10%", "0.213%").
std::string FormatPercent(std::optional<double> share, int decimals = 1);
std::string FormatPercent(double share, int decimals = 1);
// "3.1% [2.0%, 5.6%]"; a non-finite upper bound of a present interval prints as "∞)" (open interval).
std::string FormatPercentInterval(std::optional<double> value, const std::optional<stats::Interval>& interval,
                                  int decimals = 1);
// "110.0 [100.0, 135.0]" for a time with its interval; an absent upper bound prints as "∞)".
std::string FormatMagnitudeInterval(std::optional<double> value, std::optional<double> lower,
                                    std::optional<double> upper);
// The Kaplan-Meier median with its interval: "20.00 [10.00, upper bound not estimable with 4 runs]" where the
// upper band never reaches one half (R prints NA; "∞" would read as "maybe never").
std::string KaplanMeierMedianText(const stats::KaplanMeierCurve& kaplan_meier, std::size_t runs);
// A threshold or metric value as given ("0.93", "75.9").
std::string FormatThreshold(std::optional<double> value);
std::string FormatThreshold(double value);
// A p-value: 4 significant digits, "< 0.0001" below that.
std::string FormatPValue(std::optional<double> value);
// A count as an integer ("5").
std::string FormatCount(std::size_t value);

// The renderers read the typed model, never JSON: a JSON value here is a compile error, not a silent "—" (a section
// made elsewhere is read once by its parser: generalization_section.h, hardware_section.h, mlperf_table.h).
std::string FormatMagnitude(const nlohmann::json&) = delete;
std::string FormatPercent(const nlohmann::json&, int = 1) = delete;
std::string FormatThreshold(const nlohmann::json&) = delete;
std::string FormatPValue(const nlohmann::json&) = delete;

// "s", "min", "h" for the time units entries use; other units as they are.
std::string TimeUnitSymbol(const std::string& unit);
// The progress axis (what a run's "epoch" counts: epochs, samples, steps, tokens, evaluations), as the importer
// named it (runlog::kProgressUnitKey): "ep", "samples", "steps", "tokens", "evals" in figures, and a column heading
// "Samples to target".
std::string ProgressUnitSymbol(const std::string& unit);
std::string ProgressUnitHeading(const std::string& unit);

}  // namespace evalsuite::reports
