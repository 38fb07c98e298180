#!/usr/bin/env bash
# The whole test suite: set up (install + build), then every GoogleTest under CTest, the browser test of the
# labeling page included; then the sanitizer build (AddressSanitizer + UndefinedBehaviorSanitizer) of everything
# without LibTorch (stats, reports, the parsers, the fuzz targets over their corpus) and its tests; then the style
# check (scripts/check_style.py: clang-format on every file, clang-tidy on the lines changed since scripts/style-base).
# Exits non-zero when any test fails or the style check finds something.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"

echo "== sanitizer build (ASan + UBSan, no LibTorch): build-asan/"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DEVALSUITE_SANITIZE=ON -DEVALSUITE_WITH_TORCH=OFF >/dev/null
cmake --build build-asan -j "$(nproc)" --target stats_tests analysis_tests reports_tests common_tests runlog_tests study_tests \
  importer_tests datasets_tests audit_tests fuzz_replays
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" "$@"

echo "== style: clang-format on every file, clang-tidy on the lines changed since $(cut -c1-10 scripts/style-base)"
scripts/check_style.py
