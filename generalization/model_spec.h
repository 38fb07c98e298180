// What evalsuite knows about a model to evaluate, before loading it: name, group, TorchScript file,
// preprocessing, validation accuracy and class list. Comes from `--model NAME=FILE[:group]`, from a run in the
// study store, and from the JSON sidecar beside the file (`FILE.json`, else `<stem>.json`, else `model.json`).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "datasets/images/preprocess.h"

namespace evalsuite::generalization {

constexpr const char* kGroupPretrained = "pretrained";
constexpr const char* kGroupTtaOptimized = "tta-optimized";

struct ModelSpec {
  std::string name;
  std::string group = kGroupPretrained;                // "pretrained", "tta-optimized", or the user's own tag
  std::filesystem::path file;                          // TorchScript (torch.jit.save)
  std::optional<datasets::PreprocessSpec> preprocess;  // from the sidecar; else the command's --preprocess
  std::optional<double> validation_accuracy;           // top-1 on the model's own validation data
  std::optional<std::size_t> validation_size;          // images that accuracy was measured on (its sampling error)
  // The model's output classes, in output order: class names or ImageNet wnids. Empty: outputs follow
  // `class_list` in its own order.
  std::vector<std::string> classes;
  std::string class_list;         // "imagenet-1k", "fashion-mnist", ...; "" = infer from the output size
  std::filesystem::path sidecar;  // the JSON file the facts above came from, if any
  std::vector<std::filesystem::path> sidecar_searched;  // where ApplySidecar looked, in order
};

// "NAME=FILE" or "NAME=FILE:GROUP" (GROUP: letters, digits, '-', '_'). Throws UsageError naming --model.
ModelSpec ParseModelArgument(const std::string& argument);

// The sidecars ApplySidecar tries, in order: FILE.json (three.pt.json), STEM.json (three.json), model.json.
std::vector<std::filesystem::path> SidecarCandidates(const std::filesystem::path& file);
// "its sidecar PATH", or "no sidecar found (looked for A, B, C)": for refusals that a sidecar would settle.
std::string SidecarWhereabouts(const ModelSpec& spec);

// Fills the spec from the first sidecar of SidecarCandidates that exists. Recognised keys (all optional):
//   "validation_accuracy": 0.93, or {"at_target": 0.912, "final": 0.93} keyed by file stem,
//   or "<stem>": {"validation_accuracy" | "val_top1": ...} (evalsuite train writes "at_target"/"final"),
//   or "models": {"<stem>": {"validation_accuracy": ...}};
//   "validation_size": 5000 (images the validation accuracy was measured on; the gap verdict uses its error);
//   "preprocess" (or "preprocessing"): a preset name or a spec object (see datasets/images/preprocess.h);
//   "classes" (or "class_names"): [..]; "class_list": "fashion-mnist".
// Throws InputError naming the sidecar and key on malformed values.
void ApplySidecar(ModelSpec* spec);
void ApplySidecarJson(ModelSpec* spec, const nlohmann::json& sidecar, const std::string& where);

}  // namespace evalsuite::generalization
