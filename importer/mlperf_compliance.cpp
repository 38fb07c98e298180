#include "importer/mlperf_compliance.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <map>

namespace evalsuite::importer {
namespace {

// Stable diffusion's aggregated_eval_accuracy: the compliance YAML makes these "virtual" records itself, one per
// step of the eval_accuracy records that name a metric (FID, CLIP), unless the log has its own. Build() folds
// those records the same way (FoldStableDiffusionEvals) before the check.
std::vector<runlog::MlperfEval> AggregatedEvals(const runlog::MlperfRun& run) {
  if (!run.aggregated_evals.empty()) return run.aggregated_evals;
  std::vector<runlog::MlperfEval> out;
  for (const runlog::MlperfEval& e : run.evals) {
    if (e.value.is_object() && (e.value.contains("FID") || e.value.contains("CLIP"))) out.push_back(e);
  }
  return out;
}

std::size_t CountOf(const runlog::MlperfRun& run, std::string_view key) {
  if (key == "aggregated_eval_accuracy") return AggregatedEvals(run).size();
  auto it = run.keys.find(key);
  return it == run.keys.end() ? 0 : it->second.count;
}

// The REQ rules of the official checker, one finding per broken requirement (EXACTLY_ONE logged more than once
// with one value is only a warning there, so it is none here).
void CheckRequired(const runlog::MlperfRun& run, const DivisionRules& rules,
                   const std::function<void(long, const char*, std::string, bool)>& add) {
  for (const RequiredKey& r : rules.required) {
    const std::size_t n = CountOf(run, r.key);
    if (r.req == "EXACTLY_ONE") {
      if (n == 0) {
        add(0, "required_key", fmt::format("required key \"{}\" is not logged (EXACTLY_ONE)", r.key), true);
      } else if (n > 1) {
        const runlog::MlperfKeyStat& stat = run.keys.find(r.key)->second;
        if (stat.values_differ) {
          add(stat.first_line, "required_key",
              fmt::format("\"{}\" is logged {} times with different values (EXACTLY_ONE)", r.key, n), true);
        }
      }
    } else if (r.req == "AT_LEAST_ONE") {
      if (n == 0) add(0, "required_key", fmt::format("required key \"{}\" is not logged (AT_LEAST_ONE)", r.key), true);
    } else if (r.req.rfind("AT_LEAST_ONE_OR(", 0) == 0) {
      bool any = n > 0;
      std::string names = "\"" + r.key + "\"";
      const std::string inner = r.req.substr(16, r.req.size() - 17);
      std::size_t from = 0;
      while (from <= inner.size()) {
        std::size_t comma = inner.find(',', from);
        if (comma == std::string::npos) comma = inner.size();
        std::string other = inner.substr(from, comma - from);
        while (!other.empty() && other.front() == ' ') other.erase(0, 1);
        while (!other.empty() && other.back() == ' ') other.pop_back();
        if (!other.empty()) {
          any = any || CountOf(run, other) > 0;
          names += " or \"" + other + "\"";
        }
        from = comma + 1;
      }
      if (!any) add(0, "required_key", "none of " + names + " is logged (AT_LEAST_ONE_OR)", true);
    } else if (r.req.rfind("AT_LEAST(", 0) == 0) {
      const long want = std::strtol(r.req.c_str() + 9, nullptr, 10);
      if (static_cast<long>(n) < want) {
        add(0, "required_key", fmt::format("\"{}\" is logged {} times, {} required", r.key, n, r.req), true);
      }
    }
  }
}

// The rules file a logged value picks (resnet's opt_name "lars": closed_resnet_lars.yaml) and its required keys.
void CheckVariant(const runlog::MlperfRun& run, const DivisionRules& rules,
                  const std::function<void(long, const char*, std::string, bool)>& add) {
  auto it = run.keys.find(rules.variant_key);
  if (it == run.keys.end()) return;  // the key's own REQ says so
  std::string value =
      it->second.first_value.is_string() ? it->second.first_value.get<std::string>() : it->second.first_value.dump();
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
  auto variant = rules.variants.find(value);
  if (variant == rules.variants.end()) {
    add(it->second.first_line, "required_key",
        fmt::format("{} \"{}\" has no rules in the official checker", rules.variant_key, value), true);
    return;
  }
  DivisionRules picked;
  picked.required = variant->second;
  CheckRequired(run, picked, add);
}

// The END check of 1.0.0 rnnt and 1.1.0 ... 2.1.0: the initialized tensors are exactly the reference's.
void CheckTensors(const runlog::MlperfRun& run, const std::vector<std::string>& want,
                  const std::function<void(long, const char*, std::string, bool)>& add) {
  if (run.untensored_init_line > 0) {
    add(run.untensored_init_line, "weights_initialization", "weights_initialization without metadata.tensor", true);
    return;
  }
  std::vector<std::string> have = run.initialized_tensors;
  std::sort(have.begin(), have.end());
  if (have == want) return;
  std::vector<std::string> missing, extra;
  std::set_difference(want.begin(), want.end(), have.begin(), have.end(), std::back_inserter(missing));
  std::set_difference(have.begin(), have.end(), want.begin(), want.end(), std::back_inserter(extra));
  auto some = [](const std::vector<std::string>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size() && i < 3; ++i) out += (i ? ", " : "") + v[i];
    return v.size() > 3 ? out + fmt::format(" and {} more", v.size() - 3) : out;
  };
  add(0, "weights_initialization",
      fmt::format("weights_initialization names {} tensor(s), the ruleset's reference {}{}{}", have.size(), want.size(),
                  missing.empty() ? "" : "; not logged: " + some(missing),
                  extra.empty() ? "" : "; not in the reference: " + some(extra)),
      true);
}

}  // namespace

