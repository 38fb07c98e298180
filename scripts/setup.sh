#!/usr/bin/env bash
# Installs the Debian 12 packages evalsuite needs (idempotently: one apt-get update, then only what is missing) and
# builds in Release under build/. Two sizes, so that each command installs and builds only what it runs:
#   scripts/setup.sh --main    what the main job (scripts/run-default.sh) runs: the toolchain, the libraries, the
#                              embedded data; builds the `evalsuite` binaries only (no tests, no benchmarks)
#   scripts/setup.sh [--tests] everything: also GoogleTest, the browser, Slurm, clang and the Python oracles; builds
#                              every target (tests and benchmarks included). The default.
# Safe to run again: a second run installs nothing and rebuilds incrementally. ccache (installed here) keeps the
# objects across rebuilds: the build sets its base_dir to the project folder (CMakeLists.txt says what that covers).
set -euo pipefail
cd "$(dirname "$0")/.."

size=tests
install=1
build=1
for arg in "$@"; do
  case "$arg" in
    --main) size=main ;;
    --tests) size=tests ;;
    --no-build) build=0 ;;      # install only (run-default.sh times the two apart)
    --no-install) install=0 ;;  # build only
    *) echo "usage: scripts/setup.sh [--main|--tests] [--no-build|--no-install]" >&2; exit 2 ;;
  esac
done

# What the main job's binaries need to build and run.
packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git ca-certificates ccache
  # fixed by the design
  libtorch-dev libdnnl-dev libopencv-dev libopencv-contrib-dev libwebp-dev libjpeg-dev libcurl4-openssl-dev libboost-math-dev
  # companions
  nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libsqlite3-dev sqlite3 libcpp-httplib-dev libicu-dev libfmt-dev
  libssl-dev zlib1g-dev
  # named groups for log_format = "regex" (std::regex has none)
  libpcre2-dev
  # embedded default data, WordNet for class synonyms
  dataset-fashion-mnist wordnet-base
)
# What only the tests and benchmarks need.
test_packages=(
  libgtest-dev libgmock-dev
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
  # the style check of changed lines (scripts/check_style.py)
  clang-format clang-tidy
)
if [ "$size" = tests ]; then
  packages+=("${test_packages[@]}")
  # Debian's nodejs needs Debian's npm; a nodesource nodejs bundles npm and conflicts with that package.
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi

missing=()
[ "$install" = 1 ] || packages=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${#missing[@]} missing packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  # --force-unsafe-io: dpkg skips its fsync per unpacked file, as Debian's container images do. Unpacking ~490
  # packages (LibTorch, OpenCV and what they pull in) is most of the install (the download is seconds); in a fresh
  # bookworm chroot on a 2-core VM it cut the install from 5.0 to 3.0 min, the faster run under heavier load.
  # The cost is only a half-written package after a power cut during the install, which a rerun repairs.
  apt-get install -y --no-install-recommends -o Dpkg::Options::=--force-unsafe-io "${missing[@]}"
fi

# The browser test drives Debian's chromium with playwright-core (no browser download).
if [ "$install" = 1 ] && [ "$size" = tests ] && [ -f tests/browser/package.json ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

[ "$build" = 1 ] || exit 0
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ "$size" = main ]; then
  cmake --build build -j "$jobs" --target evalsuite   # and evalsuite-full and evalsuite-label, which it hands commands to
else
  cmake --build build -j "$jobs"
fi
