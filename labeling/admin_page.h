// The organizer's view of a labeling job (GET /admin with the admin token): per labeler, progress on their
// assigned items, speed (median seconds per decision), agreement with the others (Cohen's kappa per pair over
// the items both judged) and accuracy on the hidden controls. Pure: built from the manifest, the assignment
// and the label log; rendered as a static HTML table (no script), every value escaped.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "datasets/images/candidate_manifest.h"
#include "labeling/agreement.h"
#include "labeling/assignment.h"
#include "labeling/label_store.h"

namespace evalsuite::labeling {

struct LabelerProgress {
  std::string labeler;
  std::size_t assigned = 0;
  std::size_t decided = 0;    // assigned items with a standing decision
  double median_seconds = 0;  // per decision (display to decision), NaN without decisions
  std::vector<std::pair<std::string, stats::KappaResult>> kappa_with;  // other labeler -> Cohen's kappa
  std::size_t controls_judged = 0;
  std::size_t controls_right = 0;
  stats::Interval controls_interval{0, 1};  // Clopper-Pearson 95% of the accuracy on controls
};

std::vector<LabelerProgress> ComputeProgress(const datasets::CandidateManifest& manifest, const AssignmentPlan& plan,
                                             const std::vector<LabelEvent>& events);

std::string RenderAdminPage(const std::vector<LabelerProgress>& progress, std::size_t items);

}  // namespace evalsuite::labeling
