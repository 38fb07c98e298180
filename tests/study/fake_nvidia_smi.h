// A fake nvidia-smi for GPU sampling tests (no GPU here): a POSIX shell script named nvidia-smi in a folder the test
// puts first on PATH. It accepts only the documented query evalsuite sends and answers in its CSV format
// (index, uuid, memory.used, memory.total, utilization.gpu; no header, no units), from files beside it:
//   answer-N (and status-N)  the whole answer of its N-th call (and its exit status), when present;
//   gpus/<index>             else one row per file: "<uuid>, <used>, <total>, <util>" (a run may rewrite them);
//   hang, hang-after         sleep 30 s on every call / once the answer-N files are used up; with hang, the
//                            sleep's pid goes to sleep.pid by rename (a call killed while writing it leaves the
//                            previous call's whole pid, never an empty file).
#pragma once

#include <filesystem>
#include <string>

#include "tests/support/test_support.h"

namespace evalsuite::study::testing {

inline std::filesystem::path WriteFakeNvidiaSmi(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir / "gpus");
  const std::filesystem::path script = dir / "nvidia-smi";
  evalsuite::testing::WriteFile(script, R"SH(#!/bin/sh
d=$(dirname "$0")
if [ $# -ne 2 ] || [ "$1" != "--query-gpu=index,uuid,memory.used,memory.total,utilization.gpu" ] ||
   [ "$2" != "--format=csv,noheader,nounits" ]; then
  echo "unexpected arguments: $*"; exit 2
fi
n=$(( $(cat "$d/count" 2>/dev/null || echo 0) + 1 )); echo $n > "$d/count"
if [ -e "$d/hang" ]; then sleep 30 & echo $! > "$d/.sleep.pid.$$"; mv "$d/.sleep.pid.$$" "$d/sleep.pid"; wait; fi
if [ -f "$d/answer-$n" ]; then cat "$d/answer-$n"; exit $(cat "$d/status-$n" 2>/dev/null || echo 0); fi
if [ -e "$d/hang-after" ]; then sleep 30 & wait; fi
for f in "$d"/gpus/*; do [ -f "$f" ] && echo "$(basename "$f"), $(cat "$f")"; done
exit 0
)SH");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script;
}

// A node of four fake GPUs for study tests: the fake nvidia-smi in dir/fakebin (returned), where GPU d uses
// 1000 (d + 1) MiB of 16384 at 10 (d + 1) % utilization (GPU 3: "[N/A]"), and dir/use_gpus.sh, which an entry's
// command runs first: for each GPU of its CUDA_VISIBLE_DEVICES it raises the memory used by 500 MiB for 0.6 s, then
// gives it back, utilization unchanged; it replaces the row files by rename, so no call of the fake reads half.
inline std::filesystem::path WriteFakeGpuNode(const std::filesystem::path& dir) {
  const std::filesystem::path bin = dir / "fakebin";
  WriteFakeNvidiaSmi(bin);
  for (int d = 0; d < 4; ++d) {
    evalsuite::testing::WriteFile(bin / "gpus" / std::to_string(d),
                                  "GPU-000" + std::to_string(d) + ", " + std::to_string(1000 * (d + 1)) + ", 16384, " +
                                      (d == 3 ? "[N/A]" : std::to_string(10 * (d + 1))));
  }
  evalsuite::testing::WriteFile(dir / "use_gpus.sh", "gpus='" + (bin / "gpus").string() + "'\n" + R"SH(set -e
set_gpu() { printf 'GPU-000%s, %s, 16384, %s\n' "$1" "$2" "$3" > "$gpus/.$1"; mv "$gpus/.$1" "$gpus/$1"; }
util() { if [ "$1" = 3 ]; then echo '[N/A]'; else echo $((10 * ($1 + 1))); fi; }
for d in $(echo "$CUDA_VISIBLE_DEVICES" | tr ',' ' '); do set_gpu "$d" $((1000 * (d + 1) + 500)) "$(util "$d")"; done
sleep 0.6
for d in $(echo "$CUDA_VISIBLE_DEVICES" | tr ',' ' '); do set_gpu "$d" $((1000 * (d + 1))) "$(util "$d")"; done
sleep 0.2
)SH");
  return bin;
}

}  // namespace evalsuite::study::testing
