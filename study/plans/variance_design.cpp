#include "study/plans/variance_design.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "common/error.h"
#include "common/seeds.h"
#include "study/plans/command_template.h"
#include "study/plans/plan_seeds.h"
#include "study/plans/study_plan.h"
#include "study/plans/toml_reader.h"

namespace evalsuite::study {
namespace {

const std::set<std::string> kVarianceKeys = {"vary", "levels", "repeats"};

// "variance" in ASCII: a stream apart from the run seeds' (plan_seeds.h) and the run order's (run_order.h).
constexpr uint64_t kVarianceStream = 0x76617269616e6365ULL;

std::string VarianceSourceNames() {
  std::string names;
  for (const VarianceSource& s : VarianceSources())
    names += (names.empty() ? "\"" : ", \"") + std::string(s.name) + "\"";
  return names;
}

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

void ReadVarianceKeys(const toml::table& root, const TomlReader& reader, long runs_line, bool runs_from_flag,
                      StudyPlan& plan) {
  const toml::node* n = root.get("variance");
  if (!n) return;
  const long line = TomlReader::Line(*n);
  if (!n->is_table()) reader.Fail(line, "variance", "must be a table: [variance] vary = [\"init\"] levels = 3");
  const toml::table& table = *n->as_table();
  reader.RejectUnknownKeys(table, kVarianceKeys, "variance.", "[variance]");
  VarianceDesign design;
  if (const toml::node* l = table.get("levels")) {
    design.levels = static_cast<int>(reader.Integer(*l, "variance.levels", 2, 100));
  }
  if (const toml::node* r = table.get("repeats")) {
    design.repeats = static_cast<int>(reader.Integer(*r, "variance.repeats", 1, 100));
  }
  const toml::node* vary = table.get("vary");
  if (!vary) reader.Fail(line, "variance.vary", "is required: the sources to vary, of " + VarianceSourceNames());
  const long vary_line = TomlReader::Line(*vary);
  if (!vary->is_array() || vary->as_array()->empty()) {
    reader.Fail(vary_line, "variance.vary", "must be a non-empty array of sources, of " + VarianceSourceNames());
  }
  std::set<std::string> named;
  int i = 0;
  for (const toml::node& element : *vary->as_array()) {
    const std::string key = "variance.vary[" + std::to_string(i++) + "]";
    const std::string source = reader.String(element, key);
    bool known = false;
    for (const VarianceSource& s : VarianceSources()) known = known || source == s.name;
    if (!known) {
      reader.Fail(vary_line, key, "unknown source '" + source + "' (known: " + VarianceSourceNames() + ")");
    }
    if (!named.insert(source).second) reader.Fail(vary_line, key, "'" + source + "' is named twice");
  }
  for (const VarianceSource& s : VarianceSources()) {
    if (named.count(s.name)) design.vary.push_back(s.name);
  }
  // Counted in 64 bits: 100 levels of three sources would overflow an int.
  int64_t runs = design.repeats;
  for (std::size_t k = 0; k < design.vary.size() && runs <= kMaxRuns; ++k) runs *= design.levels;
  if (runs > kMaxRuns) {
    reader.Fail(line, "variance",
                "plans more than " + std::to_string(kMaxRuns) + " runs per entry: fewer levels, sources or repeats");
  }
  if (plan.analysis.sequential) {
    reader.Fail(line, "variance",
                "a design runs every cell; [sequential] would stop it part way and leave the cells unbalanced: "
                "use one or the other");
  }
  const int design_runs = static_cast<int>(runs);
  if (runs_from_flag && plan.runs != design_runs) {
    throw UsageError("--runs", "a [variance] design plans its own runs per entry (" + std::to_string(design_runs) +
                                   " = cells x repeats); leave --runs out");
  }
  if (runs_line > 0 && plan.runs != design_runs) {
    reader.Fail(runs_line, "runs",
                "a [variance] design plans levels^sources x repeats = " + std::to_string(design_runs) +
                    " runs per entry: leave runs out or set it to " + std::to_string(design_runs));
  }
  // An external entry must be told the seed of every source the design varies, or that source would not vary.
  for (std::size_t e = 0; e < plan.entries.size(); ++e) {
    const PlannedEntry& entry = plan.entries[e];
    if (entry.builtin) continue;
    const std::vector<std::string> used = TemplatePlaceholders(entry.command);
    for (const VarianceSource& s : VarianceSources()) {
      if (!DesignVaries(design, s.name)) continue;
      if (std::find(used.begin(), used.end(), s.placeholder) == used.end()) {
        reader.Fail(vary_line, "variance.vary",
                    "varies " + std::string(s.name) + ", but the command of entries[" + std::to_string(e) + "] '" +
                        entry.name + "' has no {" + s.placeholder + "}: add it, or leave " + s.name + " out of vary");
      }
    }
  }
  plan.runs = design_runs;
  plan.analysis.variance = design;
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
