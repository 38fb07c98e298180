#!/usr/bin/python3
"""Dumps, as JSON, the facts of every MLPerf Training ruleset that the official mlperf_logging package ships, read
from the package's own files (never from evalsuite): the benchmarks of each ruleset and their result-file counts
(benchmark_meta), the olympic trim (result_summarizer), the RCP checker's run counts, convergence units and RCP
files, and from the compliance YAMLs the quality target (eval_accuracy's ATLEAST_ONE_CHECK) and the keys each
division requires with their REQ, after the chain common -> <division>_common -> <division>_<benchmark> the
checker follows (a later file's record of a key replaces an earlier one's). Needs only python3-yaml.

  /usr/bin/python3 tests/importer/mlperf_rules_facts.py ../shared/peers/mlperf_logging/mlperf_logging
"""
import ast
import json
import os
import re
import sys

import yaml

NUM = r"(-?[0-9]*\.?[0-9]+(?:[eE]-?[0-9]+)?)"
FIELD = r"v\['value'\](?:\['(\w+)'\])?"


def literal_assignment(source, name):
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise KeyError(name)


def parse_target(check):
    """eval_accuracy's ATLEAST_ONE_CHECK as bounds [field, op, value]; conditional forms as their own keys."""
    if check is None:
        return None
    out = {"check": check.strip()}
    m = re.search(r"\(v\['value'\] >= " + NUM + r" if s\['global_batch_size'\] < (\d+) else v\['value'\] >= " + NUM,
                  check)
    if m:  # bert 0.7.0: the target depends on the global batch size
        out["small_batch_min"], out["batch_limit"], out["large_batch_min"] = float(m[1]), int(m[2]), float(m[3])
        check = check[m.end():]
    bounds = []
    for m in re.finditer(NUM + r"\s*(<=|<)\s*" + FIELD + r"\s*(<=|<)\s*" + NUM, check):  # a <= x <= b
        field = m[3] or ""
        bounds.append([field, ">=" if m[2] == "<=" else ">", float(m[1])])
        bounds.append([field, m[4], float(m[5])])
    check = re.sub(NUM + r"\s*(<=|<)\s*" + FIELD + r"\s*(<=|<)\s*" + NUM, "", check)
    for m in re.finditer(FIELD + r"\s*(>=|<=|<|>)\s*" + NUM, check):
        bounds.append([m[1] or "", m[2], float(m[3])])
    out["bounds"] = sorted(bounds)
    return out


