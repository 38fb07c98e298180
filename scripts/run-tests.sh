#!/usr/bin/env bash
# The whole test suite: set up (install + build), then every GoogleTest under CTest, the browser test of the
# labeling page included. Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
