#include "study/plans/comparison_plan_keys.h"

#include <set>
#include <string>

namespace evalsuite::study {
namespace {

const std::set<std::string> kSequentialKeys = {"min_runs", "max_runs", "alpha", "question"};

std::pair<std::string, std::string> ReadPair(const toml::node& node, const TomlReader& reader, const std::string& key,
                                             const StudyPlan& plan) {
  const toml::array* pair = node.as_array();
  if (!pair || pair->size() != 2) {
    reader.Fail(TomlReader::Line(node), key, "must be a pair of entry names, e.g. [\"fast\", \"baseline\"]");
  }
  const std::string a = reader.String(*pair->get(0), key + "[0]"), b = reader.String(*pair->get(1), key + "[1]");
  for (const std::string& name : {a, b}) {
    if (!plan.FindEntry(name)) {
      std::string names;
      for (const auto& e : plan.entries) names += (names.empty() ? "" : ", ") + e.name;
      reader.Fail(TomlReader::Line(node), key, "'" + name + "' is not an entry of this study (" + names + ")");
    }
  }
  if (a == b) reader.Fail(TomlReader::Line(node), key, "compares '" + a + "' with itself");
  const PlannedEntry &ea = *plan.FindEntry(a), &eb = *plan.FindEntry(b);
  if (ea.metric != eb.metric || ea.threshold != eb.threshold) {
    reader.Fail(TomlReader::Line(node), key,
                "TTA compares like with like: '" + a + "' and '" + b + "' have different metrics or targets");
  }
  return {a, b};
}

}  // namespace

void ReadComparisonKeys(const toml::table& root, const TomlReader& reader, long runs_line, bool runs_from_flag,
                        StudyPlan& plan) {
  if (const toml::node* n = root.get("compare")) {
    if (!n->is_array())
      reader.Fail(TomlReader::Line(*n), "compare", "must be an array of pairs, e.g. [[\"a\", \"b\"]]");
    int i = 0;
    for (const toml::node& pair : *n->as_array()) {
      plan.analysis.compare.push_back(ReadPair(pair, reader, "compare[" + std::to_string(i++) + "]", plan));
    }
  }
  const toml::node* n = root.get("sequential");
  if (!n) return;
  if (!n->is_table()) reader.Fail(TomlReader::Line(*n), "sequential", "must be a table");
  const toml::table& table = *n->as_table();
  reader.RejectUnknownKeys(table, kSequentialKeys, "sequential.", "[sequential]");
  SequentialSettings s;
  const long line = TomlReader::Line(*n);
  for (const char* required : {"min_runs", "max_runs", "question"}) {
    if (!table.get(required)) reader.Fail(line, std::string("sequential.") + required, "is required");
  }
  s.min_runs = static_cast<int>(reader.Integer(*table.get("min_runs"), "sequential.min_runs", 2, 10000));
  s.max_runs = static_cast<int>(reader.Integer(*table.get("max_runs"), "sequential.max_runs", 2, 10000));
  if (s.max_runs < s.min_runs) {
    reader.Fail(TomlReader::Line(*table.get("max_runs")), "sequential.max_runs", "must be at least min_runs");
  }
  if (const toml::node* a = table.get("alpha")) {
    s.alpha = reader.Number(*a, "sequential.alpha");
    if (!(s.alpha > 0 && s.alpha < 0.5)) reader.Fail(TomlReader::Line(*a), "sequential.alpha", "must lie in (0, 0.5)");
  }
  const toml::node& question = *table.get("question");
  if (question.is_string()) {
    if (question.as_string()->get() != "stability") {
      reader.Fail(TomlReader::Line(question), "sequential.question",
                  "must be \"stability\" or a pair of entries, e.g. [\"fast\", \"baseline\"]");
    }
    s.stability = true;
  } else {
    std::tie(s.a, s.b) = ReadPair(question, reader, "sequential.question", plan);
  }
  if (runs_from_flag && plan.runs != s.max_runs) {
    throw UsageError("--runs", "a sequential study plans [sequential] max_runs = " + std::to_string(s.max_runs) +
                                   " runs per entry; leave --runs out");
  }
  if (runs_line > 0 && plan.runs != s.max_runs) {
    reader.Fail(
        runs_line, "runs",
        "a sequential study plans max_runs runs per entry: leave runs out or set it to " + std::to_string(s.max_runs));
  }
  if (plan.executor == kSlurmExecutor) {
    reader.Fail(line, "sequential",
                "runs with the local executor only: the Slurm executor submits every run of a study at once");
  }
  plan.runs = s.max_runs;
  plan.analysis.sequential = s;
}

}  // namespace evalsuite::study