def load(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return yaml.load(f, Loader=yaml.BaseLoader) or []


def chain_tensors(cc, ruleset, division, benchmark):
    """The tensors an END check requires weights_initialization to log, exactly (sorted lists equal), or None."""
    for name in ("common", division + "_common", division + "_" + benchmark):
        for item in load(os.path.join(cc, "training_" + ruleset, name + ".yaml")):
            if list(item)[0] == "END" and "initialized_tensors" in item["END"].get("CHECK", ""):
                m = re.search(r"==\s*sorted\((\[.*\])\)", item["END"]["CHECK"], re.S)
                return sorted(ast.literal_eval(m[1]))
    return None


def chain_variants(cc, ruleset, division, benchmark):
    """A key whose value picks one more file (resnet's opt_name -> closed_resnet_<opt_name>.yaml): the key and, per
    value with a file, the keys that file requires; None when the chain has none."""
    for name in ("common", division + "_common", division + "_" + benchmark):
        for item in load(os.path.join(cc, "training_" + ruleset, name + ".yaml")):
            if list(item)[0] != "KEY":
                continue
            m = re.search(r"enqueue_config\('training_[0-9.]+/(\w+_)\{\}\.yaml'", item["KEY"].get("POST", ""))
            if not m or m[1] in ("closed_", "open_"):
                continue
            values = {}
            folder = os.path.join(cc, "training_" + ruleset)
            for f in sorted(os.listdir(folder)):
                if f.startswith(m[1]) and f.endswith(".yaml"):
                    keys = {}
                    for record in load(os.path.join(folder, f)):
                        if list(record)[0] == "KEY" and "REQ" in record["KEY"]:
                            keys[record["KEY"]["NAME"]] = record["KEY"]["REQ"]
                    values[f[len(m[1]):-len(".yaml")]] = keys
            return {"key": item["KEY"]["NAME"], "values": values}
    return None


def chain_records(cc, ruleset, division, benchmark):
    """The effective KEY records of the chain, and the constants its BEGIN blocks set ({'target_accuracy': 0.69})."""
    records = {}
    constants = {}
    # 0.6.0 has no divisions: common.yaml enqueues <benchmark>.yaml.
    chain = ("common", benchmark) if ruleset == "0.6.0" else ("common", division + "_common", division + "_" + benchmark)
    for name in chain:
        for item in load(os.path.join(cc, "training_" + ruleset, name + ".yaml")):
            if list(item)[0] == "KEY":
                records[item["KEY"]["NAME"]] = item["KEY"]
            elif list(item)[0] == "BEGIN":
                for m in re.finditer(r"'(\w+)'\s*:\s*" + NUM, item["BEGIN"]["CODE"]):
                    constants[m[1]] = m[2]
    for r in records.values():
        if "ATLEAST_ONE_CHECK" in r:
            r["ATLEAST_ONE_CHECK"] = re.sub(r"s\['(\w+)'\]", lambda m: constants.get(m[1], m[0]),
                                            r["ATLEAST_ONE_CHECK"]) if "global_batch_size" not in r["ATLEAST_ONE_CHECK"] \
                else r["ATLEAST_ONE_CHECK"]
    return records


def main(package):
    sys.path.insert(0, os.path.dirname(package))
    meta_src = open(os.path.join(package, "benchmark_meta.py")).read()
    counts = literal_assignment(meta_src, "_ALL_RESULT_FILE_COUNTS")["training"]
    allowed = literal_assignment(meta_src, "_ALL_ALLOWED_BENCHMARKS")["training"]
    rcp_src = open(os.path.join(package, "rcp_checker", "rcp_checker.py")).read()
    rcp_runs = literal_assignment(rcp_src, "submission_runs")["training"]
    samples_set = ast.literal_eval(re.search(r"elif benchmark in (\{[^}]*\}) and", rcp_src)[1])
    sd_step = ast.literal_eval(re.search(r'step_unit = "step_num" if ruleset in (\[[^\]]*\])', rcp_src)[1])
    summ_src = open(os.path.join(package, "result_summarizer", "result_summarizer.py")).read()
    m = re.search(r'max_dropped_scores = (\d+) if benchmark == "(\w+)" else (\d+)', summ_src)
    trim_special, trim_bench, trim_default = int(m[1]), m[2], int(m[3])
    cc = os.path.join(package, "compliance_checker")
    rulesets = sorted(d[len("training_"):] for d in os.listdir(cc) if re.fullmatch(r"training_\d+\.\d+\.\d+", d))
    out = {}
    for rs in rulesets:
        common = open(os.path.join(cc, "training_" + rs, "common.yaml")).read()
        limit = {"closed": None, "open": None}  # init_stop - first init_start must stay below this (minutes)
        m = re.search(r"first_init_start'\] < \((\d+)\*60\*1e3\)", common)
        if m:
            limit = {"closed": int(m[1]), "open": int(m[1])}
        m = re.search(r"s\['compile_time_mins'\] = (\d+) if v\['value'\] == 'open' else (\d+)", common)
        if m and "s['compile_time_mins']*60*1e3" in common:
            limit = {"closed": int(m[2]), "open": int(m[1])}
        short = ".".join(rs.split(".")[:2])
        names = allowed.get(rs, allowed.get(short))
        if names is None:
            continue
        benchmarks = {}
        for b in sorted(set(names)):
            rcp_file = os.path.join(package, "rcp_checker", "training_" + rs, "rcps_" + b + ".json")
            if b == "stable_diffusion":
                unit = "sd_step" if rs in sd_step else "sd_samples"
            elif b in samples_set:
                unit = "samples"
            else:
                unit = "epochs"
            row = {"result_files": counts.get(b), "drop_each_side": trim_special if b == trim_bench else trim_default,
                   "rcp_runs": rcp_runs.get(b), "has_rcp_file": os.path.exists(rcp_file), "unit": unit,
                   "init_limit_minutes": limit, "required": {}}
            for division in ("closed", "open"):
                records = chain_records(cc, rs, division, b)
                row.setdefault("variants", {})[division] = (None if rs == "0.6.0" else
                                                            chain_variants(cc, rs, division, b))
                row.setdefault("tensors", {})[division] = (None if rs == "0.6.0" else
                                                           chain_tensors(cc, rs, division, b))
                row["required"][division] = {k: r["REQ"] for k, r in sorted(records.items()) if "REQ" in r}
                # The key whose ATLEAST_ONE_CHECK is the target (eval_accuracy; aggregated_eval_accuracy for SD).
                checked = [(k, r["ATLEAST_ONE_CHECK"]) for k, r in sorted(records.items()) if "ATLEAST_ONE_CHECK" in r]
                target = parse_target(checked[0][1]) if checked else None
                if target is not None:
                    target["key"] = checked[0][0]
                row["target" if division == "closed" else "open_target"] = target
            benchmarks[b] = row
        out[rs] = benchmarks
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main(sys.argv[1])
