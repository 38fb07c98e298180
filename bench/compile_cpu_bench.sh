#!/usr/bin/env bash
# Compile CPU of a from-scratch build, unity batches against file by file, side by side in one run: HEAD is
# exported twice into a temporary folder and each copy is configured and built with the compiler cache off (as on a
# fresh CI clone), one as the project builds by default (EVALSUITE_UNITY_BUILD=ON, test code at
# EVALSUITE_TEST_OPTIMIZATION) and one file by file with test code at the build type's -O3 (how it built before).
# Prints user+sys CPU seconds (the compilers are the shell's children, so a busy machine changes wall time far more
# than CPU time), wall seconds and the ratios. Not a test: it measures, it does not pass or fail.
# Usage: bench/compile_cpu_bench.sh [--sanitizer] [--jobs N] [TARGET ...]
#   default targets: evalsuite (what the main job builds); "all" for every target
#   --sanitizer      the sanitizer build of scripts/run-tests.sh (its flags and targets) instead of Release
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc)
sanitizer=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitizer) sanitizer=1; shift ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
configure=(-G Ninja -DCMAKE_BUILD_TYPE=Release)
if [ "$sanitizer" = 1 ]; then
  configure+=(-DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DEVALSUITE_SANITIZE=ON -DEVALSUITE_WITH_TORCH=OFF)
  [ ${#targets[@]} -gt 0 ] || targets=(stats_tests reports_tests common_tests runlog_tests study_tests importer_tests
                                       datasets_tests fuzz_replays)
fi
[ ${#targets[@]} -gt 0 ] || targets=(evalsuite)
build_args=()
[ "${targets[*]}" = all ] || build_args=(--target "${targets[@]}")

work=$(mktemp -d /tmp/evalsuite-compile-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
export CCACHE_DISABLE=1

# Seconds as bash's `times` prints them ("1m2.345s") -> "62.345".
to_seconds() { awk -F'[ms]' '{ printf "%.1f", $1 * 60 + $2 }' <<<"$1"; }

# build NAME CMAKE_ARGS...: prints "cpu wall" of a from-scratch build of the targets.
build() {
  local name=$1
  shift
  mkdir -p "$work/$name"
  git archive HEAD | tar -x -C "$work/$name"
  cmake -S "$work/$name" -B "$work/$name/build" "${configure[@]}" "$@" >/dev/null
  local start
  start=$(date +%s.%N)
  local usage
  usage=$( (cmake --build "$work/$name/build" -j "$jobs" "${build_args[@]}" >"$work/$name.log" 2>&1 && times) |
          tail -1)
  if [ -z "$usage" ]; then
    echo "the $name build failed:" >&2
    tail -20 "$work/$name.log" >&2
    return 1
  fi
  local end
  end=$(date +%s.%N)
  local user sys
  read -r user sys <<<"$usage"
  awk -v u="$(to_seconds "$user")" -v s="$(to_seconds "$sys")" -v a="$start" -v b="$end" \
    'BEGIN { printf "%.1f %.1f\n", u + s, b - a }'
}

echo "== $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1), $(nproc) cores, -j $jobs;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg); targets: ${targets[*]}$([ "$sanitizer" = 1 ] && echo ' (sanitizer)')"
files=$(build file_by_file -DEVALSUITE_UNITY_BUILD=OFF -DEVALSUITE_TEST_OPTIMIZATION=-O3)
unity=$(build unity)
read -r cpu_files wall_files <<<"$files"
read -r cpu_unity wall_unity <<<"$unity"
printf '%-14s %10s %10s\n' build "CPU s" "wall s"
printf '%-14s %10s %10s\n' file-by-file "$cpu_files" "$wall_files" unity "$cpu_unity" "$wall_unity"
awk -v a="$cpu_unity" -v b="$cpu_files" -v c="$wall_unity" -v d="$wall_files" \
  'BEGIN { printf "unity / file-by-file: CPU %.2f, wall %.2f\n", a / b, c / d }'
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
