// How a holdout's images were chosen, as its manifest's "rule" records it (labeling/holdout_freeze.cpp,
// datasets/images/holdout_manifest.h), decoded once into the report's "selection" block. User data shown as given:
// it stays JSON, and nothing is decided from it.
#pragma once

#include <nlohmann/json.hpp>

namespace evalsuite::generalization {

// {"rule"} and, for a sampled holdout, {"variant", "seed", "per_class", "min_votes", "reference"}; an absent field
// is "" (names) or null (figures).
nlohmann::json HoldoutSelectionFromJson(const nlohmann::json& rule);

}  // namespace evalsuite::generalization
