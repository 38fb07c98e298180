#include "study/plans/regex_log_keys.h"

namespace evalsuite::study {

const std::set<std::string>& RegexLogKeys() {
  static const std::set<std::string> keys = {"log_regex", "log_end_regex", "log_time_unit", "log_time_kind",
                                             "log_metric_unit"};
  return keys;
}

void ReadRegexLogKeys(const TomlReader& reader, const toml::table& table, const std::string& prefix,
                      const std::string& log_format, long entry_line, runlog::RegexLogOptions& options) {
  if (log_format != "regex") {
    for (const std::string& key : RegexLogKeys()) {
      if (const toml::node* n = table.get(key)) {
        reader.Fail(TomlReader::Line(*n), prefix + "." + key, "only for log_format = \"regex\"");
      }
    }
    return;
  }
  const toml::node* patterns = table.get("log_regex");
  if (!patterns) {
    reader.Fail(entry_line, prefix + ".log_regex",
                "log_format = \"regex\" needs log_regex, a pattern with named groups, e.g. "
                "'Epoch (?<epoch>\\d+) .* time (?<time>[\\d.]+)s .* acc (?<accuracy>[\\d.]+)'");
  }
  if (patterns->is_array()) {
    int i = 0;
    for (const toml::node& element : *patterns->as_array()) {
      options.patterns.push_back(reader.String(element, prefix + ".log_regex[" + std::to_string(i++) + "]"));
    }
  } else if (patterns->is_string()) {
    options.patterns.push_back(patterns->as_string()->get());
  } else {
    reader.Fail(TomlReader::Line(*patterns), prefix + ".log_regex",
                "must be a string or an array of strings, got " + TomlReader::TypeName(*patterns));
  }
  auto read_string = [&](const char* key, std::string& out) {
    if (const toml::node* n = table.get(key)) out = reader.String(*n, prefix + "." + key);
  };
  read_string("log_end_regex", options.end_pattern);
  read_string("log_time_unit", options.time_unit);
  read_string("log_time_kind", options.time_kind);
  read_string("log_metric_unit", options.metric_unit);
  if (std::optional<runlog::RegexLogProblem> problem = runlog::CheckRegexLogOptions(options)) {
    const toml::node* node = table.get(problem->field);
    std::string key = prefix + "." + problem->field;
    if (problem->index && patterns->is_array()) {
      key += "[" + std::to_string(*problem->index) + "]";
      node = patterns->as_array()->get(*problem->index);
    }
    reader.Fail(node ? TomlReader::Line(*node) : entry_line, key, problem->message);
  }
}

nlohmann::json RegexLogOptionsToJson(const runlog::RegexLogOptions& options) {
  return {{"patterns", options.patterns},
          {"end_pattern", options.end_pattern},
          {"time_unit", options.time_unit},
          {"time_kind", options.time_kind},
          {"metric_unit", options.metric_unit}};
}

runlog::RegexLogOptions RegexLogOptionsFromJson(const nlohmann::json& json) {
  runlog::RegexLogOptions options;
  options.patterns = json.at("patterns").get<std::vector<std::string>>();
  options.end_pattern = json.at("end_pattern").get<std::string>();
  options.time_unit = json.at("time_unit").get<std::string>();
  options.time_kind = json.at("time_kind").get<std::string>();
  options.metric_unit = json.at("metric_unit").get<std::string>();
  return options;
}

}  // namespace evalsuite::study
