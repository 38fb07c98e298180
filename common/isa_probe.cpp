#include "common/isa_probe.h"

#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace evalsuite {
namespace {

constexpr int kExitPermissionRefused = 3;

#if defined(__x86_64__)
constexpr long kArchReqXcompPerm = 0x1023;  // arch_prctl: ask the kernel for an XSAVE feature's state
constexpr long kXfeatureXtiledata = 18;     // AMX tile data

// The instructions are written as mnemonics: the assembler knows them even when the compiler is not told to
// target them, and nothing outside this child ever runs them.
void RunLevel(IsaLevel level) {
  switch (level) {
    case IsaLevel::kSse41:
      __asm__ volatile("pminsd %%xmm0, %%xmm0" ::: "xmm0");
      break;
    case IsaLevel::kAvx2:
      __asm__ volatile("vpaddd %%ymm0, %%ymm0, %%ymm0" ::: "xmm0");
      break;
    case IsaLevel::kAvx512Core:
      __asm__ volatile("vpaddb %%zmm0, %%zmm0, %%zmm0" ::: "xmm0");
      break;
    case IsaLevel::kAvx512CoreVnni:
      __asm__ volatile("vpdpbusd %%zmm0, %%zmm0, %%zmm0" ::: "xmm0");
      break;
    case IsaLevel::kAvx512CoreBf16:
      __asm__ volatile("vdpbf16ps %%zmm0, %%zmm0, %%zmm0" ::: "xmm0");
      break;
    case IsaLevel::kAvx512CoreAmx: {
      if (syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) != 0) _exit(kExitPermissionRefused);
      // Palette 1; tiles 0-2 with 16 rows of 64 bytes: the shape oneDNN's bf16 kernels use.
      alignas(64) unsigned char config[64];
      std::memset(config, 0, sizeof(config));
      config[0] = 1;
      for (int tile = 0; tile < 3; ++tile) {
        config[16 + 2 * tile] = 64;
        config[48 + tile] = 16;
      }
      __asm__ volatile("ldtilecfg %0" ::"m"(config));
      __asm__ volatile("tilezero %%tmm0\n\ttilezero %%tmm1\n\ttilezero %%tmm2\n\ttdpbf16ps %%tmm2, %%tmm1, %%tmm0" ::
                           : "memory");
      __asm__ volatile("tilerelease" ::: "memory");
      break;
    }
  }
}

// What the child runs: plain function pointers, since the child shares this process's memory (below).
struct ChildTask {
  void (*body)(IsaLevel);
  IsaLevel level;
};

int ChildMain(void* argument) {
  const ChildTask* task = static_cast<const ChildTask*>(argument);
  signal(SIGILL, SIG_DFL);  // the child's own copy of the handlers (no CLONE_SIGHAND): the caller's stay as they are
  alarm(10);                // a probe never takes more than microseconds; never leave a child behind
  // No core dump of a probe that dies: it would hold this whole process's memory, which the child shares. Limits
  // are per process (no CLONE_THREAD), so the caller's own limit stays as it is.
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  task->body(task->level);
  _exit(0);
}

// The child is cloned with CLONE_VM | CLONE_VFORK, as glibc's posix_spawn does: it runs on its own small stack in
// this process's memory while this thread waits for it to end, so nothing is copied. A plain fork() copies the
// page tables of every mapping and then takes a copy-on-write fault for each page written afterwards: in
// evalsuite-full, with LibTorch's libraries mapped, that cost about 0.2 s of every start (0.92 against 0.71 s for
// `evalsuite-full --version`, probe on against off, on a 2-core Zen 4 VM), paid by every run of a study.
// Being a separate process (no CLONE_THREAD), the child's SIGILL, its alarm and its AMX permission are its own.
ProbeOutcome RunInChild(void (*body)(IsaLevel), IsaLevel level) {
  constexpr size_t kStackBytes = size_t{64} * 1024;
  void* stack = mmap(nullptr, kStackBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) return {false, std::string("no memory for the probe's stack: ") + std::strerror(errno)};
  ChildTask task{body, level};
  const pid_t pid = clone(ChildMain, static_cast<char*>(stack) + kStackBytes, CLONE_VM | CLONE_VFORK | SIGCHLD, &task);
  const int clone_errno = errno;
  if (pid < 0) {
    munmap(stack, kStackBytes);
    return {false, std::string("clone failed: ") + std::strerror(clone_errno)};
  }
  int status = 0;
  pid_t waited;
  while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  const int wait_errno = errno;
  munmap(stack, kStackBytes);  // the child has ended (CLONE_VFORK returned, waitpid reaped it): its stack is free
  if (waited < 0) return {false, std::string("waitpid failed: ") + std::strerror(wait_errno)};
  if (WIFEXITED(status)) {
    if (WEXITSTATUS(status) == 0) return {true, "executes"};
    if (WEXITSTATUS(status) == kExitPermissionRefused) return {false, "arch_prctl(ARCH_REQ_XCOMP_PERM) refused"};
    return {false, "probe exited with status " + std::to_string(WEXITSTATUS(status))};
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = sigabbrev_np(sig);
    return {false, name ? std::string("SIG") + name : "signal " + std::to_string(sig)};
  }
  return {false, "probe ended in an unknown way"};
}

void RaiseUndefinedInstruction(IsaLevel /*unused*/) { __asm__ volatile("ud2"); }
#endif

}  // namespace

const char* OneDnnIsaName(IsaLevel level) {
  switch (level) {
    case IsaLevel::kSse41:
      return "SSE41";
    case IsaLevel::kAvx2:
      return "AVX2";
    case IsaLevel::kAvx512Core:
      return "AVX512_CORE";
    case IsaLevel::kAvx512CoreVnni:
      return "AVX512_CORE_VNNI";
    case IsaLevel::kAvx512CoreBf16:
      return "AVX512_CORE_BF16";
    case IsaLevel::kAvx512CoreAmx:
      return "AVX512_CORE_AMX";
  }
  return "SSE41";
}

std::vector<IsaLevel> ClaimedIsaLevels(const CpuFacts& cpu) {
  std::vector<IsaLevel> levels{IsaLevel::kSse41};
  if (!cpu.Has("avx2")) return levels;
  levels.push_back(IsaLevel::kAvx2);
  // oneDNN's AVX512_CORE is F + BW + VL + DQ; each later level adds to it.
  if (!(cpu.Has("avx512f") && cpu.Has("avx512bw") && cpu.Has("avx512vl") && cpu.Has("avx512dq"))) return levels;
  levels.push_back(IsaLevel::kAvx512Core);
  if (!cpu.Has("avx512_vnni")) return levels;
  levels.push_back(IsaLevel::kAvx512CoreVnni);
  if (!cpu.Has("avx512_bf16")) return levels;
  levels.push_back(IsaLevel::kAvx512CoreBf16);
  if (cpu.Has("amx_tile") && cpu.Has("amx_bf16") && cpu.Has("amx_int8")) levels.push_back(IsaLevel::kAvx512CoreAmx);
  return levels;
}

ProbeOutcome ProbeIsaLevel(IsaLevel level) {
#if defined(__x86_64__)
  return RunInChild(RunLevel, level);
#else
  (void)level;
  return {false, "not an x86-64 build"};
#endif
}

ProbeOutcome ProbeUndefinedInstruction() {
#if defined(__x86_64__)
  return RunInChild(RaiseUndefinedInstruction, IsaLevel::kSse41);
#else
  return {false, "not an x86-64 build"};
#endif
}

}  // namespace evalsuite
