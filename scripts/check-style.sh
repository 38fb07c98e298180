#!/usr/bin/env bash
# The style check of the test command (scripts/run-tests.sh): clang-format (.clang-format) and clang-tidy
# (.clang-tidy) over the C++ files added or changed since scripts/style-base, the commit the check began at. Files
# not changed since, and files only moved, are held to the style when they are next changed. Exits non-zero on any
# finding, naming the file and line.
#   scripts/check-style.sh [BASE]   (BASE: another commit to compare with)
set -uo pipefail
cd "$(dirname "$0")/.."
base=${1:-$(cat scripts/style-base)}
if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "check-style: base commit $base is not in this clone (a shallow clone?): nothing checked" >&2
  exit 0
fi
mapfile -t files < <( { git diff --name-only --diff-filter=AM -M "$base" -- '*.cpp' '*.h';
                        git ls-files --others --exclude-standard -- '*.cpp' '*.h'; } |
                      grep -v -e '^tests/browser/' -e '^build' | sort -u)
existing=()
for f in "${files[@]}"; do [ -f "$f" ] && existing+=("$f"); done
if [ ${#existing[@]} -eq 0 ]; then
  echo "check-style: no C++ file changed since $base"
  exit 0
fi
status=0
echo "check-style: clang-format on ${#existing[@]} file(s) changed since $base"
if ! clang-format --dry-run --Werror "${existing[@]}"; then
  echo "check-style: clang-format would change the files above (clang-format -i FILE fixes them)" >&2
  status=1
fi
# clang-tidy needs each file's compile command: a configure-only tree without unity batches and without LibTorch
# (files that include LibTorch are not in it and are skipped).
tidy_dir=build-tidy
if [ ! -f "$tidy_dir/compile_commands.json" ] || [ CMakeLists.txt -nt "$tidy_dir/compile_commands.json" ]; then
  cmake -S . -B "$tidy_dir" -G Ninja -DEVALSUITE_WITH_TORCH=OFF -DEVALSUITE_UNITY_BUILD=OFF \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null || { echo "check-style: cannot configure $tidy_dir" >&2; exit 1; }
  # Generated sources (embedded RCP tables) are not needed: clang-tidy reads only the files named.
fi
sources=()
for f in "${existing[@]}"; do
  case "$f" in
    *.cpp) grep -q "\"file\": \"$PWD/$f\"" "$tidy_dir/compile_commands.json" && sources+=("$f") ;;
  esac
done
if [ ${#sources[@]} -gt 0 ]; then
  echo "check-style: clang-tidy on ${#sources[@]} of them (the rest are headers, or need LibTorch)"
  if ! clang-tidy -p "$tidy_dir" --quiet --warnings-as-errors='*' "${sources[@]}" 2>/dev/null; then
    echo "check-style: clang-tidy found the above (.clang-tidy lists the checks)" >&2
    status=1
  fi
fi
exit $status
