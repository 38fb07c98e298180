// What one run used of its GPUs, sampled with nvidia-smi's documented query interface while the run runs: every
// interval one `nvidia-smi --query-gpu=index,uuid,memory.used,memory.total,utilization.gpu
// --format=csv,noheader,nounits`, non-blocking, driven from the caller's poll loop (the scheduler, a Slurm task), so
// no thread. Per device of the run it keeps the peak memory used and the mean utilization of the samples. Nothing
// about nvidia-smi can fail a run: absent, hanging (killed after a timeout), exiting non-zero, printing "[N/A]" or
// garbage all end as counts and warnings in the record.
//
// One query per sample rather than nvidia-smi's loop mode (-l/-lms): each sample is a whole process with its own
// exit status and timeout (a hang costs one sample, not the rest of the run), nothing depends on nvidia-smi flushing
// a pipe between loops, and loop mode prints ECC/XID events between the rows. All GPUs are queried and the run's are
// picked by index or UUID here, rather than with `-i`, which the manual documents for a single id: a run with two
// devices would need two processes, and an id nvidia-smi does not know would fail the whole query.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace evalsuite::study {

constexpr const char* kNvidiaSmi = "nvidia-smi";

struct GpuSamplerOptions {
  double interval_seconds = 1;  // plan key gpu_sample_seconds
  double timeout_seconds = 10;  // a query still running by then is killed (its whole process group): a failed sample
  // The run's devices as its CUDA_VISIBLE_DEVICES names them (indices or UUIDs, a UUID may be a prefix); empty: all.
  std::vector<std::string> devices;
  std::string program = kNvidiaSmi;  // looked up in PATH unless it contains a '/'
};

// One row of the query. A field nvidia-smi cannot give ("[N/A]", "[Not Supported]", ...) is nullopt.
struct GpuReading {
  std::string index;
  std::string uuid;
  std::optional<double> memory_used_mib;
  std::optional<double> memory_total_mib;
  std::optional<double> utilization_percent;
};

// Parses one output line; nullopt, with the reason in `why`, for a line that is not a row (a warning, garbage).
std::optional<GpuReading> ParseGpuQueryLine(const std::string& line, std::string* why);

// The devices a run's GPU figures are about: its slot's devices when it has one, else the CUDA_VISIBLE_DEVICES it
// inherits (Slurm sets it for a task given GPUs), else none (every GPU of the machine).
std::vector<std::string> RunGpuDevices(const std::vector<std::string>& slot_devices);

// The record stored as RunRecord::execution["gpu"]:
//   {"sampled": false, "reason": "nvidia-smi not found on PATH"}, or
//   {"sampled": true, "interval_seconds", "samples" (queries answered), "failed_samples" (timed out, exited
//    non-zero without a row, or no row of the run's devices), "devices_requested" [..] (when restricted),
//    "devices": [{"index", "uuid", "samples", "memory_total_mib", "peak_memory_used_mib",
//                 "mean_utilization_percent", "utilization_samples"}], "warnings": [..]}
// Figures a device never gave are null.
class GpuSampler {
 public:
  explicit GpuSampler(GpuSamplerOptions options);
  ~GpuSampler();  // kills a query still running
  GpuSampler(const GpuSampler&) = delete;
  GpuSampler& operator=(const GpuSampler&) = delete;

  // Non-blocking: collects a finished query, kills one past its timeout, starts the next when due.
  void Poll();
  // Stops sampling (a query still running is killed, its sample lost) and returns the record.
  nlohmann::json Finish();
  int samples() const { return samples_; }
  int failed_samples() const { return failed_samples_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct DeviceFigures {
    std::string uuid;
    int samples = 0;
    std::optional<double> memory_total_mib;
    std::optional<double> peak_memory_used_mib;
    double utilization_sum = 0;
    int utilization_samples = 0;
  };

  void Start();
  void ReadAvailable();
  bool Reap(bool block_briefly);  // true once the query process has been waited for
  void KillQuery();
  void Conclude();
  bool Wanted(const GpuReading& reading) const;
  void Warn(const std::string& warning);

  GpuSamplerOptions options_;
  std::string program_path_;  // empty: not found
  std::string unavailable_;   // why nothing is sampled
  bool finished_ = false;
  int samples_ = 0;
  int failed_samples_ = 0;
  std::map<std::string, DeviceFigures> devices_;  // by nvidia-smi index
  std::vector<std::string> warnings_;
  int warnings_dropped_ = 0;
  std::optional<Clock::time_point> last_start_;
  // The query in flight.
  pid_t pid_ = -1;
  int out_fd_ = -1;
  bool eof_ = false;
  std::optional<int> exit_status_;  // once reaped: the exit status, or 128 + signal
  std::string output_;
  std::vector<pid_t> abandoned_;  // killed queries not reaped yet (a process stuck in the driver)
};

}  // namespace evalsuite::study
