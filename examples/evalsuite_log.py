"""evalsuite's JSON Lines run log for your own training script, in three calls (standard library only).

    from evalsuite_log import RunLog
    log = RunLog.from_args()                  # --log/--seed from argv, else $EVALSUITE_RUN_DIR/log.jsonl, $EVALSUITE_SEED
    log.header("my-entry", threshold=0.91, hyperparameters={...},   # optional hardware facts:
               flops_per_sample=7.5e6, samples_per_epoch=50000, device="NVIDIA A100-SXM4-80GB", precision="bf16")
    for epoch in range(1, epochs + 1):
        with log.training():                  # only what runs inside counts as training time
            train_one_epoch()
        log.eval(epoch, metric=validate())    # evaluation is outside: excluded, as DAWNBench counts
    log.end()

Each record is written and flushed when it happens, so a killed run keeps every evaluation it finished. The format
is runlog/jsonl_run_log.h's: a header, one "eval" record per evaluation (epoch, train_seconds,
wall_seconds, metric), an "end" record.
"""
import json
import math
import os
import sys
import time
from datetime import datetime, timezone

SCHEMA_VERSION = 1


def _option(argv, name):
    """The value of --name VALUE or --name=VALUE in argv, or None."""
    flag = "--" + name
    for i, arg in enumerate(argv):
        if arg == flag and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(flag + "="):
            return arg[len(flag) + 1:]
    return None


class _Training:
    def __init__(self, log):
        self._log = log

    def __enter__(self):
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self._log.train_seconds += time.perf_counter() - self._start
        return False


class RunLog:
    """Writes one run's log. `path`: the log file; `seed`: the run seed evalsuite chose (recorded in the header)."""

    def __init__(self, path, seed=None):
        self.path = path
        self.seed = seed
        self.train_seconds = 0.0
        self._wall_start = time.perf_counter()
        self._file = open(path, "w", buffering=1)
        self._epoch = None
        self._reached = None
        self._threshold = None

    @classmethod
    def from_args(cls, argv=None):
        """--log and --seed from the command line (as a study's {log} and {seed} pass them), else from evalsuite's
        environment: $EVALSUITE_RUN_DIR/log.jsonl and $EVALSUITE_SEED."""
        argv = sys.argv[1:] if argv is None else argv
        path = _option(argv, "log")
        if path is None and os.environ.get("EVALSUITE_RUN_DIR"):
            path = os.path.join(os.environ["EVALSUITE_RUN_DIR"], "log.jsonl")
        if path is None:
            raise SystemExit("evalsuite_log: no --log given and EVALSUITE_RUN_DIR is not set")
        seed = _option(argv, "seed")
        if seed is None:
            seed = os.environ.get("EVALSUITE_SEED")
        return cls(path, int(seed) if seed is not None else None)

    def _write(self, record):
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()

    def header(self, entry, metric="val_top1", threshold=None, seeds=None, flops_per_sample=None,
               bytes_per_sample=None, samples_per_epoch=None, device=None, device_count=None, precision=None,
               peak_flops=None, peak_bandwidth=None, **facts):
        """The first record: entry name, metric, target and any facts (hyperparameters, environment...).

        For the report's hardware section (achieved FLOP/s, MFU, roofline), optionally: flops_per_sample (model
        FLOPs of one training sample, forward and backward), bytes_per_sample, samples_per_epoch (with each
        evaluation's epoch it gives the throughput), device (e.g. torch.cuda.get_device_name()), device_count,
        precision ("fp32", "tf32", "bf16", "fp16", "fp8"), peak_flops and peak_bandwidth (per device). A value
        that is not a finite number above 0 raises ValueError here rather than reaching the log."""
        declared = {"flops_per_sample": flops_per_sample, "bytes_per_sample": bytes_per_sample,
                    "samples_per_epoch": samples_per_epoch, "device_count": device_count, "peak_flops": peak_flops,
                    "peak_bandwidth": peak_bandwidth}
        for name, value in declared.items():
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
                raise ValueError("evalsuite_log: %s must be a finite number above 0, got %r" % (name, value))
            facts[name] = value
        if precision is not None:
            if precision not in ("fp32", "tf32", "bf16", "fp16", "fp8"):
                raise ValueError("evalsuite_log: precision must be fp32, tf32, bf16, fp16 or fp8, got %r" % (precision,))
            facts["precision"] = precision
        if device is not None:
            facts["device"] = str(device)
        self._threshold = threshold
        record = {"type": "header", "schema_version": SCHEMA_VERSION, "entry": entry, "metric": metric,
                  "start_time": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
        if threshold is not None:
            record["threshold"] = threshold
        all_seeds = dict(seeds or {})
        if self.seed is not None:
            all_seeds.setdefault("run", self.seed)
        if all_seeds:
            record["seeds"] = all_seeds
        record.update(facts)
        self._write(record)

    def training(self):
        """A context manager: the time spent inside it is training time."""
        return _Training(self)

    def eval(self, epoch, metric, **extra):
        """One evaluation: the training time so far (evaluation excluded) and the wall time since the log opened."""
        self._epoch = epoch
        if self._reached is None and self._threshold is not None and metric >= self._threshold:
            self._reached = self.train_seconds
        record = {"type": "eval", "epoch": epoch, "train_seconds": self.train_seconds,
                  "wall_seconds": time.perf_counter() - self._wall_start, "metric": metric}
        record.update(extra)
        self._write(record)

    def end(self, status=None, error=None):
        """The last record. status: "reached"/"not_reached" from the threshold by default; "failed" with an error."""
        if status is None:
            status = "reached" if self._reached is not None else "not_reached"
        record = {"type": "end", "status": status, "train_seconds": self.train_seconds,
                  "wall_seconds": time.perf_counter() - self._wall_start}
        if self._epoch is not None:
            record["epochs"] = self._epoch
        if self._reached is not None:
            record["tta_seconds"] = self._reached
        if error:
            record["error"] = error
        self._write(record)
        self._file.close()
