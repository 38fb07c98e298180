#include "study/plans/slurm_options.h"

#include "common/json_fields.h"

namespace evalsuite::study {
namespace {

const std::set<std::string> kSlurmKeys = {"partition", "account", "time_limit",     "cpus_per_task",  "gpus_per_task",
                                          "gres",      "mem",     "max_concurrent", "sbatch_options", "poll_seconds"};

// Characters that would let a value become a second sbatch option or break the command line are refused.
void CheckOptionValue(const TomlReader& reader, const toml::node& node, const std::string& key,
                      const std::string& value) {
  if (value.empty()) reader.Fail(TomlReader::Line(node), key, "must not be empty");
  if (value.find_first_of(" \t\n\r'\"\\") != std::string::npos || value[0] == '-') {
    reader.Fail(TomlReader::Line(node), key, "'" + value + "' is not a single sbatch value");
  }
}

}  // namespace

void ReadExecutorKeys(const toml::table& root, const TomlReader& reader, std::string& executor, SlurmOptions& slurm) {
  if (const toml::node* n = root.get("executor")) {
    executor = reader.String(*n, "executor");
    if (executor != kLocalExecutor && executor != kSlurmExecutor) {
      reader.Fail(TomlReader::Line(*n), "executor", "'" + executor + "': use \"local\" or \"slurm\"");
    }
  }
  const toml::node* n = root.get("slurm");
  if (!n) return;
  if (!n->is_table()) reader.Fail(TomlReader::Line(*n), "slurm", "must be a table");
  const toml::table& table = *n->as_table();
  reader.RejectUnknownKeys(table, kSlurmKeys, "slurm.", "[slurm]");
  auto text = [&](const char* key, std::string& out) {
    if (const toml::node* v = table.get(key)) {
      out = reader.String(*v, std::string("slurm.") + key);
      CheckOptionValue(reader, *v, std::string("slurm.") + key, out);
    }
  };
  text("partition", slurm.partition);
  text("account", slurm.account);
  text("time_limit", slurm.time_limit);
  text("gres", slurm.gres);
  text("mem", slurm.mem);
  if (const toml::node* v = table.get("cpus_per_task")) {
    slurm.cpus_per_task = static_cast<int>(reader.Integer(*v, "slurm.cpus_per_task", 1, 4096));
  }
  if (const toml::node* v = table.get("gpus_per_task")) {
    slurm.gpus_per_task = static_cast<int>(reader.Integer(*v, "slurm.gpus_per_task", 1, 1024));
  }
  if (const toml::node* v = table.get("max_concurrent")) {
    slurm.max_concurrent = static_cast<int>(reader.Integer(*v, "slurm.max_concurrent", 0, 1000000));
  }
  if (const toml::node* v = table.get("poll_seconds")) {
    slurm.poll_seconds = reader.Number(*v, "slurm.poll_seconds");
    if (slurm.poll_seconds < 0.05 || slurm.poll_seconds > 3600) {
      reader.Fail(TomlReader::Line(*v), "slurm.poll_seconds", "must be in [0.05, 3600]");
    }
  }
  if (const toml::node* v = table.get("sbatch_options")) {
    if (!v->is_array()) {
      reader.Fail(TomlReader::Line(*v), "slurm.sbatch_options",
                  "must be an array of strings, got " + TomlReader::TypeName(*v));
    }
    int i = 0;
    for (const toml::node& option : *v->as_array()) {
      const std::string key = "slurm.sbatch_options[" + std::to_string(i++) + "]";
      std::string value = reader.String(option, key);
      if (value.rfind("-", 0) != 0) reader.Fail(TomlReader::Line(option), key, "'" + value + "' is not an option");
      if (value.rfind("--array", 0) == 0 || value.rfind("--output", 0) == 0 || value.rfind("--parsable", 0) == 0) {
        reader.Fail(TomlReader::Line(option), key, "'" + value + "' is set by evalsuite itself");
      }
      slurm.sbatch_options.push_back(std::move(value));
    }
  }
}

nlohmann::json SlurmOptionsToJson(const SlurmOptions& o) {
  return {{"partition", o.partition},
          {"account", o.account},
          {"time_limit", o.time_limit},
          {"cpus_per_task", o.cpus_per_task},
          {"gpus_per_task", o.gpus_per_task},
          {"gres", o.gres},
          {"mem", o.mem},
          {"max_concurrent", o.max_concurrent},
          {"sbatch_options", o.sbatch_options},
          {"poll_seconds", o.poll_seconds}};
}

SlurmOptions SlurmOptionsFromJson(const nlohmann::json& json) {
  SlurmOptions o;
  if (!json.is_object()) return o;
  o.partition = json.value("partition", "");
  o.account = json.value("account", "");
  o.time_limit = json.value("time_limit", "");
  // Integers through IntegerAs (nlohmann's get<int>() of a float out of range is undefined behaviour); a stored
  // value outside what the study file may say reads as the default.
  auto integer = [&](const char* key) {
    const auto it = json.find(key);
    return it == json.end() ? 0 : IntegerAs<int>(*it).value_or(0);
  };
  o.cpus_per_task = integer("cpus_per_task");
  o.gpus_per_task = integer("gpus_per_task");
  o.gres = json.value("gres", "");
  o.mem = json.value("mem", "");
  o.max_concurrent = integer("max_concurrent");
  o.sbatch_options = json.value("sbatch_options", std::vector<std::string>{});
  const double poll = json.value("poll_seconds", o.poll_seconds);
  if (poll >= 0.05 && poll <= 3600) o.poll_seconds = poll;  // NaN and the rest keep the default
  return o;
}

std::vector<std::string> SbatchResourceOptions(const SlurmOptions& o, int threads) {
  std::vector<std::string> args;
  if (!o.partition.empty()) args.push_back("--partition=" + o.partition);
  if (!o.account.empty()) args.push_back("--account=" + o.account);
  if (!o.time_limit.empty()) args.push_back("--time=" + o.time_limit);
  args.push_back("--cpus-per-task=" + std::to_string(o.cpus_per_task > 0 ? o.cpus_per_task : threads));
  if (o.gpus_per_task > 0) args.push_back("--gpus-per-task=" + std::to_string(o.gpus_per_task));
  if (!o.gres.empty()) args.push_back("--gres=" + o.gres);
  if (!o.mem.empty()) args.push_back("--mem=" + o.mem);
  for (const std::string& extra : o.sbatch_options) args.push_back(extra);
  return args;
}

}  // namespace evalsuite::study
