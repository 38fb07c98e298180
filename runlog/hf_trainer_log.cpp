#include "runlog/hf_trainer_log.h"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "common/error.h"
#include "common/json_guard.h"
#include "runlog/non_finite_words.h"

namespace evalsuite::runlog {
namespace fs = std::filesystem;
using nlohmann::json;

namespace hf_detail {

// The 1-based line of each element of the top-level "log_history" array, in order.
std::vector<long> LogHistoryLines(const std::string& text) {
  std::vector<long> lines;
  const std::size_t key = text.find("\"log_history\"");
  if (key == std::string::npos) return lines;
  std::size_t i = text.find('[', key + 13);
  if (i == std::string::npos || text.find_first_not_of(" \t\r\n:", key + 13) != i) return lines;
  long line = 1;
  for (std::size_t k = 0; k < i; ++k) line += text[k] == '\n';
  int depth = 1;            // 1: between the array's elements; 2+: inside one
  bool in_element = false;  // an element has started at depth 1 and no ',' has ended it
  bool in_string = false;
  for (++i; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (depth == 1) {
      if (c == ']') break;
      if (c == ',') {
        in_element = false;
        continue;
      }
      if (!in_element) {
        lines.push_back(line);
        in_element = true;
      }
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return lines;
}

std::optional<double> NumberIn(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  return std::nullopt;
}

// The number under `key`, NaN when absent or not a number (plain doubles: GCC's -Wmaybe-uninitialized misreads
// optionals here).
double NumberAt(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) return std::numeric_limits<double>::quiet_NaN();
  return NumberIn(*it).value_or(std::numeric_limits<double>::quiet_NaN());
}

bool IsNumberAt(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && NumberIn(*it).has_value();
}

// Keys of an evaluation entry that are not the model's quality: durations, throughput, the epoch and step.
bool IsEvalBookkeeping(const std::string& key) {
  for (const char* suffix : {"_runtime", "_samples_per_second", "_steps_per_second", "_tokens_per_second"}) {
    const std::string s(suffix);
    if (key.size() >= s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0) return true;
  }
  return false;
}

}  // namespace hf_detail

bool LooksLikeHfTrainerState(const std::string& head) {
  const std::size_t brace = head.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  return brace != std::string::npos && head[brace] == '{' && head.find("\"log_history\"") != std::string::npos;
}

FrameworkRun ReadHfTrainerState(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw IoError(file.string(), "cannot open the file");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string raw = buffer.str();
  const std::string text = QuoteNonFiniteWords(raw, "");
  std::string why;
  const json state = TryParseUserJson(text, why);
  if (!why.empty()) {
    throw InputError(file.string(), "not a Hugging Face trainer_state.json: " + why);
  }
  if (!state.is_object() || !state.contains("log_history")) {
    throw InputError(file.string(), "not a Hugging Face trainer_state.json: no \"log_history\" key");
  }
  const json& history = state["log_history"];
  if (!history.is_array()) {
    throw InputError(file.string(), "\"log_history\" is " + std::string(history.type_name()) + ", not an array");
  }
  const std::vector<long> lines = hf_detail::LogHistoryLines(raw);

  FrameworkRun run;
  run.format = "hf-trainer";
  run.source = file;
  run.label = file.string();
  run.basis = TimeBasis::kEpochs;
  run.basis_rule = "the Trainer's own fractional epoch of each evaluation";
  double eval_seconds = 0;
  std::size_t evaluations = 0;
  double last_epoch = 0;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const json& entry = history[i];
    const long line = i < lines.size() ? lines[i] : 0;
    const std::string where =
        line > 0 ? FileLine(file.string(), line) : fmt::format("{}: log_history[{}]", file.string(), i);
    if (!entry.is_object()) throw InputError(where, "a log_history entry is not an object");
    const double epoch = hf_detail::NumberAt(entry, "epoch");
    if (hf_detail::IsNumberAt(entry, "train_runtime"))
      run.facts["train_runtime"] = hf_detail::NumberAt(entry, "train_runtime");
    if (std::isfinite(epoch)) last_epoch = std::max(last_epoch, epoch);
    bool is_eval = false;
    for (auto it = entry.begin(); it != entry.end(); ++it) {
      if (it.key().rfind("eval_", 0) == 0) is_eval = true;
    }
    if (!is_eval) continue;
    if (!hf_detail::IsNumberAt(entry, "epoch")) {
      throw InputError(where, "an evaluation entry without a numeric \"epoch\"");
    }
    if (entry.contains("step") && !hf_detail::NumberIn(entry["step"])) {
      throw InputError(where, "\"step\" is not a number");
    }
    ++evaluations;
    if (entry.contains("eval_runtime")) {
      if (auto v = hf_detail::NumberIn(entry["eval_runtime"]); v && std::isfinite(*v)) eval_seconds += *v;
    }
    for (auto it = entry.begin(); it != entry.end(); ++it) {
      if (it.key().rfind("eval_", 0) != 0 || hf_detail::IsEvalBookkeeping(it.key())) continue;
      const std::optional<double> value = hf_detail::NumberIn(it.value());
      if (!value) continue;  // a list or text (a report, a confusion matrix): not a scalar metric
      run.series[it.key()].push_back({epoch, epoch, *value, line});
    }
  }
  if (evaluations == 0) {
    run.warnings.push_back(file.string() + ": log_history holds no evaluation (no eval_* entry)");
  }
  const double state_epoch = hf_detail::NumberAt(state, "epoch");
  run.progress_spent = std::isfinite(state_epoch) ? std::max(state_epoch, last_epoch) : last_epoch;
  run.facts["eval_runtime_total"] = eval_seconds;
  const double global_step = hf_detail::NumberAt(state, "global_step");
  const double max_steps = hf_detail::NumberAt(state, "max_steps");
  if (std::isfinite(global_step)) run.facts["global_step"] = global_step;
  if (std::isfinite(max_steps)) run.facts["max_steps"] = max_steps;
  if (std::isfinite(global_step) && std::isfinite(max_steps) && max_steps > 0 && global_step < max_steps) {
    run.status = analysis::EndedAs::kNoEnd;
    run.status_note =
        fmt::format("saved at step {:g} of max_steps {:g} (a checkpoint taken mid-training)", global_step, max_steps);
  }
  return run;
}

}  // namespace evalsuite::runlog
