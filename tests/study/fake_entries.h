// Fake external entries for study tests: a POSIX shell script that writes evalsuite JSON Lines quickly, and
// misbehaves on request (crash by SIGSEGV, non-zero exit, hang past a timeout), so the scheduler and the store
// are tested without training anything.
#pragma once

#include <filesystem>
#include <string>

#include "study/plans/study_plan.h"
#include "study/plans/study_plan_loader.h"
#include "tests/support/test_support.h"

namespace evalsuite::study::testing {

// fake_entry.sh LOG SEED MODE [EVALS] [SLEEP]: EVALS evaluations (default 3) with metric 0.80, 0.85, 0.90, ...
// at training time epoch * (10 + seed % 5); MODE is ok, crash (SIGSEGV after the evaluations), fail (exit 3
// with "boom" on stderr), hang, slow (SLEEP seconds after each evaluation), or illegal (SIGILL right after the
// header, before any evaluation, as a CPU that lacks an instruction makes a process die), or fill (while a file
// fill-mode is beside the script: fill the run's disk with dd after the evaluations and exit 1).
inline std::filesystem::path WriteFakeEntry(const std::filesystem::path& dir) {
  std::filesystem::path script = dir / "fake_entry.sh";
  evalsuite::testing::WriteFile(script, R"(#!/bin/sh
log=$1; seed=$2; mode=$3; evals=${4:-3}; pause=${5:-0}
step=$((10 + seed % 5))
echo "{\"type\":\"header\",\"entry\":\"fake\",\"seeds\":{\"run\":$seed,\"init\":$((seed + 1))}}" > "$log"
if [ "$mode" = illegal ]; then echo "Illegal instruction" >&2; kill -ILL $$; fi
i=1
while [ $i -le $evals ]; do
  echo "{\"type\":\"eval\",\"epoch\":$i,\"train_seconds\":$((i * step)),\"wall_seconds\":$((i * step + 1)),\"metric\":0.$((75 + 5 * i))}" >> "$log"
  if [ "$mode" = slow ]; then sleep "$pause"; fi
  i=$((i + 1))
done
case $mode in
  crash) echo "about to crash" >&2; kill -SEGV $$ ;;
  fill) if [ -e "$(dirname "$0")/fill-mode" ]; then dd if=/dev/zero of="$(dirname "$log")/fill.bin" bs=65536 count=64; exit 1; fi ;;
  fail) echo "boom" >&2; exit 3 ;;
  hang) sleep 30 ;;
esac
echo "{\"type\":\"end\",\"status\":\"reached\",\"train_seconds\":$((evals * step))}" >> "$log"
)");
  return script;
}

// A study plan from TOML text, with the fake entry written beside it and the run folders under dir/runs.
inline StudyPlan FakeStudyPlan(const evalsuite::testing::TempDir& dir, const std::string& body,
                               PlanOverrides overrides = {}) {
  WriteFakeEntry(dir.path());
  overrides.out_dir = (dir / "runs").string();
  return ParseStudyPlan(body, (dir / "study.toml").string(), overrides, 2);
}

}  // namespace evalsuite::study::testing
