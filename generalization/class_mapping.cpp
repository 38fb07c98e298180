#include "generalization/class_mapping.h"

#include <algorithm>
#include <unordered_map>

#include "common/error.h"

namespace evalsuite::generalization {

HoldoutClasses DescribeHoldoutClasses(const datasets::Holdout& holdout) {
  HoldoutClasses classes;
  classes.class_list = holdout.class_list;
  int count = static_cast<int>(holdout.class_names.size());
  if (holdout.class_list == "imagenet-1k") count = std::max(count, 1000);
  for (const datasets::HoldoutItem& item : holdout.items) count = std::max(count, item.class_index + 1);
  classes.count = count;
  classes.names.assign(count, "");
  classes.wnids.assign(count, "");
  for (size_t i = 0; i < holdout.class_names.size(); ++i) classes.names[i] = holdout.class_names[i];
  for (const datasets::HoldoutItem& item : holdout.items) {
    if (item.class_index < 0) continue;
    if (classes.names[item.class_index].empty()) classes.names[item.class_index] = item.class_name;
    if (classes.wnids[item.class_index].empty()) classes.wnids[item.class_index] = item.wnid;
  }
  return classes;
}

ClassMapping MapModelClasses(const ModelSpec& model, int num_outputs, const HoldoutClasses& classes) {
  ClassMapping mapping;
  mapping.output_to_class.assign(num_outputs, -1);
  mapping.covered.assign(classes.count, false);
  const std::string where = "model " + model.name;
  if (!model.classes.empty()) {
    if (static_cast<int>(model.classes.size()) != num_outputs) {
      throw InputError(model.sidecar.empty() ? where : model.sidecar.string() + ": classes",
                       "lists " + std::to_string(model.classes.size()) + " classes but the model has " +
                           std::to_string(num_outputs) + " outputs");
    }
    std::unordered_map<std::string, int> by_key;
    for (int c = 0; c < classes.count; ++c) {
      if (!classes.wnids[c].empty()) by_key.emplace(classes.wnids[c], c);
      if (!classes.names[c].empty()) by_key.emplace(classes.names[c], c);
    }
    int matched = 0;
    for (int o = 0; o < num_outputs; ++o) {
      const auto it = by_key.find(model.classes[o]);
      if (it == by_key.end()) continue;
      mapping.output_to_class[o] = it->second;
      mapping.covered[it->second] = true;
      ++matched;
    }
    if (matched == 0) {  // scoring would print n/a for every class and still succeed
      throw InputError(model.sidecar.empty() ? where : model.sidecar.string() + ": classes",
                       "none of its " + std::to_string(num_outputs) + " classes (\"" + model.classes.front() +
                           "\", ...) names a class of the holdout (" + std::to_string(classes.count) + " classes, \"" +
                           classes.class_list +
                           "\"): give the model's classes as the holdout's "
                           "wnids or names");
    }
    mapping.how = "by name (" + std::to_string(matched) + " of " + std::to_string(num_outputs) + " outputs matched)";
    return mapping;
  }
  std::string model_list = model.class_list;
  if (model_list.empty()) {
    if (num_outputs == 1000) {
      model_list = "imagenet-1k";
    } else if (num_outputs == classes.count) {
      model_list = classes.class_list;  // same size, no other facts: the holdout's order is assumed
    }
  }
  if (model_list.empty() || model_list != classes.class_list || num_outputs != classes.count) {
    throw InputError(where, "cannot relate its " + std::to_string(num_outputs) + " outputs (class list \"" +
                                (model_list.empty() ? "unknown" : model_list) + "\") to the holdout's " +
                                std::to_string(classes.count) + " classes (\"" + classes.class_list +
                                "\"); list the model's classes in its JSON sidecar (\"classes\": [...]); " +
                                SidecarWhereabouts(model));
  }
  for (int o = 0; o < num_outputs; ++o) {
    mapping.output_to_class[o] = o;
    mapping.covered[o] = true;
  }
  mapping.assumed = model.class_list.empty();
  mapping.how = mapping.assumed ? "identity (" + model_list + ", assumed from the output count: no classes sidecar)"
                                : "identity (" + model_list + ")";
  return mapping;
}

}  // namespace evalsuite::generalization
