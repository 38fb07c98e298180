// Per-image predictions, one JSON line per image and model, so a user can diff evalsuite against their own
// pipeline image by image:
//   {"image_set": "...", "image": "<path in the holdout>", "id": "...", "label": 3, "label_name": "...",
//    "kind": "jpeg-progressive", "model": "resnet18", "top5": [3, 7, ...], "scores": [0.61, 0.2, ...],
//    "top1_correct": 1, "top5_correct": 1}
// "top5" are the model's output indices, best first; "scores" their softmax probabilities; an image that could
// not be read has "error" instead. A user's file in the same format (only "image", "model" and "top5" are
// needed) is compared with ComparePredictions.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>

namespace evalsuite::generalization {

// Agreement of `theirs` with `ours` (both JSON Lines as above), matched by (model, image set, image), a line
// of theirs without "image_set" standing for the first image set of ours: top-1 agreement
// and top-5 overlap overall, per model and per image kind (the kind is taken from `ours`), plus the images
// found on one side only. Throws InputError naming the file and line of a malformed line.
nlohmann::json ComparePredictions(const std::filesystem::path& ours, const std::filesystem::path& theirs);

// A few lines of text for the terminal.
std::string SummarizeComparison(const nlohmann::json& comparison);

}  // namespace evalsuite::generalization
