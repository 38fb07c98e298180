#!/usr/bin/env bash
# Installs every Debian 12 package evalsuite needs (idempotently: one apt-get update, then only what is
# missing) and builds the project in Release under build/. Safe to run again: a second run installs
# nothing and rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git ca-certificates ccache
  # fixed by the design
  libtorch-dev libopencv-dev libopencv-contrib-dev libwebp-dev libjpeg-dev libcurl4-openssl-dev libboost-math-dev
  libgtest-dev libgmock-dev
  # companions
  nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libsqlite3-dev sqlite3 libcpp-httplib-dev libicu-dev libfmt-dev
  libssl-dev zlib1g-dev
  # named groups for log_format = "regex" (std::regex has none)
  libpcre2-dev
  # embedded default data, WordNet for class synonyms
  dataset-fashion-mnist wordnet-base
  # peers for the benchmarks (PyTorch's Python front end, torchvision)
  python3 python3-torch python3-torchvision python3-pil
  # the labeling page's browser test
  chromium nodejs
  # the official MLPerf summarizer and RCP checker as the import oracle (tests and benches)
  python3-numpy python3-scipy python3-pandas python3-yaml python3-statsmodels
  # the Slurm executor's one-node test cluster
  slurm-wlm munge
  # fuzz targets (libFuzzer) and the sanitizer build
  clang libclang-rt-14-dev
)
# Debian's nodejs needs Debian's npm; a nodesource nodejs bundles npm and conflicts with that package.
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${#missing[@]} missing packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The browser test drives Debian's chromium with playwright-core (no browser download).
if [ -f tests/browser/package.json ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$jobs"
