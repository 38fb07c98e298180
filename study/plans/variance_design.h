// A study's `[variance]` design: which sources of randomness it varies, at how many seed levels each, and how often
// each cell runs with the very same seeds. Crossed: every combination of the varied sources' levels is a cell, run
// `repeats` times (repeats measure nondeterminism); the sources not varied hold one seed. Level seeds depend only on
// the study's seed, the source and the level, so the analysis can group runs by each source's seed alone.
//   [variance]
//   vary = ["init", "data_order", "augmentation"]   # at least one; each once
//   levels = 3                                       # seeds per varied source, at least 2
//   repeats = 2                                      # runs of each cell, at least 1 (1: nondeterminism not separable)
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "analysis/analysis_settings.h"

namespace evalsuite::study {

// The sources a design can vary, in their canonical order; each with the placeholder an external command takes.
struct VarianceSource {
  const char* name;         // "init", "data_order", "augmentation": also the key of the run's recorded seed
  const char* placeholder;  // "init_seed", "data_seed", "aug_seed"
};
const std::vector<VarianceSource>& VarianceSources();

// The design is the analysis's (analysis/analysis_settings.h): the study reads it from the file, the analysis of its
// runs and the stored plan take the same value (StudyPlan::analysis.variance).
using VarianceDesign = analysis::VarianceSettings;

// One seed per source of one run: what a built-in entry's trainer takes as its streams, and what {init_seed},
// {data_seed}, {aug_seed} give an external command.
struct SourceSeeds {
  uint64_t init = 0;
  uint64_t data_order = 0;
  uint64_t augmentation = 0;
};

// Cells (levels ^ varied sources) times repeats: the design's runs per entry.
int DesignRuns(const VarianceDesign& design);

// The seed of level `level` of source `source` (32-bit, as run seeds are): the same for every entry of the study,
// so entries are compared on the same seeds. A source not varied holds level 0's seed.
uint64_t VarianceLevelSeed(uint64_t study_seed, const std::string& source, int level);

// The seeds of run `index` of an entry under the design. Each block of `cells` consecutive indices is one complete
// replicate (every cell once), its cells in an order shuffled per block from the study seed, so that drift over the
// study does not line up with any source's levels and an interrupted design holds whole replicates first.
SourceSeeds DesignRunSeeds(const VarianceDesign& design, uint64_t study_seed, int index);

// The seeds a run outside a design gets for {init_seed}, {data_seed}, {aug_seed}: those the built-in trainer
// derives from its run seed (streams 1, 2, 3 of common/seeds.h), so both kinds of entry agree.
SourceSeeds DerivedSourceSeeds(uint64_t run_seed);

// What the design cannot identify, for `study plan` and `study run` (empty when nothing).
std::vector<std::string> VarianceDesignWarnings(const VarianceDesign& design);

// "init, data_order x 3 levels = 9 cells, 2 repeats: 18 runs per entry"
std::string DescribeVarianceDesign(const VarianceDesign& design);

}  // namespace evalsuite::study
