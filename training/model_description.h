// The description saved beside a built-in entry's trained models (DIR/model.json): the TorchScript files' input
// and output, how to preprocess an image for them, the classes, the validation size, and which model was saved
// when (at the target, at the end). No LibTorch here: the trainer saves the models themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "entries/builtin_entries.h"

namespace evalsuite::training {

struct SavedModel {
  std::string file;
  double epoch = 0;  // fractional with several evaluations per epoch
  double train_seconds = 0;
  double val_top1 = 0;
};

// Creates `dir` and checks that a file can be written there, before any training starts. Throws IoError.
void CheckWritableModelFolder(const std::filesystem::path& dir);

// Writes DIR/model.json. `validation_size`: the images val_top1 is measured on, so that a holdout evaluation can
// give the validation accuracy its binomial sampling error. Throws IoError.
void WriteModelJson(const std::filesystem::path& dir, const entries::BuiltinEntry& entry, uint64_t run_seed,
                    double target, std::size_t validation_size, const std::optional<SavedModel>& at_target,
                    const std::optional<SavedModel>& final_model);

}  // namespace evalsuite::training
