// Who labels what, in which order. With a team roster and an overlap target K, item i goes to K labelers of the
// roster in rotation (labelers (i + j) mod L, j < K: every labeler gets about K/L of the items and every pair of
// labelers shares about the same number), so agreement rests on a designed sample instead of on who happened to
// label what. Each labeler sees their items in an order of their own: classes shuffled, items shuffled within
// a class (one class in mind at a time), seeded by the labeler's name so a reload gives the same order.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "datasets/images/candidate_manifest.h"

namespace evalsuite::labeling {

struct AssignmentPlan {
  std::vector<std::string> roster;  // empty: everyone may label every item
  std::size_t overlap = 0;          // labelers per item (with a roster; 0 = all of them)
  bool shuffle = false;             // false: class by class, best rank first, for everyone
  // LabelerKey(labeler) -> item ids never given to them (label serve --pass 2: what they judged in pass 1).
  std::map<std::string, std::set<std::string>> excluded;
  bool Excludes(const std::string& labeler, const std::string& item_id) const;
};

// Throws UsageError when the overlap exceeds the roster or the roster holds two names that are one labeler (equal
// LabelerKey: "ana,Ana").
void CheckAssignmentPlan(const AssignmentPlan& plan);

// Whether `labeler` is on the roster, compared by LabelerKey (always true without one).
bool OnRoster(const AssignmentPlan& plan, const std::string& labeler);
// The roster's spelling of `labeler` ("Ana" for "ana" on a roster "Ana,ben"); `labeler` itself when not on it.
std::string RosterSpelling(const AssignmentPlan& plan, const std::string& labeler);

// Manifest item indices assigned to `labeler`, in their labeling order.
std::vector<std::size_t> AssignedItems(const datasets::CandidateManifest& manifest, const AssignmentPlan& plan,
                                       const std::string& labeler);

}  // namespace evalsuite::labeling
