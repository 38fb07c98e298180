// A candidate folder from the user's own images, so a team can label its photos with `label serve` like a
// Flickr crawl's: SOURCE/<class>/*.{jpg,jpeg,png,webp} where <class> is a wnid or a class name of the given
// classes. Every image is decoded (the same checks as the crawl: HTML saved as .jpg, truncated files, ...) and
// copied to OUT/images/<sha256>.<format>; what cannot be used is listed in the manifest's "rejected" with the
// reason, never silently dropped. Nothing in SOURCE is changed.
#pragma once

#include <filesystem>
#include <vector>

#include "datasets/images/candidate_manifest.h"

namespace evalsuite::datasets {

struct FolderCandidates {
  CandidateManifest manifest;  // as written to OUT/candidates.json
  std::size_t copied = 0;
  std::size_t rejected = 0;
};

// Throws InputError naming a subfolder that matches no class (or a class matched twice), and IoError when OUT
// cannot be written. OUT must not hold a candidates.json yet.
FolderCandidates CandidatesFromFolder(const std::filesystem::path& source, const std::vector<CandidateClass>& classes,
                                      const std::filesystem::path& out);

}  // namespace evalsuite::datasets
