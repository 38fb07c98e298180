// A --threshold is typed on the scale a user last saw: reports show targets as fractions ("top1Accuracy >= 0.94"),
// DAWNBench's TSVs hold percentages (94). This is the one place that reads a typed threshold onto a file's scale:
// a value on the other scale is converted and a note says so; a value on neither is refused.
#pragma once

#include <string>

#include "importer/mlperf_rules.h"

namespace evalsuite::importer {

struct ResolvedThreshold {
  double value = 0;  // in the file's units (percent for a percent column)
  std::string note;  // how it was read, for the user (names no file: one note serves every file); may be empty
};

// `percent`: the file's values are percentages in [0, 100]; else fractions in [0, 1]. Throws UsageError on
// "--threshold" when `given` is on neither scale (negative, NaN, above 100) naming `metric` and `file`.
ResolvedThreshold ResolveThreshold(double given, bool percent, const std::string& metric, const std::string& file);

// A --threshold for an MLPerf benchmark, typed as the log writes its metric: a higher-is-better fraction (bert's
// 0.72, or 72 read as a percentage with a note), a lower-is-better loss or perplexity as it is (0.925; a negative
// value is refused, not taken as the store's negated form), WER as a fraction or percentage, maskrcnn's and stable
// diffusion's combined targets on their combined scale (1 = the rules' targets). `rule` may be null (an unknown
// benchmark: the value as logged). Throws UsageError on "--threshold" naming `where` when the value cannot be one.
struct MlperfThreshold {
  double stored = 0;      // higher is better, in the store's units (StoredMetric's)
  double as_logged = 0;   // the target in the log's units, as the user means it
  std::string shown;      // "eval_loss <= 0.925", "mlm_accuracy >= 0.72": the target as people read it
  bool official = false;  // the rules' own target: the official score and the RCP check still apply
  std::string note;       // how the value was read (empty when it needed no reading)
};
MlperfThreshold ResolveMlperfThreshold(double given, const BenchmarkRule* rule, const std::string& where);

// The rules' own target as people read it ("eval_loss <= 0.925"); empty when the rules name none.
std::string ShownMlperfTarget(const BenchmarkRule& rule);

}  // namespace evalsuite::importer
