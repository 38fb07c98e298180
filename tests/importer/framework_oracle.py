#!/usr/bin/env python3
"""An independent reading of the frameworks' training logs, for framework_import_test.cpp.

Reads a JSON spec from argv[1]: [{"path", "format", "metric", "threshold" (number or null), "lower" (bool)}], and
prints, for each item, {"path", "runs": [{"evaluations", "tta", "threshold", "unit"}]}. The metric is named by the
spec (the test passes the one evalsuite chose, or one it names itself); everything else is read here from the file
with Python's own json/csv modules, by the formats' definitions:
  hf-trainer  log_history entries with an eval_* key; progress = the entry's "epoch"            (epochs)
  lightning   metrics.csv rows with the metric's cell non-empty; progress = int(step)          (steps)
  keras       CSVLogger rows; a run restarts where epoch is 0 again; progress = epoch + 1      (epochs)
  mlflow      metrics/<metric> "ts value step" lines; progress = (ts - meta.yaml start_time) / 1000  (seconds)
A point is kept when its value and progress are finite and its progress does not go below the last kept one.
A threshold of null means: the median of the kept values of all the file's runs (so that some runs reach and some
may not); the answer gives the threshold used.
TTA = the progress of the first kept point at or above the threshold (at or below it when lower is better).
"""
import csv
import json
import math
import os
import re
import statistics
import sys


def keep(points):
    kept = []
    for progress, value in points:
        if not (math.isfinite(progress) and math.isfinite(value)) or progress < 0:
            continue
        if kept and progress < kept[-1][0]:
            continue
        kept.append((progress, value))
    return kept


def hf_runs(path, metric):
    with open(path, encoding="utf-8") as f:
        state = json.load(f)  # Python reads NaN and Infinity
    points = []
    for entry in state["log_history"]:
        if any(k.startswith("eval_") for k in entry) and metric in entry:
            points.append((float(entry["epoch"]), float(entry[metric])))
    return [("epochs", points)]


def number(cell):
    try:
        return float(cell)
    except (TypeError, ValueError):
        return None


def lightning_runs(path, metric):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    points = []
    for row in rows:
        v = number(row.get(metric))
        if v is not None and row.get(metric, "").strip() not in ("", "NA"):
            points.append((float(row["step"]), v))
    return [("steps", points)]


def keras_runs(path, metric):
    with open(path, newline="", encoding="utf-8") as f:
        text = f.read()
    sep = "," if "," in text.splitlines()[0] else ("\t" if "\t" in text.splitlines()[0] else ";")
    rows = list(csv.reader(text.splitlines(), delimiter=sep))
    header = [h.strip() for h in rows[0]]
    runs, current, previous = [], None, None
    for row in rows[1:]:
        if not row or all(not c.strip() for c in row):
            continue
        if row[0].strip() == "epoch":
            header = [h.strip() for h in row]
            current = None
            continue
        epoch = float(row[0])
        if current is None or (epoch == 0 and previous is not None):
            current = []
            runs.append(current)
        previous = epoch
        cells = dict(zip(header, (c.strip() for c in row)))
        v = number(cells.get(metric))
        if v is not None:
            current.append((epoch + 1, v))
    return [("epochs", r) for r in runs]


def mlflow_runs(folder, metric):
    with open(os.path.join(folder, "meta.yaml"), encoding="utf-8") as f:
        meta = f.read()
    m = re.search(r"^start_time:\s*(\d+)", meta, re.M)
    lines = []
    with open(os.path.join(folder, "metrics", metric), encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if parts:
                lines.append((float(parts[0]), float(parts[1])))
    start = float(m.group(1)) if m else min(ts for ts, _ in lines)
    return [("seconds", [((ts - start) / 1000.0, v) for ts, v in lines])]


READERS = {"hf-trainer": hf_runs, "lightning": lightning_runs, "keras": keras_runs, "mlflow": mlflow_runs}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    out = []
    for item in spec:
        runs = []
        read = [(unit, keep(points)) for unit, points in READERS[item["format"]](item["path"], item["metric"])]
        threshold = item.get("threshold")
        if threshold is None:
            values = [v for _, kept in read for _, v in kept]
            threshold = statistics.median(values) if values else 0.0
        for unit, kept in read:
            lower = bool(item.get("lower"))
            tta = next((p for p, v in kept if (v <= threshold if lower else v >= threshold)), None)
            runs.append({"evaluations": len(kept), "tta": tta, "threshold": threshold, "unit": unit})
        out.append({"path": item["path"], "runs": runs})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
