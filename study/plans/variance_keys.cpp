#include "study/plans/variance_keys.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "study/plans/command_template.h"
#include "study/plans/variance_design.h"

namespace evalsuite::study {
namespace {

const std::set<std::string> kVarianceTableKeys = {"vary", "levels", "repeats"};

std::string VarianceKeySourceNames() {
  std::string names;
  for (const VarianceSource& s : VarianceSources())
    names += (names.empty() ? "\"" : ", \"") + std::string(s.name) + "\"";
  return names;
}

bool VarianceKeysVary(const VarianceDesign& design, const std::string& source) {
  return std::find(design.vary.begin(), design.vary.end(), source) != design.vary.end();
}

}  // namespace

void ReadVarianceKeys(const toml::table& root, const TomlReader& reader, long runs_line, bool runs_from_flag,
                      StudyPlan& plan) {
  const toml::node* n = root.get("variance");
  if (!n) return;
  const long line = TomlReader::Line(*n);
  if (!n->is_table()) reader.Fail(line, "variance", "must be a table: [variance] vary = [\"init\"] levels = 3");
  const toml::table& table = *n->as_table();
  reader.RejectUnknownKeys(table, kVarianceTableKeys, "variance.", "[variance]");
  VarianceDesign design;
  if (const toml::node* l = table.get("levels")) {
    design.levels = static_cast<int>(reader.Integer(*l, "variance.levels", 2, 100));
  }
  if (const toml::node* r = table.get("repeats")) {
    design.repeats = static_cast<int>(reader.Integer(*r, "variance.repeats", 1, 100));
  }
  const toml::node* vary = table.get("vary");
  if (!vary) reader.Fail(line, "variance.vary", "is required: the sources to vary, of " + VarianceKeySourceNames());
  const long vary_line = TomlReader::Line(*vary);
  if (!vary->is_array() || vary->as_array()->empty()) {
    reader.Fail(vary_line, "variance.vary", "must be a non-empty array of sources, of " + VarianceKeySourceNames());
  }
  std::set<std::string> named;
  int i = 0;
  for (const toml::node& element : *vary->as_array()) {
    const std::string key = "variance.vary[" + std::to_string(i++) + "]";
    const std::string source = reader.String(element, key);
    bool known = false;
    for (const VarianceSource& s : VarianceSources()) known = known || source == s.name;
    if (!known) {
      reader.Fail(vary_line, key, "unknown source '" + source + "' (known: " + VarianceKeySourceNames() + ")");
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
      if (!VarianceKeysVary(design, s.name)) continue;
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

}  // namespace evalsuite::study
