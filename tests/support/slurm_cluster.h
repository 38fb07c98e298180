// A one-node Slurm cluster for tests and benches, started from nothing in a temporary folder: munged (its own key,
// socket and pid file), slurmctld and slurmd as root on 127.0.0.1 with free non-default ports,
// proctrack/linuxproc, task/none, select/cons_tres, no accounting, two partitions with partition-priority
// preemption (an urgent job cancels a default one in its way); state, spool and logs in the folder. SLURM_CONF is
// set for this process (children inherit it) while the cluster lives; the destructor cancels every job and stops
// the three daemons by their pids. Needs Debian's slurm-wlm and munge (scripts/setup.sh installs them).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace evalsuite::testing {

class SlurmTestCluster {
 public:
  // The cluster, idle and accepting jobs; nullptr with `why` (naming the daemon and quoting its log) otherwise.
  static std::unique_ptr<SlurmTestCluster> Start(int cpus, std::string* why);
  ~SlurmTestCluster();
  SlurmTestCluster(const SlurmTestCluster&) = delete;
  SlurmTestCluster& operator=(const SlurmTestCluster&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path conf() const { return dir_ / "slurm.conf"; }
  static constexpr const char* kNodeName = "evnode";
  static constexpr const char* kPartition = "evq";          // the default
  static constexpr const char* kUrgentPartition = "evurg";  // a higher tier: its jobs preempt (cancel) evq's

 private:
  SlurmTestCluster() = default;
  void Stop();

  std::filesystem::path dir_;
  std::optional<std::string> old_slurm_conf_;
  bool conf_set_ = false;
};

}  // namespace evalsuite::testing
