#include "tests/support/slurm_cluster.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"

namespace evalsuite::testing {
namespace {

namespace fs = std::filesystem;

// A TCP port free on 127.0.0.1 right now (the kernel picks it); slurmctld and slurmd bind it a moment later.
int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
    port = ntohs(address.sin_port);
  }
  close(fd);
  return port;
}

std::string ShortHostName() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  std::string host = name;
  return host.substr(0, host.find('.'));
}

std::optional<pid_t> PidFrom(const fs::path& file) {
  std::ifstream in(file);
  long pid = 0;
  if (in >> pid && pid > 1) return static_cast<pid_t>(pid);
  return std::nullopt;
}

void StopDaemon(const fs::path& pid_file) {
  std::optional<pid_t> pid = PidFrom(pid_file);
  if (!pid) return;
  kill(*pid, SIGTERM);
  for (int i = 0; i < 100 && kill(*pid, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (kill(*pid, 0) == 0) kill(*pid, SIGKILL);
}

// Starts a daemon and waits for its starter to return (the daemon forks into the background). Its output goes to a
// file and it inherits no other descriptor: a pipe it held would keep a reader of this process waiting forever.
int StartDaemon(const std::vector<std::string>& argv, const fs::path& output) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int in = open("/dev/null", O_RDONLY);
    int out = open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0) _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    close_range(3, ~0U, 0);
    execv(args[0], args.data());
    _exit(127);
  }
  if (pid < 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string LogTail(const fs::path& file) {
  std::string text = ReadFile(file);
  return text.size() > 1500 ? text.substr(text.size() - 1500) : text;
}

}  // namespace

