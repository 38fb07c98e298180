#!/usr/bin/env bash
# The main job on the embedded default (Fashion-MNIST), end to end, on two cores:
#   1. set up: install the missing Debian packages this job needs and build only its binaries, in Release
#      (scripts/setup.sh --main; the tests' packages and targets are scripts/run-tests.sh's);
#   2. a quick stability study (studies/quick.toml: 3 built-in entries x 5 seeds), keeping each run's model;
#   3. a reference model trained with the standard recipe (baseline) for its full budget: the "pretrained" group;
#   4. the Fashion-MNIST holdout split (never used in training or target checks) and shifted variants of it;
#   5. every run's model at the moment it reached the target (tta-optimized) against the reference on them,
#      judged on the gap basis: the runs stop at the study's lower target while the reference trains to the
#      end, so what counts is whether they lose more from validation to holdout than the reference does;
#   6. the report: verdicts, Tables 2-3, charts, and the Table-4 comparison.
# Usage: scripts/run-default.sh [--full] [--out DIR]   (--full: studies/full.toml, all data, 10 runs per entry)
# At the end it prints each phase's wall time and CPU time (install, build, study, reference, holdout, report).
set -euo pipefail
cd "$(dirname "$0")/.."

study=studies/quick.toml
out=out/default
while [ $# -gt 0 ]; do
  case "$1" in
    --full) study=studies/full.toml; out=out/full; shift ;;
    --out) out="$2"; shift 2 ;;
    *) echo "usage: scripts/run-default.sh [--full] [--out DIR]" >&2; exit 2 ;;
  esac
done

# Each phase's wall time and CPU time (user + system of every process it ran, from bash's `times`: a phase's
# compilers and training processes included), printed at the end (and written to $out/phase_times.tsv), in
# milliseconds of bash arithmetic (no bc on a bare Debian). The CPU time is what a busy machine must find: a phase of
# 400 CPU-seconds takes at least 500 s where other work leaves the job 0.8 of a core.
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# Milliseconds of CPU used so far by this script's finished child processes (and theirs), into cpu_ms: the second
# line of `times`, "XmY.ZZZs XmY.ZZZs" (user, system). `times` runs in this shell, writing to a file: in a pipe or a
# command substitution it would run in a subshell, which counts no children.
times_file=$(mktemp)
read_children_cpu_ms() {
  local shell_line children_line t
  times > "$times_file"
  { read -r shell_line; read -r children_line; } < "$times_file"
  cpu_ms=0
  for t in $children_line; do
    [[ $t =~ ^([0-9]+)m([0-9]+)[.,]([0-9]{3})s$ ]] || continue  # the decimal point is the locale's
    cpu_ms=$((cpu_ms + 10#${BASH_REMATCH[1]} * 60000 + 10#${BASH_REMATCH[2]} * 1000 + 10#${BASH_REMATCH[3]}))
  done
}
phase_names=()
phase_ms=()
phase_cpu_ms=()
phase_started=$(now_ms)
read_children_cpu_ms
phase_cpu_started=$cpu_ms
end_phase() {
  local now cpu
  now=$(now_ms)
  read_children_cpu_ms
  cpu=$cpu_ms
  phase_names+=("$1")
  phase_ms+=($((now - phase_started)))
  phase_cpu_ms+=($((cpu - phase_cpu_started)))
  phase_started=$now
  phase_cpu_started=$cpu
}
seconds() { printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100)); }
print_phases() {
  echo "== phase times ($(nproc) cores; $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1);" \
    "load average now $(cut -d' ' -f1-3 /proc/loadavg))"
  printf '  %-10s %8s %8s\n' phase "wall s" "CPU s"
  local total=0 total_cpu=0 i
  for i in "${!phase_names[@]}"; do
    printf '  %-10s %8s %8s\n' "${phase_names[$i]}" "$(seconds "${phase_ms[$i]}")" "$(seconds "${phase_cpu_ms[$i]}")"
    total=$((total + phase_ms[i]))
    total_cpu=$((total_cpu + phase_cpu_ms[i]))
  done
  printf '  %-10s %8s %8s\n' total "$(seconds "$total")" "$(seconds "$total_cpu")"
  if [ -d "$out" ]; then
    for i in "${!phase_names[@]}"; do
      printf '%s\t%s\t%s\n' "${phase_names[$i]}" "$(seconds "${phase_ms[$i]}")" "$(seconds "${phase_cpu_ms[$i]}")"
    done > "$out/phase_times.tsv"
  fi
  rm -f "$times_file"
}
trap print_phases EXIT

# Install and build only what this job runs (scripts/run-tests.sh installs and builds the tests).
scripts/setup.sh --main --no-build
end_phase install
scripts/setup.sh --main --no-install
end_phase build
evalsuite=build/evalsuite/evalsuite
mkdir -p "$out"
store="$out/evalsuite.db"

echo "== 1/5 stability study: $study"
# `study run` continues the same study when it is already in the store: a rerun finishes what an
# interrupted one left and repeats no finished run. The study files keep every run's model (keep_models).
"$evalsuite" study run "$study" --store "$store" --out "$out/runs"
end_phase study

# The reference trains the study's baseline recipe on the study's data for the study's whole epoch budget (the
# runs stop counting at the target; the reference does not stop), so the two differ only in where they stopped.
budget=$(sed -n 's/^epochs *= *\([0-9]*\).*/\1/p' "$study" | head -1)
subset=$(sed -n 's/^train_subset *= *\([0-9]*\).*/\1/p' "$study" | head -1)
reference_args=()
[ -n "$budget" ] && reference_args+=(--epochs "$budget")
[ -n "$subset" ] && reference_args+=(--train-subset "$subset")
echo "== 2/5 reference model: baseline for its full budget${budget:+ ($budget epochs)} (the 'pretrained' group)"
if [ ! -f "$out/reference/final.pt" ]; then
  "$evalsuite" train baseline --seed 1 "${reference_args[@]}" --log "$out/reference/log.jsonl" \
    --model-dir "$out/reference"
fi
end_phase reference

echo "== 3/5 holdout split and shifted variants"
if [ ! -f "$out/holdout/manifest.json" ]; then
  rm -rf "$out/holdout"
  "$evalsuite" holdout fashion-mnist --out "$out/holdout" --variants noise,blur,rotate,contrast
fi

echo "== 4/5 generalization: tta-optimized run models vs the reference"
holdouts=(--holdout "$out/holdout")
for variant in noise blur rotate contrast; do holdouts+=(--holdout "$out/holdout/$variant"); done
"$evalsuite" holdout eval "${holdouts[@]}" --models-from-store "$store" --which at_target \
  --model "reference=$out/reference/final.pt:pretrained" --verdict-basis gap --json "$out/generalization.json"
end_phase holdout

echo "== 5/5 report"
"$evalsuite" report "$store" --out "$out/report" --section "generalization=$out/generalization.json"
end_phase report
echo "report: $out/report/report.html (and report.md, report.json)"
