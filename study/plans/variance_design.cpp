#include "study/plans/variance_design.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "common/error.h"
#include "common/seeds.h"
#include "study/plans/plan_seeds.h"

namespace evalsuite::study {
namespace {

// "variance" in ASCII: a stream apart from the run seeds' (plan_seeds.h) and the run order's (run_order.h).
constexpr uint64_t kVarianceStream = 0x76617269616e6365ULL;

int VarianceCells(const VarianceDesign& design) {
  int cells = 1;
  for (std::size_t i = 0; i < design.vary.size(); ++i) cells *= design.levels;
  return cells;
}

bool DesignVaries(const VarianceDesign& design, const std::string& source) {
  return std::find(design.vary.begin(), design.vary.end(), source) != design.vary.end();
}

}  // namespace

const std::vector<VarianceSource>& VarianceSources() {
  static const std::vector<VarianceSource> sources = {
      {"init", "init_seed"}, {"data_order", "data_seed"}, {"augmentation", "aug_seed"}};
  return sources;
}

int DesignRuns(const VarianceDesign& design) { return VarianceCells(design) * design.repeats; }

uint64_t VarianceLevelSeed(uint64_t study_seed, const std::string& source, int level) {
  const uint64_t source_stream =
      SplitMix64(SplitMix64(study_seed ^ kVarianceStream).Next() ^ StableHash(source)).Next();
  return DeriveSeed(source_stream, static_cast<uint64_t>(level) + 1);
}

SourceSeeds DesignRunSeeds(const VarianceDesign& design, uint64_t study_seed, int index) {
  const int cells = VarianceCells(design);
  const int block = index / cells;
  std::vector<int> order(static_cast<std::size_t>(cells));
  std::iota(order.begin(), order.end(), 0);
  SplitMix64 rng(DeriveSeed(study_seed ^ kVarianceStream, static_cast<uint64_t>(block) + 1));
  DeterministicShuffle(order.begin(), order.end(), rng);
  int cell = order[static_cast<std::size_t>(index % cells)];
  // The cell's level of each varied source: its digits in base `levels`, the first source the lowest digit.
  std::map<std::string, int> level;
  for (const std::string& source : design.vary) {
    level[source] = cell % design.levels;
    cell /= design.levels;
  }
  auto seed_of = [&](const char* source) {
    auto it = level.find(source);
    return VarianceLevelSeed(study_seed, source, it == level.end() ? 0 : it->second);
  };
  return {seed_of("init"), seed_of("data_order"), seed_of("augmentation")};
}

SourceSeeds DerivedSourceSeeds(uint64_t run_seed) {
  return {DeriveSeed(run_seed, 1), DeriveSeed(run_seed, 2), DeriveSeed(run_seed, 3)};
}

std::vector<std::string> VarianceDesignWarnings(const VarianceDesign& design) {
  std::vector<std::string> warnings;
  if (design.repeats == 1) {
    warnings.push_back(
        "[variance] repeats = 1: no cell runs twice with the same seeds, so nondeterminism (threads, kernels, the "
        "machine) cannot be told from the residual; use repeats = 2 or more");
  }
  return warnings;
}

std::string DescribeVarianceDesign(const VarianceDesign& design) {
  std::string sources;
  for (const std::string& s : design.vary) sources += (sources.empty() ? "" : ", ") + s;
  std::string held;
  for (const VarianceSource& s : VarianceSources()) {
    if (!DesignVaries(design, s.name)) held += (held.empty() ? "" : ", ") + std::string(s.name);
  }
  return sources + " x " + std::to_string(design.levels) + " levels = " + std::to_string(VarianceCells(design)) +
         " cells, " + std::to_string(design.repeats) + (design.repeats == 1 ? " repeat" : " repeats") + ": " +
         std::to_string(DesignRuns(design)) + " runs per entry" + (held.empty() ? "" : " (" + held + " held)");
}

}  // namespace evalsuite::study
