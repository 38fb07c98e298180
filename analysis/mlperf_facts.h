// The MLPerf facts `evalsuite import` records in an imported entry's extra (evalsuite/importer/mlperf_group.cpp):
// ruleset and division, training throughput, the RCP check, the official score and each run's standing. One struct,
// read from the stored JSON once by MlperfFactsFromJson; the importer's summary, `study show` and the report read
// the struct. A field the record lacks, or holds with another type, is absent.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::analysis {

// The median training throughput over the successful runs, and the runs whose figure was withheld.
struct MlperfThroughputFacts {
  std::optional<double> median_samples_per_second;
  std::optional<std::int64_t> runs;  // successful runs the median is over
  std::optional<std::string> method, interval;
  std::optional<std::int64_t> withheld_runs;
  std::optional<std::string> withheld;  // why
};

// The RCP checker's verdict and, where a reference was found, its figures.
struct MlperfRcpFacts {
  std::optional<std::string> verdict, message, reference;
  std::optional<double> rcp_mean, rcp_stdev, min_epochs, submission_mean_epochs, norm_factor;
};

// The official score: the raw olympic score times the published scaling, or why there is none.
struct MlperfOfficialFacts {
  std::optional<double> raw_minutes, published_scaling_factor, official_minutes, checker_minutes;
  std::optional<double> unapplied_rules_minutes;  // a score counted under rules reported, not applied
  std::optional<std::string> note;
};

// One imported run as the importer judged it.
struct MlperfRunFacts {
  std::optional<std::string> file, status, reason;
};

struct MlperfFacts {
  std::optional<std::string> ruleset, ruleset_source, division;
  std::optional<double> global_batch_size;
  std::optional<MlperfThroughputFacts> throughput;
  std::optional<MlperfRcpFacts> rcp;            // absent: the import recorded no RCP check
  std::optional<MlperfOfficialFacts> official;  // absent: no official score block
  std::vector<MlperfRunFacts> run_details;
};

MlperfFacts MlperfFactsFromJson(const nlohmann::json& extra);

}  // namespace evalsuite::analysis
