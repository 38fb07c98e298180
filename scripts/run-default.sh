#!/usr/bin/env bash
# The main job on the embedded default (Fashion-MNIST): set up (install + build), then run the quick default
# study, the generalization comparison and the report. Extra arguments go to `evalsuite study run`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/evalsuite/evalsuite train fast --stop-at-target "$@"
