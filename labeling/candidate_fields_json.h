// The free-form parts of a candidate manifest that labeling reads (datasets/images/candidate_manifest.h keeps them
// as JSON): a near-duplicate flag and the source's class list, decoded once into named fields. LoadCandidateManifest
// has checked the flags' strings; a field of another shape here is an InputError naming it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace evalsuite::labeling {

// NOLINTNEXTLINE(bugprone-exception-escape): json members (nlohmann may throw on copy)
struct NearDuplicateFlag {
  std::string kind;                     // "within" or "reference"; "" when absent
  std::string match;                    // the other image's path or id; "" when absent
  nlohmann::json distance = nullptr;    // as dedupe wrote it (an integer Hamming distance); null when not a number
  nlohmann::json similarity = nullptr;  // likewise
};

NearDuplicateFlag NearDuplicateFlagFromJson(const nlohmann::json& flag);

// The class list a candidate manifest's "source" names; "imagenet-1k" when it names none.
std::string CandidateClassListFromJson(const nlohmann::json& source);

}  // namespace evalsuite::labeling
