// Makes LibTorch's OpenMP threads sleep, not spin, when they wait, for commands whose own threads share the
// cores with them (holdout eval's decode workers). libgomp reads OMP_WAIT_POLICY once, when it is loaded, so
// the variable must be in the environment of the process that loads LibTorch: the front binary sets it before
// it starts evalsuite-full. A user's own OMP_WAIT_POLICY or GOMP_SPINCOUNT always wins.
#pragma once

#include <string>

namespace evalsuite {

// Why: with libgomp's default, a thread that reaches the end of a parallel region spins (GOMP_SPINCOUNT
// 300,000) waiting for its partner. When decode workers (or another process) have taken the partner's core,
// the spinning burns the very time the partner needs. Measured with bench/holdout_eval_bench on 2 cores with
// other work running (load average about 12), CPU time per image of the pipeline: mobilenet_v3_small 46-58 ms
// spinning vs 7.5 ms sleeping, resnet18 47 vs 34.5 ms.
// Sets OMP_WAIT_POLICY=passive unless the user set OMP_WAIT_POLICY or GOMP_SPINCOUNT; returns the policy in
// force afterwards ("passive (set by evalsuite)", "active (user)", ...), for the run's record.
std::string PreferPassiveOpenMpWait();

// The policy in force in this process's environment, in the same words, without changing it.
std::string OpenMpWaitPolicy();

}  // namespace evalsuite
