// The report's "hardware" section (reports/hardware_section.h has its shape): the machine's ceilings and, per
// built-in entry, a short profiling run (the entry's recipe and epoch budget on a subset, so progressive
// resizing's stages all appear) read back as FLOPs per sample, achieved FLOP/s and MFU per phase, operational
// intensity, time and memory breakdowns, the estimated share of a full run spent evaluating, and the bound the
// roofline puts it under.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "datasets/fashion_mnist/fashion_mnist.h"
#include "entries/builtin_entries.h"
#include "training/machine_ceilings.h"

namespace evalsuite::training {

struct ProfileOptions {
  int threads = 0;
  size_t train_subset = 4096;       // training images per epoch of the profiling run
  size_t validation_subset = 1000;  // validation images per evaluation
  uint64_t seed = 0;
};

// One entry of the section: the figures of `hardware` (TrainResult::hardware, step_accounting.h) against
// `machine`: MFU and the roofline bound per phase and for the run.
nlohmann::json HardwareEntryFromRun(const std::string& entry, const entries::Recipe& recipe, int epochs,
                                    const nlohmann::json& hardware, const MachineCeilings& machine);

// Runs `entry` briefly (Train with the subsets) and returns HardwareEntryFromRun's object.
nlohmann::json ProfileEntryHardware(const entries::BuiltinEntry& entry, const datasets::FashionMnist& data,
                                    const MachineCeilings& machine, const ProfileOptions& options);

// {"machine": MachineCeilingsToJson, "entries": [...], "method": "..."}
nlohmann::json BuildHardwareSection(const MachineCeilings& machine, const std::vector<nlohmann::json>& entries);

}  // namespace evalsuite::training
