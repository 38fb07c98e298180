#!/usr/bin/env python3
"""The style check of the test command (scripts/run-tests.sh): clang-format (.clang-format) on every C++ file of the
tree (the tree was formatted whole once, so any difference is new), and clang-tidy (.clang-tidy) on the lines added or
changed since scripts/style-base, the commit the tidy check began at, so its checks hold for every line written since
without rewriting the code around it. A change to #include lines alone is not tidied (a moved header rewrites every
include of it). Files that include LibTorch are left to clang-format (clang-tidy reads a compile database configured
without LibTorch), and so are tests (clang-format only). Exits 1 on any finding, naming the file and line.

    scripts/check_style.py [--base COMMIT] [--fix] [--no-tidy]    (--fix: clang-format every file in place)
"""
import argparse
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIDY_DIR = os.path.join(ROOT, "build-tidy")


def git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def changed_lines(base):
    """{path: [(first, last), ...]} of lines added or changed since `base`, #include lines left out."""
    ranges = {}
    diff = git("diff", "-U0", "-M", "--diff-filter=AM", base, "--", "*.cpp", "*.h")
    path = None
    for line in diff.splitlines():
        if line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("@@") and path:
            m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            start, count = int(m.group(1)), int(m.group(2) or "1")
            if count:
                ranges.setdefault(path, []).append((start, start + count - 1))
    for path in git("ls-files", "--others", "--exclude-standard", "--", "*.cpp", "*.h").split():
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            ranges[path] = [(1, max(1, sum(1 for _ in f)))]
    result = {}
    for path, spans in ranges.items():
        if path.startswith(("tests/browser/", "build")) or not os.path.isfile(os.path.join(ROOT, path)):
            continue
        with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
            text = f.read().split("\n")
        kept = []
        for first, last in spans:
            lines = [n for n in range(first, last + 1) if n <= len(text) and not text[n - 1].startswith("#include")]
            # Contiguous runs of the lines that remain.
            for n in lines:
                if kept and kept[-1][1] == n - 1:
                    kept[-1] = (kept[-1][0], n)
                else:
                    kept.append((n, n))
        if kept:
            result[path] = kept
    return result


def formatted_files():
    """Every C++ file of the tree, tracked or new (not ignored), but the browser tests' fixtures."""
    listed = git("ls-files", "--cached", "--others", "--exclude-standard", "--", "*.cpp", "*.h").split()
    return sorted(p for p in set(listed)
                  if not p.startswith(("tests/browser/", "build")) and os.path.isfile(os.path.join(ROOT, p)))


def run_clang_format(paths, fix):
    def check(path):
        args = ["clang-format", "-i" if fix else "--dry-run", "--Werror", path]
        proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
        # A crash of clang-format itself (a signal) is a finding too: it names the file it could not read.
        if proc.returncode < 0:
            return f"{path}: clang-format crashed (signal {-proc.returncode}); a raw control byte in a string?\n"
        return proc.stderr if proc.returncode != 0 and not fix else ""

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        found = [text for text in pool.map(check, paths) if text]
    for text in found:
        sys.stderr.write(text)
    return len(found)


def tidy_database():
    database = os.path.join(TIDY_DIR, "compile_commands.json")
    if not os.path.isfile(database) or os.path.getmtime(database) < os.path.getmtime(os.path.join(ROOT, "CMakeLists.txt")):
        subprocess.run(["cmake", "-S", ROOT, "-B", TIDY_DIR, "-G", "Ninja", "-DEVALSUITE_WITH_TORCH=OFF",
                        "-DEVALSUITE_UNITY_BUILD=OFF", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                       check=True, capture_output=True)
    with open(database) as f:
        return {os.path.relpath(entry["file"], ROOT) for entry in json.load(f)}


def run_clang_tidy(ranges):
    compiled = tidy_database()
    # Test files are held to clang-format only: GoogleTest's macros make every TEST body one long function to
    # clang-tidy, and parsing them doubled the check's time.
    sources = sorted(p for p in ranges if p.endswith(".cpp") and p in compiled and not p.startswith(("tests/", "bench/")))
    line_filter = json.dumps([{"name": os.path.join(ROOT, p), "lines": [list(s) for s in spans]}
                              for p, spans in ranges.items()])

    def tidy(path):
        proc = subprocess.run(["clang-tidy", "-p", TIDY_DIR, "--quiet", "--header-filter=.*",
                               f"--line-filter={line_filter}", path], cwd=ROOT, capture_output=True, text=True)
        return [line for line in proc.stdout.splitlines() if re.search(r": (warning|error): ", line)]

    print(f"check-style: clang-tidy on {len(sources)} changed source file(s)")
    seen = set()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for found in pool.map(tidy, sources):
            for line in found:
                if line not in seen:
                    seen.add(line)
                    print(line)
    return len(seen)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", default=open(os.path.join(ROOT, "scripts", "style-base")).read().strip())
    parser.add_argument("--fix", action="store_true")
    parser.add_argument("--no-tidy", action="store_true", help="clang-format only")
    args = parser.parse_args()
    if subprocess.run(["git", "rev-parse", "-q", "--verify", args.base + "^{commit}"], cwd=ROOT,
                      capture_output=True).returncode != 0:
        print(f"check-style: base {args.base} is not in this clone (a shallow clone?): nothing checked")
        return 0
    ranges = changed_lines(args.base)
    print(f"check-style: {sum(len(s) for s in ranges.values())} changed span(s) in {len(ranges)} file(s) "
          f"since {args.base[:10]}")
    paths = formatted_files()
    print(f"check-style: clang-format on {len(paths)} file(s)")
    formatting = run_clang_format(paths, args.fix)
    if args.fix:
        return 0
    if formatting:
        print(f"check-style: clang-format would change {formatting} file(s) above "
              "(scripts/check_style.py --fix formats them)", file=sys.stderr)
    tidy = 0 if args.no_tidy else run_clang_tidy(ranges)
    if tidy:
        print(f"check-style: {tidy} clang-tidy finding(s) above (.clang-tidy lists the checks)", file=sys.stderr)
    return 1 if formatting or tidy else 0


if __name__ == "__main__":
    sys.exit(main())
