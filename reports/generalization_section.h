// The "generalization" section of the report model: one object per evaluated image set (the frozen holdout,
// and shifted variants of it), produced by `evalsuite holdout eval` (evalsuite/generalization/) and rendered by
// reports/ as the paper's Table 4. This header fixes the JSON shape both sides use:
//
// "generalization": [ {
//   "image_set": "fashion-mnist-holdout",        // holdout name or variant ("...:noise")
//   "holdout_version": "<sha256 of the manifest items>",
//   "images": 5000, "unreadable": 0,             // images in the set; images that failed to load (with reasons)
//   "failures": [{"path": "...", "reason": "..."}],  // at most the first 50
//   "models": [ {
//       "name": "fast-run3", "group": "tta-optimized" | "pretrained" | user's own,
//       "evaluated": 5000,                         // images with a class the model covers
//       "uncovered": 0,                            // images of classes the model does not cover
//       "top1": {"correct": 4600, "accuracy": 0.92, "lower": 0.91, "upper": 0.93},
//       "top5": {"correct": 4990, "accuracy": 0.998, "lower": ..., "upper": ...},
//       "validation_accuracy": 0.93 | null,        // on its own validation data, where known
//       "gap": 0.01 | null,                        // validation_accuracy - top1.accuracy
//       "per_class": [{"class": "T-shirt/top", "n": 500, "correct": 450}] } ],
//   "pairs": [ {"a": "m1", "b": "m2", "metric": "top1", "n": 5000, "only_a": 12, "only_b": 4,
//               "p_value": 0.0768, "difference": 0.0016, "lower": ..., "upper": ...} ],
//   "groups": [ {"group": "tta-optimized", "models": 5, "mean_top1": 0.91, "mean_top5": 0.99} ],
//   "verdict": {"generalizes": true, "statement": "TTA-optimized models are within ... of pretrained ...",
//               "test": "exact McNemar, pooled over the group's models, p = ..."}
// } ]
#pragma once

namespace evalsuite::reports {

constexpr const char* kGeneralizationSectionKey = "generalization";

}  // namespace evalsuite::reports
