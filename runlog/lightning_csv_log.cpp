#include "runlog/lightning_csv_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "common/error.h"
#include "common/json_guard.h"

namespace evalsuite::runlog {
namespace fs = std::filesystem;

namespace lightning_detail {

std::string TrimYaml(std::string s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.pop_back();
  std::size_t b = 0;
  while (b < s.size() && (s[b] == ' ' || s[b] == '\t')) ++b;
  s = s.substr(b);
  if (s.size() >= 2 && ((s.front() == '\'' && s.back() == '\'') || (s.front() == '"' && s.back() == '"'))) {
    s = s.substr(1, s.size() - 2);
  }
  return s;
}

nlohmann::json SeedValue(const std::string& text) {
  if (const std::optional<double> v = CsvNumber(text); v && std::isfinite(*v) && *v == std::floor(*v)) {
    return static_cast<long long>(*v);
  }
  return text;
}

}  // namespace lightning_detail

std::optional<std::string> TopLevelYamlValue(const fs::path& file, const std::string& key) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::string line;
  const std::string prefix = key + ":";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::string value = lightning_detail::TrimYaml(line.substr(prefix.size()));
    if (value.empty() || value == "null" || value == "~") return std::nullopt;
    return ToValidUtf8(value);
  }
  return std::nullopt;
}

std::map<std::string, std::string> YamlScalars(const fs::path& file) {
  std::map<std::string, std::string> out;
  std::ifstream in(file, std::ios::binary);
  if (!in) return out;
  std::vector<std::pair<std::size_t, std::string>> parents;  // (indent, key) of the mappings the line is inside
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    std::size_t indent = 0;
    while (indent < line.size() && line[indent] == ' ') ++indent;
    if (indent == line.size() || line[indent] == '#') continue;
    const std::string body = line.substr(indent);
    if (body.rfind("- ", 0) == 0 || body == "-") {  // a list item of the key above
      while (!parents.empty() && parents.back().first > indent) parents.pop_back();
      if (parents.empty()) continue;
      std::string key;
      for (const auto& p : parents) key += (key.empty() ? "" : ".") + p.second;
      const std::string item = lightning_detail::TrimYaml(body.substr(1));
      out[key] += (out[key].empty() ? "" : ", ") + ToValidUtf8(item);
      continue;
    }
    const std::size_t colon = body.find(": ");
    const bool ends_with_colon = !body.empty() && body.back() == ':';
    if (colon == std::string::npos && !ends_with_colon) continue;
    const std::string key =
        ends_with_colon && colon == std::string::npos ? body.substr(0, body.size() - 1) : body.substr(0, colon);
    while (!parents.empty() && parents.back().first >= indent) parents.pop_back();
    std::string full;
    for (const auto& p : parents) full += p.second + ".";
    full += lightning_detail::TrimYaml(key);
    const std::string value =
        colon == std::string::npos ? std::string() : lightning_detail::TrimYaml(body.substr(colon + 2));
    if (value.empty()) {
      parents.push_back({indent, lightning_detail::TrimYaml(key)});  // a mapping or list follows
      continue;
    }
    out[ToValidUtf8(full)] = ToValidUtf8(value);
  }
  return out;
}

bool LooksLikeLightningHeader(const std::string& header_line) {
  const std::vector<std::string> columns = SplitCsvLine(header_line, ',');
  return std::find(columns.begin(), columns.end(), "step") != columns.end() &&
         std::find(columns.begin(), columns.end(), "epoch") != columns.end();
}

FrameworkRun ReadLightningMetricsCsv(const fs::path& file) {
  const CsvTable table = ReadCsvTable(file);
  const auto column = [&](const std::string& name) -> std::optional<std::size_t> {
    const auto it = std::find(table.header.begin(), table.header.end(), name);
    if (it == table.header.end()) return std::nullopt;
    return static_cast<std::size_t>(it - table.header.begin());
  };
  const std::optional<std::size_t> step_col = column("step");
  const std::optional<std::size_t> epoch_col = column("epoch");
  if (!step_col) {
    throw InputError(FileLine(file.string(), 1),
                     "not a Lightning CSVLogger metrics.csv: the header has no \"step\" column");
  }
  FrameworkRun run;
  run.format = "lightning";
  run.source = file;
  run.label = file.string();
  run.basis = TimeBasis::kSteps;
  run.basis_rule = "Lightning's step column as written (the global step when the row was logged)";
  double last_epoch = 0;
  for (const CsvTable::Row& row : table.rows) {
    const std::string where = FileLine(file.string(), row.line);
    if (row.fields.size() > table.header.size()) {
      throw InputError(
          where, fmt::format("{} fields, but the header names {} columns", row.fields.size(), table.header.size()));
    }
    const auto cell = [&](std::size_t i) { return i < row.fields.size() ? row.fields[i] : std::string(); };
    const std::optional<double> step = CsvNumber(cell(*step_col));
    if (!step) throw InputError(where, "the step column holds \"" + cell(*step_col) + "\", not a number");
    std::optional<double> epoch = epoch_col ? CsvNumber(cell(*epoch_col)) : std::nullopt;
    // A row without an epoch (Lightning logs it beside every metric, but not with per-batch validation rows in
    // some versions) takes the last epoch seen.
    const double point_epoch = epoch ? *epoch + 1 : last_epoch;
    if (epoch) last_epoch = *epoch + 1;
    run.progress_spent = std::max(run.progress_spent, *step);
    for (std::size_t i = 0; i < table.header.size(); ++i) {
      if (i == *step_col || (epoch_col && i == *epoch_col)) continue;
      const std::optional<double> value = CsvNumber(cell(i));
      if (!value) {
        if (!cell(i).empty() && cell(i) != "NA") {
          run.warnings.push_back(
              fmt::format("{}: column {} holds \"{}\", not a number; skipped", where, table.header[i], cell(i)));
        }
        continue;
      }
      run.series[table.header[i]].push_back({*step, point_epoch, *value, row.line});
    }
  }
  const fs::path hparams = file.parent_path() / "hparams.yaml";
  run.hyperparameters = YamlScalars(hparams);
  if (!run.hyperparameters.empty()) run.hyperparameter_source = "hparams.yaml";
  for (const char* key : {"seed", "random_seed"}) {
    if (const std::optional<std::string> seed = TopLevelYamlValue(hparams, key)) {
      run.seed = lightning_detail::SeedValue(*seed);
      run.seed_source = "hparams.yaml " + std::string(key);
      break;
    }
  }
  return run;
}

}  // namespace evalsuite::runlog
