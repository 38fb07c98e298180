"""An independent re-implementation of `evalsuite audit`'s rerun simulation, pair probabilities and selection
statistics with numpy, for tests/audit/audit_oracle_test.cpp.

The submissions' runs (time to train, convergence point, batch size, division, official score) come from
`evalsuite import --json` (itself checked run by run against the official summarizer and RCP checker by
tests/importer/mlperf_official_test.cpp); the reference at each batch size from the official package's own
RCP_Checker (its pruned records, _find_rcp, _find_top_min_rcp / _find_bottom_max_rcp and _create_interp_rcp), not
from evalsuite. Random numbers are numpy's (seeded), so evalsuite and this agree within Monte Carlo error only.

usage: audit_oracle.py PACKAGE_DIR IMPORT_JSON AUDIT_JSON DRAWS SEED > oracle.json
For each submission of AUDIT_JSON, the oracle's own distribution of the rerun score evaluated at evalsuite's median
and range ends (P(X < x), P(X <= x)), its own median and range, the selection statistics, and for each adjacent pair
of AUDIT_JSON the oracle's P(faster stays faster).
"""
import json
import sys

import numpy as np


def olympic(a, drop):
    """Olympic mean along the last axis."""
    a = np.sort(a, axis=-1)
    n = a.shape[-1]
    return a[..., drop:n - drop].mean(axis=-1)


def two_stage(values, draws, n, rng):
    """n runs' values per rerun, from the normal model's predictive with the runs' own shape: sigma = s sqrt((k-1) /
    chi2_{k-1}), mean shifted by sigma Z / sqrt(k), resampled deviations scaled by sqrt(k / (k-1)) sigma / s, with
    k = len(values) (the draw evalsuite documents in analysis/mlperf_rerun.cpp)."""
    values = np.asarray(values, float)
    k = len(values)
    m = values.mean()
    s = values.std(ddof=1) if k >= 2 else 0.0
    if s <= 0:
        return np.full((draws, n), m)
    ratio = np.sqrt((k - 1) / rng.chisquare(k - 1, size=(draws, 1)))
    shift = s * ratio / np.sqrt(k) * rng.standard_normal((draws, 1))
    dev = (rng.choice(values, size=(draws, n)) - m) * np.sqrt(k / (k - 1)) * ratio
    return np.maximum(0.0, m + shift + dev)


def reference_pool(rcp_checker_mod, ruleset, benchmark, batch):
    """(pool, mean, min_epochs) at the batch size as the official checker picks its reference, else None."""
    try:
        checker = rcp_checker_mod.RCP_Checker("training", ruleset, benchmark, False)
    except Exception:  # no RCP file or no rule for the benchmark
        return None
    record = checker._find_rcp(batch, "pruned_rcps")
    if record is not None:
        return np.array(record["Epochs to converge"], float), record["RCP Mean"], record["Min Epochs"]
    low = checker._find_top_min_rcp(batch, "pruned_rcps")
    high = checker._find_bottom_max_rcp(batch, "pruned_rcps")
    if low is None or high is None:
        return None
    _, interp = checker._create_interp_rcp(batch, low, high)
    pool = []
    for side in (low, high):
        e = np.array(side["Epochs to converge"], float)
        z = (e - side["RCP Mean"]) / side["RCP Stdev"] if side["RCP Stdev"] > 0 else np.zeros_like(e)
        pool.extend(interp["RCP Mean"] + interp["RCP Stdev"] * z)
    return np.array(pool), interp["RCP Mean"], interp["Min Epochs"]


