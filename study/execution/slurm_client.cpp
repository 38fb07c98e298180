#include "study/execution/slurm_client.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "common/child_process.h"
#include "common/error.h"
#include "common/json_guard.h"

namespace evalsuite::study {
namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  std::size_t start = text.find_first_not_of(" \n\r\t");
  return start == std::string::npos ? "" : text.substr(start);
}

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.push_back("");
  return parts;
}

// What a Slurm command printed, as valid UTF-8: node names and reasons end up in the store's JSON, whose writer
// throws on anything else (a site's wrapper script or a cut pipe can print any bytes); invalid bytes read as U+FFFD,
// as the log importers read them.
std::string AsUtf8(const std::string& text) { return IsValidUtf8(text) ? text : ToValidUtf8(text); }

// sacct and scontrol append "by 0" and the like to a state ("CANCELLED by 0"): the first word is the state.
std::string FirstWord(const std::string& text) { return text.substr(0, text.find(' ')); }

}  // namespace

std::string ArrayTaskName(const std::string& job_id, int task) { return job_id + "_" + std::to_string(task); }

SlurmClient::SlurmClient(fs::path scratch_dir) : scratch_dir_(std::move(scratch_dir)) {}

SlurmClient::Output SlurmClient::Run(const std::vector<std::string>& argv) {
  std::error_code ec;
  fs::create_directories(scratch_dir_, ec);
  const std::string stem = (scratch_dir_ / (argv[0] + "." + std::to_string(getpid()))).string();
  ChildSpec spec;
  spec.argv = argv;
  spec.stdout_file = stem + ".out";
  spec.stderr_file = stem + ".err";
  fs::remove(spec.stdout_file, ec);
  fs::remove(spec.stderr_file, ec);
  ChildProcess child(spec);
  ChildExit exit = child.Wait();
  Output output;
  output.exit_code = exit.exit_status ? *exit.exit_status : -1;
  output.out = ReadAll(spec.stdout_file);
  output.err = Trim(ReadAll(spec.stderr_file));
  fs::remove(spec.stdout_file, ec);
  fs::remove(spec.stderr_file, ec);
  if (output.exit_code == 127 && output.err.find("cannot run '" + argv[0] + "'") != std::string::npos) {
    throw ExternalError(argv[0],
                        "not found on PATH: the Slurm executor needs Slurm's commands (run the study on a "
                        "login node of the cluster, or use executor = \"local\")");
  }
  return output;
}

std::string SlurmClient::Submit(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"sbatch", "--parsable"};
  argv.insert(argv.end(), args.begin(), args.end());
  Output output = Run(argv);
  if (output.exit_code != 0) {
    throw ExternalError("sbatch", "refused the array (exit " + std::to_string(output.exit_code) +
                                      "): " + (output.err.empty() ? "no message" : output.err));
  }
  // --parsable: "jobid" or "jobid;cluster".
  std::string id = Trim(output.out);
  id = id.substr(0, id.find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    throw ExternalError("sbatch", "answered '" + Trim(output.out) + "' instead of a job id");
  }
  return id;
}

std::map<std::string, SlurmTaskState> ParseSqueue(const std::string& printed) {
  const std::string text = AsUtf8(printed);
  std::map<std::string, SlurmTaskState> tasks;
  for (const std::string& line : Split(text, '\n')) {
    std::vector<std::string> fields = Split(Trim(line), '|');
    if (fields.size() < 2 || fields[0].empty()) continue;
    SlurmTaskState state;
    state.state = fields[1];
    if (fields.size() > 2) state.node = fields[2];
    if (fields.size() > 3) state.reason = fields[3];
    tasks[fields[0]] = state;
  }
  return tasks;
}

std::map<std::string, SlurmTaskState> SlurmClient::Queue(const std::vector<std::string>& job_ids) {
  std::map<std::string, SlurmTaskState> live;
  if (job_ids.empty()) return live;
  // All of this user's tasks, filtered here: `squeue -j` fails outright once one of the ids has left its memory.
  Output output = Run({"squeue", "--noheader", "--array", "--me", "--format=%i|%T|%N|%r"});
  if (output.exit_code != 0) {
    throw ExternalError("squeue", "failed (exit " + std::to_string(output.exit_code) + "): " + output.err);
  }
  for (auto& [name, state] : ParseSqueue(output.out)) {
    const std::string job = name.substr(0, name.find('_'));
    for (const std::string& id : job_ids) {
      if (job == id) live[name] = state;
    }
  }
  return live;
}

std::optional<SlurmTaskState> ParseScontrolJob(const std::string& printed) {
  SlurmTaskState state;
  std::istringstream in(AsUtf8(printed));
  std::string token;
  while (in >> token) {
    std::size_t eq = token.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = token.substr(0, eq), value = token.substr(eq + 1);
    if (key == "JobState") state.state = value;
    if (key == "Reason") state.reason = value;
    if (key == "NodeList" && value != "(null)") state.node = value;
    if (key == "ExitCode") state.exit_code = value;
  }
  if (state.state.empty()) return std::nullopt;
  return state;
}

std::optional<SlurmTaskState> ParseSacct(const std::string& printed, const std::string& task_name) {
  for (const std::string& line : Split(AsUtf8(printed), '\n')) {
    std::vector<std::string> fields = Split(Trim(line), '|');
    if (fields.size() < 4 || fields[0] != task_name) continue;
    SlurmTaskState state;
    state.state = FirstWord(fields[1]);
    state.exit_code = fields[2];
    state.node = fields[3] == "None assigned" ? "" : fields[3];
    if (fields.size() > 4) state.reason = fields[4];
    return state;
  }
  return std::nullopt;
}

std::optional<SlurmTaskState> SlurmClient::FinalState(const std::string& job_id, int task) {
  const std::string name = ArrayTaskName(job_id, task);
  Output sacct = Run({"sacct", "--noheader", "--parsable2", "--allocations", "--jobs=" + name,
                      "--format=JobID,State,ExitCode,NodeList,Reason"});
  if (sacct.exit_code == 0) {
    if (auto state = ParseSacct(sacct.out, name)) return state;
  }
  Output scontrol = Run({"scontrol", "--oneliner", "show", "job", name});
  if (scontrol.exit_code != 0) return std::nullopt;  // "Invalid job id specified": Slurm forgot it
  return ParseScontrolJob(scontrol.out);
}

void SlurmClient::Cancel(const std::string& job_id) {
  Output output = Run({"scancel", job_id});
  if (output.exit_code != 0) {
    throw ExternalError("scancel", "could not cancel job " + job_id + ": " + output.err);
  }
}

}  // namespace evalsuite::study
