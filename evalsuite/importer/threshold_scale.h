// A --threshold is typed on the scale a user last saw: reports show targets as fractions ("top1Accuracy >= 0.94"),
// DAWNBench's TSVs hold percentages (94). This is the one place that reads a typed threshold onto a file's scale:
// a value on the other scale is converted and a note says so; a value on neither is refused.
#pragma once

#include <string>

namespace evalsuite::importer {

struct ResolvedThreshold {
  double value = 0;  // in the file's units (percent for a percent column)
  std::string note;  // how it was read, for the user (names no file: one note serves every file); may be empty
};

// `percent`: the file's values are percentages in [0, 100]; else fractions in [0, 1]. Throws UsageError on
// "--threshold" when `given` is on neither scale (negative, NaN, above 100) naming `metric` and `file`.
ResolvedThreshold ResolveThreshold(double given, bool percent, const std::string& metric, const std::string& file);

}  // namespace evalsuite::importer
