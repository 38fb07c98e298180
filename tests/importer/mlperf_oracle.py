#!/usr/bin/python3
"""Prints the official mlperf_logging figures for every benchmark folder of the shared MLPerf samples, as the C++
initializer rows of tests/importer/mlperf_official_test.cpp. It runs the official package (never evalsuite code) on
a fresh copy under /tmp, because the RCP checker writes scaling.json into the folders it reads.

  PYTHONPATH=../shared/peers/mlperf_logging /usr/bin/python3 tests/importer/mlperf_oracle.py ../shared/data/mlperf
"""
import glob
import os
import shutil
import sys
import tempfile

from mlperf_logging.rcp_checker import rcp_checker
from mlperf_logging.result_summarizer import result_summarizer as rs

FOLDERS = [("training_results_v2.0", "2.0.0"), ("training_results_v4.0", "4.0.0"), ("training_results_v5.1", "5.1.0")]


def main(data):
    work = tempfile.mkdtemp(prefix="mlperf_oracle_")
    captured = {}
    original_eval = rcp_checker.RCP_Checker._eval_submission_record

    def spy(self, rcp_record, subm_epochs, results_dir):
        ok, norm = original_eval(self, rcp_record, subm_epochs, results_dir)
        captured["record"] = dict(rcp_record)
        return ok, norm

    rcp_checker.RCP_Checker._eval_submission_record = spy
    rows = []
    for round_dir, ruleset in FOLDERS:
        for folder in sorted(glob.glob(os.path.join(data, round_dir, "*", "results", "*", "*"))):
            if not glob.glob(os.path.join(folder, "result_*.txt")):
                continue
            copy = os.path.join(work, os.path.relpath(folder, data))
            shutil.copytree(folder, copy)
            published = rs._get_scaling_factor(copy)
            benchmark = os.path.basename(folder)
            scores, _, official, _, _ = rs._compute_strong_score_standalone(
                benchmark, "system", False, copy, "training", ruleset, return_full_scores=True)
            runs = len(glob.glob(os.path.join(copy, "result_*.txt")))
            failed = runs - len(scores)
            captured.clear()
            ok, msg, norm = rcp_checker.check_directory(copy, "training", ruleset, False, False,
                                                        rcp_pass="pruned_rcps", set_scaling=True)
            rec = captured.get("record", {})
            rows.append('    {"%s", "%s", %d, %d, %.17g, %.17g, %.17g, %s, "%s", %.17g, %.17g, %.17g},' % (
                os.path.relpath(folder, data), ruleset, runs, failed, official / published, published, official,
                "true" if ok else "false", msg, norm, rec.get("RCP Mean", float("nan")),
                rec.get("RCP Stdev", float("nan"))))
    shutil.rmtree(work)
    print("\n".join(rows))


if __name__ == "__main__":
    main(sys.argv[1])
