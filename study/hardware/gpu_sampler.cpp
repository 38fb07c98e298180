#include "study/hardware/gpu_sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

#include "common/json_access.h"

extern char** environ;

namespace evalsuite::study {
namespace {

constexpr const char* kQueryFields = "--query-gpu=index,uuid,memory.used,memory.total,utilization.gpu";
constexpr const char* kQueryFormat = "--format=csv,noheader,nounits";
constexpr std::size_t kMaxOutputBytes = 64 * 1024;  // a few hundred GPUs' rows; more is not nvidia-smi's answer
constexpr std::size_t kMaxWarnings = 8;

std::string TrimWhitespace(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

std::vector<std::string> SplitOn(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

// nvidia-smi's placeholders for a value it cannot give: "[N/A]", "[Not Supported]", "[Unknown Error]", ...
bool IsPlaceholder(const std::string& field) {
  return field == "N/A" || (field.size() >= 2 && field.front() == '[' && field.back() == ']');
}

// A number, nullopt for a placeholder, false for anything else.
bool ParseValue(const std::string& field, double max, std::optional<double>* value) {
  if (IsPlaceholder(field)) {
    value->reset();
    return true;
  }
  if (field.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double number = std::strtod(field.c_str(), &end);
  if (errno != 0 || end != field.c_str() + field.size() || !std::isfinite(number) || number < 0 || number > max) {
    return false;
  }
  *value = number;
  return true;
}

std::string FindInPath(const std::string& program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0 ? program : "";
  const char* path = std::getenv("PATH");
  for (const std::string& dir : SplitOn(path ? path : "", ':')) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

std::string Quoted(const std::string& line) {
  std::string shown = line.size() > 120 ? line.substr(0, 120) + "..." : line;
  return "'" + shown + "'";
}

// Whether a device id as CUDA_VISIBLE_DEVICES gives it (an index, a GPU's UUID or a unique prefix of it) names
// the GPU nvidia-smi listed with this index and UUID.
bool NamesGpu(const std::string& id, const std::string& index, const std::string& uuid) {
  return id == index || (id.rfind("GPU-", 0) == 0 && uuid.rfind(id, 0) == 0);
}

std::string FormatSeconds(double seconds) {
  std::ostringstream out;
  out << seconds;
  return out.str();
}

}  // namespace

std::optional<GpuReading> ParseGpuQueryLine(const std::string& line, std::string* why) {
  std::vector<std::string> fields = SplitOn(line, ',');
  if (fields.size() != 5) {
    *why = "not the 5 fields asked for";
    return std::nullopt;
  }
  for (std::string& field : fields) field = TrimWhitespace(field);
  GpuReading reading;
  reading.index = fields[0];
  reading.uuid = fields[1];
  if (reading.index.empty() ||
      !std::all_of(reading.index.begin(), reading.index.end(), [](unsigned char c) { return c >= '0' && c <= '9'; })) {
    *why = "the index is not a number";
    return std::nullopt;
  }
  if (reading.uuid.empty() || IsPlaceholder(reading.uuid)) {
    *why = "no UUID";
    return std::nullopt;
  }
  constexpr double kAnyMib = 1e12;
  if (!ParseValue(fields[2], kAnyMib, &reading.memory_used_mib) ||
      !ParseValue(fields[3], kAnyMib, &reading.memory_total_mib)) {
    *why = "memory is not a number of MiB";
    return std::nullopt;
  }
  if (!ParseValue(fields[4], 100, &reading.utilization_percent)) {
    *why = "utilization is not a percentage";
    return std::nullopt;
  }
  return reading;
}

std::vector<std::string> RunGpuDevices(const std::vector<std::string>& slot_devices) {
  if (!slot_devices.empty()) return slot_devices;
  std::vector<std::string> devices;
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  for (const std::string& id : SplitOn(visible ? visible : "", ',')) {
    if (!TrimWhitespace(id).empty()) devices.push_back(TrimWhitespace(id));
  }
  return devices;
}

GpuSampler::GpuSampler(GpuSamplerOptions options) : options_(std::move(options)) {
  if (options_.interval_seconds <= 0) {
    unavailable_ = "sampling is off (gpu_sample_seconds = 0)";
    return;
  }
  program_path_ = FindInPath(options_.program);
  if (program_path_.empty()) unavailable_ = options_.program + " not found on PATH";
}

GpuSampler::~GpuSampler() {
  if (pid_ > 0) KillQuery();
}

void GpuSampler::Warn(const std::string& warning) {
  if (std::find(warnings_.begin(), warnings_.end(), warning) != warnings_.end()) return;
  if (warnings_.size() < kMaxWarnings) {
    warnings_.push_back(warning);
  } else {
    ++warnings_dropped_;
  }
}

void GpuSampler::Start() {
  last_start_ = Clock::now();
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    ++failed_samples_;
    Warn("cannot create a pipe for nvidia-smi");
    return;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);  // its errors are printed, not lost
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own process group, so a hang is killed whole (a wrapper script and what it started); default signals and
  // an empty mask, whatever the study set for itself.
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t none, defaults;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  sigemptyset(&defaults);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  std::string program = program_path_, fields = kQueryFields, format = kQueryFormat;
  char* argv[] = {program.data(), fields.data(), format.data(), nullptr};
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, program_path_.c_str(), &actions, &attributes, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    ++failed_samples_;
    Warn("cannot start " + program_path_ + ": " + std::strerror(rc));
    return;
  }
  fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  pid_ = pid;
  out_fd_ = fds[0];
  eof_ = false;
  exit_status_.reset();
  output_.clear();
}

void GpuSampler::ReadAvailable() {
  char buffer[4096];
  while (!eof_) {
    const ssize_t n = read(out_fd_, buffer, sizeof(buffer));
    if (n > 0) {
      if (output_.size() < kMaxOutputBytes) output_.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0) {
      eof_ = true;
    } else if (errno == EINTR) {
      continue;
    } else {
      if (errno != EAGAIN && errno != EWOULDBLOCK) eof_ = true;
      return;
    }
  }
}

bool GpuSampler::Reap(bool block_briefly) {
  if (exit_status_) return true;
  for (int attempt = 0;; ++attempt) {
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return true;
    }
    if (r < 0 && errno != EINTR) {
      exit_status_ = -1;  // not our child any more: nothing to wait for
      return true;
    }
    if (!block_briefly || attempt >= 20) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void GpuSampler::KillQuery() {
  if (!exit_status_) kill(-pid_, SIGKILL);
  close(out_fd_);
  // A process stuck in the driver may not die at once: it is reaped later, never waited for here.
  if (!Reap(/*block_briefly=*/true)) abandoned_.push_back(pid_);
  pid_ = -1;
  out_fd_ = -1;
}

bool GpuSampler::Wanted(const GpuReading& reading) const {
  if (options_.devices.empty()) return true;
  return std::any_of(options_.devices.begin(), options_.devices.end(),
                     [&](const std::string& id) { return NamesGpu(id, reading.index, reading.uuid); });
}

void GpuSampler::Conclude() {
  std::vector<GpuReading> rows;
  std::vector<std::string> not_rows;
  for (const std::string& raw : SplitOn(output_, '\n')) {
    const std::string line = TrimWhitespace(raw);
    if (line.empty()) continue;
    std::string why;
    std::optional<GpuReading> reading = ParseGpuQueryLine(line, &why);
    if (!reading) {
      not_rows.push_back(Quoted(line) + " (" + why + ")");
    } else if (Wanted(*reading)) {
      rows.push_back(std::move(*reading));
    }
  }
  if (*exit_status_ != 0) {
    Warn("nvidia-smi exited with status " + std::to_string(*exit_status_) +
         (not_rows.empty() ? "" : ": " + not_rows.front()));
  } else {
    for (const std::string& line : not_rows) Warn("nvidia-smi printed a line that is not a GPU row: " + line);
  }
  if (rows.empty()) {
    ++failed_samples_;
    if (*exit_status_ == 0) Warn("nvidia-smi listed none of the run's GPUs");
    return;
  }
  ++samples_;
  for (const GpuReading& reading : rows) {
    DeviceFigures& device = devices_[reading.index];
    device.uuid = reading.uuid;
    ++device.samples;
    if (reading.memory_total_mib) device.memory_total_mib = reading.memory_total_mib;
    if (reading.memory_used_mib) {
      device.peak_memory_used_mib = std::max(device.peak_memory_used_mib.value_or(0), *reading.memory_used_mib);
    }
    if (reading.utilization_percent) {
      device.utilization_sum += *reading.utilization_percent;
      ++device.utilization_samples;
    }
  }
}

void GpuSampler::Poll() {
  if (finished_ || program_path_.empty() || !unavailable_.empty()) return;
  for (auto it = abandoned_.begin(); it != abandoned_.end();) {
    it = waitpid(*it, nullptr, WNOHANG) == 0 ? std::next(it) : abandoned_.erase(it);
  }
  const Clock::time_point now = Clock::now();
  if (pid_ > 0) {
    ReadAvailable();
    Reap(/*block_briefly=*/false);
    if (eof_ && exit_status_) {
      close(out_fd_);
      out_fd_ = -1;
      pid_ = -1;
      Conclude();
    } else if (std::chrono::duration<double>(now - *last_start_).count() > options_.timeout_seconds) {
      KillQuery();
      ++failed_samples_;
      Warn("nvidia-smi did not answer within " + FormatSeconds(options_.timeout_seconds) + " s (killed)");
    } else {
      return;
    }
  }
  if (!last_start_ || std::chrono::duration<double>(now - *last_start_).count() >= options_.interval_seconds) {
    Start();
  }
}

nlohmann::json GpuSampler::Finish() {
  if (!unavailable_.empty()) return {{"sampled", false}, {"reason", unavailable_}};
  if (!finished_ && pid_ > 0) {
    // A query that has answered in full still counts; one still running is cut off.
    ReadAvailable();
    if (eof_ && Reap(/*block_briefly=*/false)) {
      close(out_fd_);
      out_fd_ = -1;
      pid_ = -1;
      Conclude();
    } else {
      KillQuery();
    }
  }
  finished_ = true;
  nlohmann::json devices = nlohmann::json::array();
  std::vector<std::pair<std::string, const DeviceFigures*>> ordered;
  for (const auto& [index, figures] : devices_) ordered.emplace_back(index, &figures);
  std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    return a.first.size() != b.first.size() ? a.first.size() < b.first.size() : a.first < b.first;
  });
  for (const auto& [index, figures] : ordered) {
    devices.push_back(
        {{"index", index},
         {"uuid", figures->uuid},
         {"samples", figures->samples},
         {"memory_total_mib", JsonOrNull(figures->memory_total_mib)},
         {"peak_memory_used_mib", JsonOrNull(figures->peak_memory_used_mib)},
         {"mean_utilization_percent", figures->utilization_samples > 0
                                          ? nlohmann::json(figures->utilization_sum / figures->utilization_samples)
                                          : nlohmann::json()},
         {"utilization_samples", figures->utilization_samples}});
  }
  for (const std::string& id : options_.devices) {
    const bool seen = std::any_of(devices_.begin(), devices_.end(),
                                  [&](const auto& d) { return NamesGpu(id, d.first, d.second.uuid); });
    if (!seen && samples_ + failed_samples_ > 0) Warn("device " + id + ": nvidia-smi never listed it");
  }
  nlohmann::json record = {{"sampled", true},     {"interval_seconds", options_.interval_seconds},
                           {"samples", samples_}, {"failed_samples", failed_samples_},
                           {"devices", devices},  {"warnings", warnings_}};
  if (warnings_dropped_ > 0) record["warnings"].push_back(std::to_string(warnings_dropped_) + " more warnings");
  if (!options_.devices.empty()) record["devices_requested"] = options_.devices;
  return record;
}

}  // namespace evalsuite::study
