#!/usr/bin/env bash
# The main job on the embedded default (Fashion-MNIST), end to end, on two cores:
#   1. set up (install missing Debian packages, build in Release);
#   2. a quick stability study (studies/quick.toml: 3 built-in entries x 5 seeds), keeping each run's model;
#   3. a reference model trained with the standard recipe (baseline) for its full budget: the "pretrained" group;
#   4. the Fashion-MNIST holdout split (never used in training or target checks) and shifted variants of it;
#   5. every run's model at the moment it reached the target (tta-optimized) against the reference on them,
#      judged on the gap basis: the runs stop at the study's lower target while the reference trains to the
#      end, so what counts is whether they lose more from validation to holdout than the reference does;
#   6. the report: verdicts, Tables 2-3, charts, and the Table-4 comparison.
# Usage: scripts/run-default.sh [--full] [--out DIR]   (--full: studies/full.toml, all data, 10 runs per entry)
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

scripts/setup.sh
evalsuite=build/evalsuite/evalsuite
mkdir -p "$out"
store="$out/evalsuite.db"

echo "== 1/5 stability study: $study"
# `study run` continues the same study when it is already in the store: a rerun finishes what an
# interrupted one left and repeats no finished run. The study files keep every run's model (keep_models).
"$evalsuite" study run "$study" --store "$store" --out "$out/runs"

echo "== 2/5 reference model: baseline, full data, full budget (the 'pretrained' group)"
if [ ! -f "$out/reference/final.pt" ]; then
  "$evalsuite" train baseline --seed 1 --log "$out/reference/log.jsonl" --model-dir "$out/reference"
fi

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

echo "== 5/5 report"
"$evalsuite" report "$store" --out "$out/report" --section "generalization=$out/generalization.json"
echo "report: $out/report/report.html (and report.md, report.json)"
