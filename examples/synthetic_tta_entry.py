#!/usr/bin/python3
"""An external entry whose time to accuracy is drawn from a known distribution by its seed (standard library only):
for checking what evalsuite concludes about two entries whose true difference you know.

    synthetic_tta_entry.py --seed S --log FILE --median 100 --cov 0.1 [--fail 0.1] [--evals 20] [--pause 0]
                           [--entry NAME]
                           [--init-seed I --cov-init 0.1] [--data-seed D --cov-data 0.1] [--aug-seed A --cov-aug 0.1]

TTA ~ lognormal with the given median and coefficient of variation (sigma = sqrt(log(1 + cov^2))). The run
evaluates `evals` times, 1.5 x TTA / evals apart in training time, with an accuracy that rises linearly to 0.90 at
TTA, so it reaches a 0.90 target at its first evaluation at or after TTA. With probability --fail the run plateaus
at 0.85 instead (never reaches; evalsuite censors it at the time it stopped). --pause sleeps that many seconds after
each evaluation (a run that takes wall time). --entry names the entry in the log's header (default "synthetic"),
which is what `evalsuite import` files the run under.

Sources of randomness (a study's [variance] design passes {init_seed}, {data_seed}, {aug_seed}): each source given
adds its own lognormal factor, drawn from that source's seed alone, with its own CoV (--cov-init, --cov-data,
--cov-aug); --seed's factor (--cov) is then what the same source seeds do twice, as nondeterminism would.
"""
import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evalsuite_log import RunLog  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--median", type=float, default=100.0)
    parser.add_argument("--cov", type=float, default=0.1)
    parser.add_argument("--fail", type=float, default=0.0)
    parser.add_argument("--evals", type=int, default=20)
    parser.add_argument("--pause", type=float, default=0.0)
    parser.add_argument("--entry", default="synthetic")
    for source in ("init", "data", "aug"):
        parser.add_argument(f"--{source}-seed", type=int)
        parser.add_argument(f"--cov-{source}", type=float, default=0.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sigma = math.sqrt(math.log(1 + args.cov ** 2))
    tta = args.median * math.exp(rng.gauss(0, sigma))
    for source in ("init", "data", "aug"):
        seed = getattr(args, f"{source}_seed")
        if seed is not None:
            source_sigma = math.sqrt(math.log(1 + getattr(args, f"cov_{source}") ** 2))
            tta *= math.exp(random.Random(f"{source}:{seed}").gauss(0, source_sigma))
    fails = rng.random() < args.fail
    log = RunLog(args.log, args.seed)
    log.header(args.entry, threshold=0.90, hyperparameters={"median": args.median, "cov": args.cov,
                                                               "fail": args.fail})
    step = 1.5 * tta / args.evals
    for k in range(1, args.evals + 1):
        t = k * step
        metric = min(0.85, 0.9 * t / tta) if fails else 0.9 * min(t / tta, 1.0) + 0.05 * max(0.0, t / tta - 1.0) / 0.5
        log.train_seconds = t
        log.eval(k, metric=min(metric, 0.99))
        if args.pause > 0:
            time.sleep(args.pause)
    log.end()


if __name__ == "__main__":
    main()
