// Typed reads off toml++ nodes for plan files: every failure is an InputError naming source:line and the key
// path ("study.toml:7: key 'slurm.partition': must be a string, got an integer").
#pragma once

#include <toml++/toml.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/value_checks.h"

namespace evalsuite::study {

inline std::string JoinNames(const std::set<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Reads typed values off toml++ nodes; every failure names source:line and the key path.
class TomlReader {
 public:
  explicit TomlReader(std::string source) : source_(std::move(source)) {}
  // The file's top-level keys: one found inside a table is named as misplaced.
  void SetTopLevelKeys(std::set<std::string> keys) { top_level_keys_ = std::move(keys); }

  [[noreturn]] void Fail(long line, const std::string& key, const std::string& why) const {
    throw InputError(FileLine(source_, line < 1 ? 1 : line), "key '" + key + "': " + why);
  }
  static long Line(const toml::node& node) { return static_cast<long>(node.source().begin.line); }

  int64_t Integer(const toml::node& node, const std::string& key, int64_t min, int64_t max) const {
    if (!node.is_integer()) Fail(Line(node), key, "must be an integer, got " + TypeName(node));
    int64_t value = node.as_integer()->get();
    // The same words as the flags' (common/value_checks.h): "must be at least 1, got 0".
    if (std::string problem = WholeNumberRangeProblem(value, min, max); !problem.empty())
      Fail(Line(node), key, problem);
    return value;
  }
  double Number(const toml::node& node, const std::string& key) const {
    double value;
    if (node.is_integer()) {
      value = static_cast<double>(node.as_integer()->get());
    } else if (node.is_floating_point()) {
      value = node.as_floating_point()->get();
    } else {
      Fail(Line(node), key, "must be a number, got " + TypeName(node));
    }
    if (!std::isfinite(value)) Fail(Line(node), key, "must be a finite number");
    return value;
  }
  bool Bool(const toml::node& node, const std::string& key) const {
    if (!node.is_boolean()) Fail(Line(node), key, "must be true or false, got " + TypeName(node));
    return node.as_boolean()->get();
  }
  std::string String(const toml::node& node, const std::string& key) const {
    if (!node.is_string()) Fail(Line(node), key, "must be a string, got " + TypeName(node));
    return node.as_string()->get();
  }
  std::vector<double> Thresholds(const toml::node& node, const std::string& key) const {
    if (!node.is_array()) Fail(Line(node), key, "must be an array of numbers, got " + TypeName(node));
    std::vector<double> values;
    int i = 0;
    for (const toml::node& element : *node.as_array()) {
      values.push_back(Threshold(element, key + "[" + std::to_string(i++) + "]"));
    }
    return values;
  }
  double Threshold(const toml::node& node, const std::string& key) const {
    double value = Number(node, key);
    if (value <= 0) Fail(Line(node), key, "a threshold must be positive");
    return value;
  }
  void RejectUnknownKeys(const toml::table& table, const std::set<std::string>& known, const std::string& prefix,
                         const std::string& what) const {
    for (auto&& [key, node] : table) {
      std::string name(key.str());
      if (!known.count(name)) {
        // TOML puts every key after a [[entries]] or [section] header into that table: a top-level key written
        // below one lands there.
        const std::string hint =
            !prefix.empty() && top_level_keys_.count(name)
                ? "; '" + name + "' is a top-level key: write it above the first [[entries]] or [section] header"
                : "";
        Fail(Line(node), prefix + name, "unknown key in " + what + " (known: " + JoinNames(known) + ")" + hint);
      }
    }
  }
  static std::string TypeName(const toml::node& node) {
    switch (node.type()) {
      case toml::node_type::string:
        return "a string";
      case toml::node_type::integer:
        return "an integer";
      case toml::node_type::floating_point:
        return "a float";
      case toml::node_type::boolean:
        return "a boolean";
      case toml::node_type::array:
        return "an array";
      case toml::node_type::table:
        return "a table";
      default:
        return "a date or time";
    }
  }
  const std::string& source() const { return source_; }

 private:
  std::set<std::string> top_level_keys_;
  std::string source_;
};

}  // namespace evalsuite::study
