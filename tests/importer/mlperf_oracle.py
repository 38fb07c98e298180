#!/usr/bin/python3
"""Writes, as JSON, the official mlperf_logging figures for every benchmark folder of the shared MLPerf rounds:
the result files the summarizer reads, the ones it drops, the olympic score (raw and with the folder's
scaling.json), the energy score where the folder has power logs, and for the closed division the RCP checker's
verdict, reference record and normalization. It runs the official package (never evalsuite code) on a fresh copy
under /tmp, because the RCP checker writes scaling.json into the folders it reads. The ruleset of a round is the
round's ("training_results_v4.1" -> 4.1.0); the division is the system description's, as the summarizer reads it.

  PYTHONPATH=../shared/peers/mlperf_logging /usr/bin/python3 tests/importer/mlperf_oracle.py \
      ../shared/data/mlperf v0.6 v1.0 ... > tests/importer/data/mlperf_official.json
"""
import contextlib
import glob
import io
import json
import os
import re
import shutil
import sys
import tempfile

from mlperf_logging.rcp_checker import rcp_checker
from mlperf_logging.result_summarizer import result_summarizer as rs


def division_of(submitter_dir, system):
    try:
        with open(os.path.join(submitter_dir, "systems", system + ".json")) as f:
            return json.load(f).get("division")
    except (OSError, ValueError):
        return None  # the summarizer skips a system without a readable description


def folder_figures(data, work, folder, ruleset, captured):
    rel = os.path.relpath(folder, data)
    parts = rel.split(os.sep)
    submitter_dir = os.path.join(data, parts[0], parts[1])
    system = parts[-2]
    benchmark = rs._benchmark_alias(parts[-1])
    copy = os.path.join(work, rel)
    shutil.copytree(folder, copy)
    files = sorted(os.path.basename(p) for p in glob.glob(os.path.join(copy, "result_*.txt")))
    row = {"folder": rel, "ruleset": ruleset, "benchmark": benchmark, "division": division_of(submitter_dir, system),
           "files": files}
    has_power = rs._has_power(copy)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            scores, power, score, power_score, scaling = rs._compute_strong_score_standalone(
                benchmark, system, has_power, copy, "training", ruleset, return_full_scores=True)
        counted = sorted(os.path.basename(p) for p in scores)
        row.update({"counted": counted, "dropped": sorted(set(files) - set(counted)), "published_scaling": scaling,
                    "official_minutes": score, "raw_minutes": None if score is None else score / scaling})
        if has_power:
            row["energy"] = power_score
    except Exception as e:  # the summarizer itself fails on this folder: recorded as such
        row["summarizer_error"] = "%s: %s" % (type(e).__name__, e)
    if row["division"] == "closed" and ruleset not in ("0.6.0", "0.7.0"):
        captured.clear()
        try:
            with contextlib.redirect_stdout(out):
                ok, msg, norm = rcp_checker.check_directory(copy, "training", ruleset, False, False,
                                                            rcp_pass="pruned_rcps", set_scaling=True)
            rec = captured.get("record", {})
            row["rcp"] = {"pass": bool(ok), "message": msg, "norm_factor": norm, "mean": rec.get("RCP Mean"),
                          "stdev": rec.get("RCP Stdev")}
        except Exception as e:
            row["rcp"] = {"error": "%s: %s" % (type(e).__name__, e)}
    return row


def main(data, rounds):
    work = tempfile.mkdtemp(prefix="mlperf_oracle_")
    captured = {}
    original_eval = rcp_checker.RCP_Checker._eval_submission_record

    def spy(self, rcp_record, subm_epochs, results_dir):
        ok, norm = original_eval(self, rcp_record, subm_epochs, results_dir)
        captured["record"] = dict(rcp_record)
        return ok, norm

    rcp_checker.RCP_Checker._eval_submission_record = spy
    rows = []
    for r in rounds:
        round_dir = "training_results_" + r
        ruleset = re.sub(r"^v", "", r) + ".0"
        for folder in sorted(glob.glob(os.path.join(data, round_dir, "*", "results", "*", "*"))):
            if os.path.isdir(folder) and glob.glob(os.path.join(folder, "result_*.txt")):
                rows.append(folder_figures(data, work, folder, ruleset, captured))
    shutil.rmtree(work)
    command = ("PYTHONPATH=../shared/peers/mlperf_logging /usr/bin/python3 tests/importer/mlperf_oracle.py "
               "../shared/data/mlperf " + " ".join(rounds))
    json.dump({"command": command, "package": "mlperf_logging 4.1.59 (mlcommons/logging 7bbf792)", "folders": rows},
              sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
