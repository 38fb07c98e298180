#include "training/model_description.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "datasets/fashion_mnist/fashion_mnist.h"

namespace evalsuite::training {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json SavedModelJson(const std::optional<SavedModel>& saved) {
  if (!saved) return nullptr;
  return {{"file", saved->file},
          {"epoch", saved->epoch},
          {"train_seconds", saved->train_seconds},
          {"val_top1", saved->val_top1}};
}

}  // namespace

void CheckWritableModelFolder(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) throw IoError(dir.string(), "cannot create the model folder");
  const fs::path probe = dir / ".evalsuite-write-check";
  {
    std::ofstream out(probe);
    if (!out) throw IoError(dir.string(), "the model folder is not writable");
  }
  fs::remove(probe, ec);
}

void WriteModelJson(const fs::path& dir, const entries::BuiltinEntry& entry, uint64_t run_seed, double target,
                    std::size_t validation_size, const std::optional<SavedModel>& at_target,
                    const std::optional<SavedModel>& final_model) {
  json classes = json::array();
  for (const std::string& name : datasets::FashionMnistClassNames()) classes.push_back(name);
  json spec = {
      {"format", "torchscript"},
      {"entry", entry.name},
      {"seed", run_seed},
      {"target", target},
      {"metric", entry.metric},
      {"validation_size", validation_size},
      {"input",
       {{"shape", {-1, 1, entries::kInputSide, entries::kInputSide}},
        {"dtype", "float32"},
        {"range", {0.0, 1.0}},
        {"note", "pixel / 255; the model normalizes inside forward, so feed [0, 1] pixels, not standardized ones"}}},
      {"preprocess",
       {{"size", entries::kInputSide},
        {"grayscale", true},
        {"polarity", "light garment on a black background (Fashion-MNIST's convention)"},
        {"scale", 1.0 / 255.0},
        {"mean", {0.0}},
        {"std", {1.0}}}},
      {"normalization_in_model", {{"mean", {entries::kInputMean}}, {"std", {entries::kInputStd}}}},
      {"output", {{"shape", {-1, entries::kNumClasses}}, {"kind", "logits"}}},
      {"classes", classes},
      {"at_target", SavedModelJson(at_target)},
      {"final", SavedModelJson(final_model)},
  };
  const fs::path file = dir / "model.json";
  std::ofstream out(file, std::ios::trunc);
  out << spec.dump(2) << "\n";
  if (!out) throw IoError(file.string(), "cannot write the model description");
}

}  // namespace evalsuite::training
