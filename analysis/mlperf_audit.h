// The auditor's view of MLPerf Training results: per round, benchmark and division, each submission's rerun range
// (mlperf_rerun.h) and selection check (mlperf_selection.h), the systems ranked by official score, and for each
// adjacent pair the probability that the faster stays faster on a rerun of both. Decides nothing about a submitter:
// it states ranges, probabilities and evidence, each with its method, and what could not be computed and why.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/mlperf_rerun.h"
#include "analysis/mlperf_selection.h"

namespace evalsuite::analysis {

// One imported submission (system and benchmark folder) with what the audit needs.
struct AuditInput {
  std::string ruleset;  // "4.0.0"
  std::string benchmark;
  std::string division;  // "closed", "open", or empty when unknown
  RerunSubmission submission;
  std::vector<std::string> notes;  // what the gathering could not read (said beside the submission)
};

struct AuditSettings {
  RerunSettings rerun;
  SelectionSettings selection;
  double within_noise = 0.95;  // adjacent pairs below this P(faster stays faster) are named
};

struct AuditedSubmission {
  AuditInput input;
  RerunRange rerun;
  std::optional<SelectionCheck> selection;
  std::string selection_why_not;
};

struct AdjacentPair {
  std::string faster;  // source of the better-ranked submission
  std::string slower;
  std::optional<double> probability;  // P(faster's rerun score < slower's), independent draws
  std::string why_not;                // when not computed
  bool within_noise = false;          // probability below the settings' threshold
};

struct AuditGroup {
  std::string ruleset, benchmark, division;
  std::vector<AuditedSubmission> ranked;    // by official score, best first
  std::vector<AuditedSubmission> unranked;  // no official score (said why in their notes)
  std::vector<AdjacentPair> pairs;          // ranked[i] vs ranked[i + 1]
  std::vector<std::string> notes;           // what could not be computed for the group
};

struct AuditReport {
  AuditSettings settings;
  std::vector<AuditGroup> groups;  // by ruleset, benchmark, division
};

AuditReport AuditSubmissions(std::vector<AuditInput> inputs, const AuditSettings& settings);

}  // namespace evalsuite::analysis