std::string ComplianceFinding::Where() const { return line > 0 ? file + ":" + std::to_string(line) : file; }

std::vector<ComplianceFinding> CheckRunCompliance(const runlog::MlperfRun& run, const BenchmarkRule* rule,
                                                  const ComplianceRules* official) {
  std::vector<ComplianceFinding> findings;
  auto add = [&](long line, const char* kind, std::string message, bool drops) {
    findings.push_back({run.source, line, kind, std::move(message), drops});
  };
  if (run.records == 0) return findings;  // not an MLPerf log at all: the parser said so
  // The summarizer's own reading: no run_start or run_stop, no time to train.
  if (!run.run_start_ms) add(0, "required_key", "no run_start: the run has no start", true);
  if (!run.run_stop_ms) add(0, "required_key", "no run_stop: the run did not finish", true);
  if (run.run_start_ms && run.run_stop_ms &&
      (*run.run_stop_ms < *run.run_start_ms || run.run_stop_line < run.run_start_line)) {
    add(run.run_stop_line, "order", fmt::format("run_stop comes before run_start (line {})", run.run_start_line), true);
  }
  for (const runlog::MlperfParseError& e : run.parse_errors) {
    add(e.line, "parse_error", e.why + ": the official parser cannot read this record", true);
  }
  if (official != nullptr) {
    const auto division_it = run.submission.find("submission_division");
    const std::string division =
        division_it != run.submission.end() && division_it->is_string() ? division_it->get<std::string>() : "";
    const DivisionRules* rules = official->For(division);
    if (rules == nullptr) {
      add(0, "division",
          fmt::format("submission_division \"{}\" is neither closed nor open: the official checker has no rules "
                      "for it",
                      division),
          true);
    } else {
      CheckRequired(run, *rules, add);
      if (!rules->target.empty()) {
        const std::vector<runlog::MlperfEval> records =
            rules->target.key == "aggregated_eval_accuracy" ? AggregatedEvals(run) : run.evals;
        // The checker judges only a key that is logged; AT_LEAST_ONE on it is a separate rule.
        if (!records.empty()) {
          bool reached = false;
          for (const runlog::MlperfEval& e : records) {
            reached = reached || rules->target.Passes(e.value, run.global_batch_size);
          }
          if (!reached) {
            add(records.back().line, "target",
                fmt::format("no {} record passes the official target check ({})", rules->target.key,
                            rules->target.ToString()),
                true);
          }
        }
      }
      if (!rules->variant_key.empty()) CheckVariant(run, *rules, add);
      if (!rules->tensors.empty()) CheckTensors(run, rules->tensors, add);
      if (rules->init_limit_minutes > 0 && run.init_ms && *run.init_ms >= rules->init_limit_minutes * 60e3) {
        add(run.init_line, "init_time",
            fmt::format("init took {:.1f} minutes; the {} division allows less than {}", *run.init_ms / 60e3,
                        division.empty() ? "closed" : division, rules->init_limit_minutes),
            true);
      }
    }
  }
  if (!run.seed) add(0, "seed", "no seed logged", false);
  if (run.Succeeded() && rule != nullptr && rule->target) {
    bool reached = false;
    for (const runlog::MlperfEval& e : run.evals) reached = reached || MeetsTarget(*rule, e);
    if (!reached) {
      // Where the official checker has no target rule (v0.5, v0.6, stable diffusion's eval_accuracy), evalsuite
      // says so, and the score stays the official one.
      add(run.run_stop_line, "evalsuite_target",
          fmt::format("{} but no evaluation reaches the target ({} {} {}); the official tools count the run",
                      run.stop_status_assumed ? "run_stop without a status (v0.5)" : "run_stop says success",
                      rule->metric, rule->lower_is_better ? "<=" : ">=", *rule->target),
          false);
    }
  }
  return findings;
}

std::vector<ComplianceFinding> CheckSeedsDistinct(const std::vector<const runlog::MlperfRun*>& runs) {
  std::vector<ComplianceFinding> findings;
  std::map<std::string, const runlog::MlperfRun*> first;
  for (const runlog::MlperfRun* run : runs) {
    if (!run->seed) continue;
    const std::string key = run->seed->dump();
    auto [it, inserted] = first.emplace(key, run);
    if (!inserted) {
      findings.push_back({run->source, run->seed_line, "seed",
                          fmt::format("seed {} was logged by {}:{} already: seeds must differ between runs", key,
                                      it->second->source, it->second->seed_line),
                          false});
    }
  }
  return findings;
}

}  // namespace evalsuite::importer
