// A fake nvidia-smi for GPU sampling tests (no GPU here): a POSIX shell script named nvidia-smi in a folder the test
// puts first on PATH. It accepts only the documented query evalsuite sends and answers in its CSV format
// (index, uuid, memory.used, memory.total, utilization.gpu; no header, no units), from files beside it:
//   answer-N (and status-N)  the whole answer of its N-th call (and its exit status), when present;
//   gpus/<index>             else one row per file: "<uuid>, <used>, <total>, <util>" (a run may rewrite them);
//   hang, hang-after         sleep 30 s on every call / once the answer-N files are used up.
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
if [ -e "$d/hang" ]; then sleep 30 & echo $! > "$d/sleep.pid"; wait; fi
if [ -f "$d/answer-$n" ]; then cat "$d/answer-$n"; exit $(cat "$d/status-$n" 2>/dev/null || echo 0); fi
if [ -e "$d/hang-after" ]; then sleep 30 & wait; fi
for f in "$d"/gpus/*; do [ -f "$f" ] && echo "$(basename "$f"), $(cat "$f")"; done
exit 0
)SH");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script;
}

}  // namespace evalsuite::study::testing