std::unique_ptr<SlurmTestCluster> SlurmTestCluster::Start(int cpus, std::string* why) {
  for (const char* tool : {"/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch"}) {
    if (!fs::exists(tool)) {
      *why = std::string(tool) + " is missing: install slurm-wlm and munge (scripts/setup.sh)";
      return nullptr;
    }
  }
  if (geteuid() != 0) {
    *why = "the one-node Slurm cluster runs its daemons as root; this test runs as uid " + std::to_string(geteuid());
    return nullptr;
  }
  std::unique_ptr<SlurmTestCluster> cluster(new SlurmTestCluster);
  std::random_device random;
  cluster->dir_ = fs::temp_directory_path() /
                  ("evalsuite-slurm-" + std::to_string(getpid()) + "-" + std::to_string(random() % 1000000));
  const fs::path& d = cluster->dir_;
  for (const char* sub : {"munge", "state", "spool", "log"}) fs::create_directories(d / sub);
  fs::permissions(d, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                         fs::perms::others_exec);
  fs::permissions(d / "munge", fs::perms::owner_all);
  {
    std::ifstream urandom("/dev/urandom", std::ios::binary);
    std::string key(1024, '\0');
    urandom.read(key.data(), static_cast<std::streamsize>(key.size()));
    WriteFile(d / "munge" / "key", key);
    fs::permissions(d / "munge" / "key", fs::perms::owner_read | fs::perms::owner_write);
  }
  const std::string munge_socket = (d / "munge" / "socket").string();
  const int munged =
      StartDaemon({"/usr/sbin/munged", "--key-file=" + (d / "munge" / "key").string(), "--socket=" + munge_socket,
                   "--pid-file=" + (d / "munge.pid").string(), "--log-file=" + (d / "log" / "munged.log").string(),
                   "--seed-file=" + (d / "munge" / "seed").string(), "--force"},
                  d / "log" / "munged.out");
  if (munged != 0) {
    *why = "munged did not start: " + LogTail(d / "log" / "munged.out") + LogTail(d / "log" / "munged.log");
    return nullptr;
  }

  const int controller_port = FreePort(), node_port = FreePort();
  std::ostringstream conf;
  conf << "ClusterName=evalsuite-test\n"
       << "SlurmctldHost=" << ShortHostName() << "(127.0.0.1)\n"
       << "SlurmctldPort=" << controller_port << "\nSlurmdPort=" << node_port << "\n"
       << "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" << munge_socket << "\n"
       << "SlurmUser=root\nSlurmdUser=root\n"
       << "StateSaveLocation=" << (d / "state").string() << "\nSlurmdSpoolDir=" << (d / "spool").string() << "\n"
       << "SlurmctldPidFile=" << (d / "slurmctld.pid").string() << "\nSlurmdPidFile=" << (d / "slurmd.pid").string()
       << "\nSlurmctldLogFile=" << (d / "log" / "slurmctld.log").string()
       << "\nSlurmdLogFile=" << (d / "log" / "slurmd.log").string() << "\n"
       << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
       << "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
       << "SchedulerType=sched/builtin\nReturnToService=2\nMpiDefault=none\nMailProg=/bin/true\n"
       << "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
       << "JobCompType=jobcomp/none\nSwitchType=switch/none\n"
       // Ended jobs stay known to scontrol for ten minutes (how an ended task ended, without accounting).
       << "MinJobAge=600\nKillWait=2\n"
       // A job of the urgent partition (higher tier) cancels what runs in its way: Slurm's preemption, for tests.
       << "PreemptType=preempt/partition_prio\nPreemptMode=CANCEL\n"
       << "NodeName=" << kNodeName << " NodeHostname=" << ShortHostName() << " NodeAddr=127.0.0.1 CPUs=" << cpus
       << " State=UNKNOWN\n"
       << "PartitionName=" << kPartition << " Nodes=" << kNodeName
       << " Default=YES MaxTime=INFINITE State=UP PriorityTier=1\n"
       << "PartitionName=" << kUrgentPartition << " Nodes=" << kNodeName
       << " MaxTime=INFINITE State=UP PriorityTier=2\n";
  WriteFile(cluster->conf(), conf.str());
  if (const char* old = std::getenv("SLURM_CONF")) cluster->old_slurm_conf_ = old;
  setenv("SLURM_CONF", cluster->conf().c_str(), 1);
  cluster->conf_set_ = true;

  if (StartDaemon({"/usr/sbin/slurmctld", "-f", cluster->conf().string(), "-i"}, d / "log" / "slurmctld.out") != 0) {
    *why = "slurmctld did not start: " + LogTail(d / "log" / "slurmctld.out") + LogTail(d / "log" / "slurmctld.log");
    return nullptr;
  }
  if (StartDaemon({"/usr/sbin/slurmd", "-f", cluster->conf().string(), "-N", kNodeName}, d / "log" / "slurmd.out") !=
      0) {
    *why = "slurmd did not start: " + LogTail(d / "log" / "slurmd.out") + LogTail(d / "log" / "slurmd.log");
    return nullptr;
  }
  for (int i = 0; i < 150; ++i) {
    CommandResult state = RunCommand({"sinfo", "--noheader", "--format=%T"});
    if (state.exit_code == 0 && state.out.find("idle") != std::string::npos) return cluster;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  *why = "the node never became idle within 15 s; slurmctld log:\n" + LogTail(d / "log" / "slurmctld.log") +
         "\nslurmd log:\n" + LogTail(d / "log" / "slurmd.log");
  return nullptr;
}

void SlurmTestCluster::Stop() {
  if (dir_.empty()) return;
  if (fs::exists(dir_ / "slurmctld.pid")) {
    RunCommand({"scancel", "--full", "--partition=" + std::string(kPartition)});
    for (int i = 0; i < 50; ++i) {
      CommandResult queue = RunCommand({"squeue", "--noheader"});
      if (queue.exit_code != 0 || queue.out.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  StopDaemon(dir_ / "slurmd.pid");
  StopDaemon(dir_ / "slurmctld.pid");
  StopDaemon(dir_ / "munge.pid");
  if (conf_set_) {
    if (old_slurm_conf_) {
      setenv("SLURM_CONF", old_slurm_conf_->c_str(), 1);
    } else {
      unsetenv("SLURM_CONF");
    }
  }
  std::error_code ec;
  fs::remove_all(dir_, ec);
  dir_.clear();
}

SlurmTestCluster::~SlurmTestCluster() { Stop(); }

}  // namespace evalsuite::testing
