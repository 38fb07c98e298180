// Which holdout class each model output stands for. A model's outputs follow a class list (ImageNet-1k index
// order, Fashion-MNIST's ten, or names/wnids given in its sidecar); holdout images of classes no output stands
// for are counted as "uncovered" for that model, never silently dropped or scored as errors.
#pragma once

#include <string>
#include <vector>

#include "datasets/images/holdout_manifest.h"
#include "generalization/model_spec.h"

namespace evalsuite::generalization {

struct HoldoutClasses {
  std::string class_list;          // the holdout's class list name
  int count = 0;                   // number of class indices (1000 for ImageNet-1k)
  std::vector<std::string> names;  // index -> name ("" when unknown)
  std::vector<std::string> wnids;  // index -> wnid ("" when unknown)
};

HoldoutClasses DescribeHoldoutClasses(const datasets::Holdout& holdout);

struct ClassMapping {
  std::vector<int> output_to_class;  // model output index -> holdout class index, or -1
  std::vector<bool> covered;         // holdout class index -> some output stands for it
  std::string how;                   // "identity (fashion-mnist)", "by name (37 of 40 outputs matched)", ...
  // True when nothing said which class each output is (no "classes" nor "class_list" in a sidecar): the order
  // was inferred from the output count alone, and a model trained with another order would score ~0 silently.
  bool assumed = false;
};

// Throws InputError naming the model when its outputs cannot be related to the holdout's classes.
ClassMapping MapModelClasses(const ModelSpec& model, int num_outputs, const HoldoutClasses& classes);

}  // namespace evalsuite::generalization