def simulate(group, rcp_checker_mod, draws, rng):
    """The oracle's rerun scores of one imported submission (None when it cannot be simulated)."""
    runs = [r for r in group["run_details"] if r["status"] == "success" and r["time_to_train_minutes"] is not None]
    minutes = np.array([r["time_to_train_minutes"] for r in runs], float)
    conv = [r["convergence"] for r in runs]
    n = (group.get("target") or {}).get("runs_per_submission", 5)
    drop = group["drop_each_side"]
    reference = None
    rcp_file = (group.get("rcp") or {}).get("rcp_file")
    if (group.get("official_target") and group.get("division") == "closed" and rcp_file
            and group.get("global_batch_size") is not None):
        benchmark = rcp_file.rsplit("/rcps_", 1)[1][:-len(".json")]
        reference = reference_pool(rcp_checker_mod, group["ruleset"], benchmark, group["global_batch_size"])
    points = [c for c in conv if c is not None]
    if reference is not None and points and not (reference[1] / 5 <= np.median(points) <= reference[1] * 5):
        reference = None  # the logs' convergence points are in another unit than the RCP's
    per_unit = np.array([m / c for m, c in zip(minutes, conv) if c is not None and c > 0], float)
    if reference is not None and len(per_unit) > 0:
        pool, mean, _ = reference
        c = rng.choice(pool, size=(draws, n))
        t = two_stage(per_unit, draws, n, rng)
        raw = olympic(c * t, drop)
        norm = np.maximum(1.0, mean / olympic(c, drop))
        return raw * norm, "reference", pool
    if len(minutes) < 2:
        return None, None, None
    official = group["official"]
    scale = 1.0
    if official.get("official_minutes") is not None and official.get("raw_minutes"):
        scale = official["official_minutes"] / official["raw_minutes"]
    return olympic(two_stage(minutes, draws, n, rng), drop) * scale, "own runs", None


def cdf_at(scores, x):
    lt = float(np.mean(scores < x * (1 - 1e-9)))
    le = float(np.mean(scores <= x * (1 + 1e-9)))
    return [lt, le]


def positions(points, pool):
    pool = np.sort(pool)
    eps = 1e-9 * np.abs(points)  # ties within rounding, as evalsuite counts them
    less = np.searchsorted(pool, points - eps, side="left")
    equal = np.searchsorted(pool, points + eps, side="right") - less
    return (less + equal / 2 + 0.5) / (len(pool) + 1)


def selection(group, pool, draws, rng):
    points = np.array([r["convergence"] for r in group["run_details"]
                       if r["status"] == "success" and r["time_to_train_minutes"] is not None
                       and r["convergence"] is not None], float)
    if len(points) == 0 or pool is None or len(pool) < 2:
        return None
    pool_var = np.var(pool, ddof=1)
    mean_position = float(positions(points, pool).mean())
    null = rng.choice(pool, size=(draws, len(points)))
    null_position = positions(null.ravel(), pool).reshape(null.shape).mean(axis=1)
    out = {"mean_position": mean_position,
           "p_fast": float((np.sum(null_position <= mean_position * (1 + 1e-9)) + 1) / (draws + 1))}
    if len(points) >= 2 and pool_var > 0:
        ratio = float(np.var(points, ddof=1) / pool_var)
        null_ratio = np.var(null, axis=1, ddof=1) / pool_var
        out["variance_ratio"] = ratio
        out["p_spread"] = float((np.sum(null_ratio <= ratio * (1 + 1e-9)) + 1) / (draws + 1))
    return out


def main():
    package, import_json, audit_json, draws, seed = sys.argv[1:6]
    draws, seed = int(draws), int(seed)
    sys.path.insert(0, package)
    from mlperf_logging.rcp_checker import rcp_checker as rcp_checker_mod
    import logging
    logging.disable(logging.CRITICAL)
    groups = {}
    for path in import_json.split(","):
        for g in json.load(open(path))["groups"]:
            if g["format"] == "mlperf":
                groups[g["source"]] = g
    audit = json.load(open(audit_json))
    rng = np.random.default_rng(seed)
    out = {"submissions": {}, "pairs": []}
    scores = {}
    for ag in audit["groups"]:
        for s in ag["submissions"]:
            g = groups[s["source"]]
            sim, method, pool = simulate(g, rcp_checker_mod, draws, rng)
            if sim is None:
                out["submissions"][s["source"]] = {"computed": False}
                continue
            scores[s["source"]] = sim
            row = {"computed": True, "method": method, "median": float(np.quantile(sim, 0.5)),
                   "low": float(np.quantile(sim, 0.05)), "high": float(np.quantile(sim, 0.95))}
            if s["rerun"]["computed"]:
                row["cdf"] = {k: cdf_at(sim, s["rerun"][k]) for k in ("low", "median", "high")}
            row["selection"] = selection(g, pool, draws, rng) if method == "reference" else None
            out["submissions"][s["source"]] = row
        for p in ag["pairs"]:
            a, b = scores.get(p["faster"]), scores.get(p["slower"])
            prob = None if a is None or b is None else float(np.mean(a < b) + 0.5 * np.mean(a == b))
            out["pairs"].append({"faster": p["faster"], "slower": p["slower"], "probability": prob})
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
