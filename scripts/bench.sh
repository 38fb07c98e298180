#!/usr/bin/env bash
# Runs every benchmark in bench/ (built by scripts/setup.sh) and prints its side-by-side ratios.
# Benchmarks are not tests: they measure, they do not pass or fail. Pass a name to run one: scripts/bench.sh import
set -euo pipefail
cd "$(dirname "$0")/.."
for exe in build/bench/*_bench; do
  name=$(basename "$exe" _bench)
  if [ $# -gt 0 ] && [[ "$name" != *"$1"* ]]; then continue; fi
  echo "=== $name"
  "$exe"
done
