#!/usr/bin/env bash
# Times the main job as a new user meets it: a fresh clone of this checkout's HEAD in a new folder, then
# scripts/run-default.sh there, which prints each phase's wall time (install, build, study, reference, holdout,
# report). Names the CPU and says how busy the machine was before and after, since a shared machine's load is part of
# every figure. Installed packages stay installed, so "install" is only the check unless the machine is bare.
# Usage: scripts/time-main-job.sh [--cold-cache] [--keep] [--dir DIR]
#   --cold-cache  an empty ccache (as on a fresh machine); default: the user's ccache, which hits across checkouts
#   --keep        keep the clone (default: removed after, the phase times are printed and copied here first)
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=$(pwd)
cold=0
keep=0
dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cold-cache) cold=1; shift ;;
    --keep) keep=1; shift ;;
    --dir) dir="$2"; shift 2 ;;
    *) echo "usage: scripts/time-main-job.sh [--cold-cache] [--keep] [--dir DIR]" >&2; exit 2 ;;
  esac
done
[ -n "$dir" ] || dir=$(mktemp -d /tmp/evalsuite-main-job.XXXXXX)
echo "== CPU: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) cores" \
  "(bf16: $(grep -o -m1 'avx512_bf16\|amx_bf16' /proc/cpuinfo | sort -u | tr '\n' ' ' || true))"
echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
git clone --quiet --no-hardlinks "$source_dir" "$dir/evalsuite"
if [ "$cold" = 1 ]; then export CCACHE_DIR="$dir/ccache"; fi
start=$(date +%s)
status=0
(cd "$dir/evalsuite" && scripts/run-default.sh) || status=$?
echo "== whole job: $(($(date +%s) - start)) s wall (exit $status); load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p out
cp "$dir/evalsuite/out/default/phase_times.tsv" out/main-job-phase-times.tsv 2>/dev/null || true
if [ "$keep" = 0 ]; then rm -rf "$dir"; else echo "clone kept in $dir"; fi
exit "$status"
