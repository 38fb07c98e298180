// The Slurm commands the coordinator uses, run as processes and parsed: sbatch (submit an array), squeue (its live
// tasks), sacct or, where accounting is off, scontrol (how an ended task ended) and scancel. Each failure is an
// ExternalError naming the command and quoting its stderr; a command not found says Slurm's tools are missing.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::study {

struct SlurmTaskState {
  std::string state;      // PENDING, RUNNING, COMPLETED, CANCELLED, TIMEOUT, NODE_FAIL, PREEMPTED, OUT_OF_MEMORY, ...
  std::string node;       // empty while pending
  std::string reason;     // squeue's/scontrol's reason, sacct's; may be empty
  std::string exit_code;  // "0:15" (status:signal) once ended, when known
};

// "12345_7": the name squeue and scontrol give array task 7 of array job 12345.
std::string ArrayTaskName(const std::string& job_id, int task);

class SlurmClient {
 public:
  // `scratch_dir` holds the commands' captured output.
  explicit SlurmClient(std::filesystem::path scratch_dir);

  // sbatch --parsable ARGS...; returns the job id. Throws ExternalError (sbatch missing, refusing, or not
  // answering with a job id).
  std::string Submit(const std::vector<std::string>& args);
  // The live (pending, running, requeued, ...) tasks of these array jobs, by ArrayTaskName.
  std::map<std::string, SlurmTaskState> Queue(const std::vector<std::string>& job_ids);
  // How an ended task ended: sacct when accounting works, else scontrol (which knows a job for MinJobAge
  // after its end); nullopt when Slurm no longer knows it.
  std::optional<SlurmTaskState> FinalState(const std::string& job_id, int task);
  void Cancel(const std::string& job_id);

 private:
  struct Output {
    int exit_code = -1;
    std::string out, err;
  };
  Output Run(const std::vector<std::string>& argv);

  std::filesystem::path scratch_dir_;
};

// Parsers, public for tests: squeue -o '%i|%T|%N|%r' lines; scontrol show job -o's Key=Value line.
std::map<std::string, SlurmTaskState> ParseSqueue(const std::string& text);
std::optional<SlurmTaskState> ParseScontrolJob(const std::string& text);
// sacct -n -P -X -o JobID,State,ExitCode,NodeList,Reason
std::optional<SlurmTaskState> ParseSacct(const std::string& text, const std::string& task_name);

}  // namespace evalsuite::study
