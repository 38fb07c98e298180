// Hidden controls (gold items, the honeypots of CVAT and Label Studio): candidates whose answer is known, served to
// labelers like any other item, left out of the freeze, and scored as each labeler's accuracy with a Clopper-Pearson
// interval (agreement.h, the admin page). `evalsuite label controls` makes them from a file of known answers or from
// items the team labeled unanimously; this file is the pure part (manifest and decisions in, manifest changes out).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "datasets/images/candidate_manifest.h"
#include "labeling/label_store.h"

namespace evalsuite::labeling {

struct ControlAnswer {
  std::string item_id;
  std::string answer;  // "correct" or "incorrect"
};

// A CSV file of known answers, one control a line: `ITEM,ANSWER`, ITEM a candidate's id or its image path,
// ANSWER correct or incorrect (a first line `item,answer` is a header). Throws InputError naming FILE:LINE for an
// unknown item, another answer, a malformed line or an item given twice.
std::vector<ControlAnswer> ReadControlAnswers(const std::filesystem::path& file,
                                              const datasets::CandidateManifest& manifest);

// Items whose standing decisions are unanimous (every vote correct, or every vote incorrect; an "unsure" vote
// disqualifies) with at least `min_votes` votes and that are not controls yet; at most `count` of them, half of each
// answer where the items allow, chosen in a seeded order (same seed, same choice).
std::vector<ControlAnswer> ControlsFromLabels(const datasets::CandidateManifest& manifest,
                                              const std::map<std::pair<std::string, std::string>, Decision>& decisions,
                                              std::size_t min_votes, std::size_t count, uint64_t seed);

struct ControlsChange {
  std::size_t cleared = 0;                 // controls removed by `clear_first`
  std::size_t added = 0;                   // items that became controls
  std::size_t changed = 0;                 // controls whose answer changed
  std::size_t correct = 0, incorrect = 0;  // controls in the manifest afterwards
};

// Sets each answer on its item (after clearing every control when `clear_first`).
ControlsChange ApplyControls(datasets::CandidateManifest& manifest, const std::vector<ControlAnswer>& answers,
                             bool clear_first);

}  // namespace evalsuite::labeling
