#include "importer/mlperf_compliance_table.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <iterator>
#include <mutex>
#include <optional>

namespace evalsuite::importer {
namespace {

struct RawRow {
  const char* ruleset;
  const char* benchmark;
  const char* target_key;
  const char* closed_target;
  const char* open_target;
  const char* closed_required;
  const char* open_required;
  int closed_init_limit;
  int open_init_limit;
  const char* closed_tensors;
  const char* open_tensors;
  const char* closed_variants;
  const char* open_variants;
};

constexpr RawRow kRows[] = {
#include "importer/mlperf_compliance_table.inc"
};

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const std::size_t at = text.find(sep);
    out.push_back(text.substr(0, at));
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return out;
}

double Number(std::string_view text) {
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

// "FID<=90;CLIP>=0.15", "gbs<8192?0.712:0.706;<1".
TargetCheck ParseTarget(const char* key, std::string_view text) {
  TargetCheck check;
  if (text.empty()) return check;
  check.key = key;
  for (std::string_view item : Split(text, ';')) {
    if (item.substr(0, 4) == "gbs<") {
      const std::size_t q = item.find('?');
      const std::size_t c = item.find(':');
      check.batch_limit = Number(item.substr(4, q - 4));
      check.small_batch_min = Number(item.substr(q + 1, c - q - 1));
      check.large_batch_min = Number(item.substr(c + 1));
      continue;
    }
    const std::size_t op = item.find_first_of("<>");
    TargetBound bound;
    bound.field = std::string(item.substr(0, op));
    const std::size_t len = item.size() > op + 1 && item[op + 1] == '=' ? 2 : 1;
    bound.op = std::string(item.substr(op, len));
    bound.value = Number(item.substr(op + len));
    check.bounds.push_back(std::move(bound));
  }
  return check;
}

std::vector<RequiredKey> ParseRequired(std::string_view text) {
  std::vector<RequiredKey> out;
  for (std::string_view item : Split(text, ';')) {
    const std::size_t eq = item.find('=');
    out.push_back({std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))});
  }
  return out;
}

std::vector<std::string> ParseTensors(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view t : Split(text, ';')) out.emplace_back(t);
  return out;
}

// "opt_name|lars:key=REQ;key=REQ|sgd:key=REQ".
void ParseVariants(std::string_view text, DivisionRules& rules) {
  if (text.empty()) return;
  const std::vector<std::string_view> parts = Split(text, '|');
  rules.variant_key = std::string(parts.front());
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::size_t colon = parts[i].find(':');
    rules.variants[std::string(parts[i].substr(0, colon))] = ParseRequired(parts[i].substr(colon + 1));
  }
}

ComplianceRules ParseRow(const RawRow& row) {
  ComplianceRules r;
  r.ruleset = row.ruleset;
  r.benchmark = row.benchmark;
  // Each division's rules, field by field (the variants come after, from their own column).
  r.closed.target = ParseTarget(row.target_key, row.closed_target);
  r.closed.required = ParseRequired(row.closed_required);
  r.closed.init_limit_minutes = row.closed_init_limit;
  r.closed.tensors = ParseTensors(row.closed_tensors);
  r.open.target = ParseTarget(row.target_key, row.open_target);
  r.open.required = ParseRequired(row.open_required);
  r.open.init_limit_minutes = row.open_init_limit;
  r.open.tensors = ParseTensors(row.open_tensors);
  ParseVariants(row.closed_variants, r.closed);
  ParseVariants(row.open_variants, r.open);
  return r;
}

bool Compare(double x, const std::string& op, double bound) {
  if (op == ">=") return x >= bound;
  if (op == ">") return x > bound;
  if (op == "<=") return x <= bound;
  return x < bound;
}

}  // namespace

bool TargetCheck::Passes(const nlohmann::json& value, std::optional<double> global_batch_size) const {
  auto number = [&](const std::string& field, double& out) {
    const nlohmann::json* v = &value;
    if (!field.empty()) {
      if (!value.is_object() || !value.contains(field)) return false;
      v = &value[field];
    }
    if (!v->is_number()) return false;
    out = v->get<double>();
    return true;
  };
  double x = 0;
  if (batch_limit) {
    // The checker reads s['global_batch_size'] (set from the log); without it the expression fails.
    if (!global_batch_size || !number("", x)) return false;
    if (x < (*global_batch_size < *batch_limit ? *small_batch_min : *large_batch_min)) return false;
  }
  for (const TargetBound& b : bounds) {
    if (!number(b.field, x) || !Compare(x, b.op, b.value)) return false;
  }
  return true;
}

std::string TargetCheck::ToString() const {
  std::string out;
  if (batch_limit) {
    out = fmt::format("{} >= {:g} (global batch < {:g}) or >= {:g}", key, *small_batch_min, *batch_limit,
                      *large_batch_min);
  }
  for (const TargetBound& b : bounds) {
    out += fmt::format("{}{}{} {} {:g}", out.empty() ? "" : " and ", key, b.field.empty() ? "" : "." + b.field, b.op,
                       b.value);
  }
  return out;
}

const DivisionRules* ComplianceRules::For(std::string_view division) const {
  if (ruleset == "0.6.0") return &closed;  // 0.6.0 has no divisions: one chain for all
  if (division == "closed") return &closed;
  if (division == "open") return &open;
  return nullptr;
}

const std::vector<ComplianceRules>& AllComplianceRules() {
  static const std::vector<ComplianceRules> kAll = [] {
    std::vector<ComplianceRules> all;
    for (const RawRow& row : kRows) all.push_back(ParseRow(row));
    return all;
  }();
  return kAll;
}

const ComplianceRules* FindComplianceRules(std::string_view ruleset, std::string_view benchmark) {
  // Only the rows asked for are parsed, once each (a round's import asks for a few of the table's rows; parsing
  // all of them cost 1.5 ms of a small round's 50), and from any number of scoring threads at once.
  constexpr std::size_t kRowCount = std::size(kRows);
  static std::once_flag parsed[kRowCount];
  static std::optional<ComplianceRules> rules[kRowCount];
  for (std::size_t i = 0; i < kRowCount; ++i) {
    if (kRows[i].ruleset != ruleset || kRows[i].benchmark != benchmark) continue;
    std::call_once(parsed[i], [i] { rules[i] = ParseRow(kRows[i]); });
    return &*rules[i];
  }
  return nullptr;
}

}  // namespace evalsuite::importer
