#!/usr/bin/python3
"""The Python peer of `evalsuite latency` (Debian's python3-torch, LibTorch 1.13 as evalsuite links).

  make-model --out FILE [--seed S]      the built-in entries' Fashion-MNIST convnet (conv 16, conv 32, 7x7 head
                                        conv 128, linear 10; training/convnet.cpp's exported forward)
                                        with random weights and batch-norm statistics, scripted and saved
  images --out FILE --n N [--seed S]    N random [1, 28, 28] images in [0, 1], raw little-endian float32
  bench --model FILE --images FILE [--threads 1] [--batch-sizes 1,8,32,128] [--seconds 0.5] [--repeats 5]
        [--warmup-per-shape 3]          as a user times it: torch.jit.load, freeze + optimize_for_inference,
                                        torch.inference_mode, time.perf_counter; batch-1 latency of every image
                                        (p50, p90, p99, mean) and images/second per batch size (median of the
                                        blocks, with their range); prints one JSON line
Always run with /usr/bin/python3 (the interpreter that has torch).
"""
import argparse
import json
import statistics
import time

import numpy as np
import torch


class FashionConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1_weight = torch.nn.Parameter(torch.randn(16, 1, 3, 3) * 0.3)
        self.bn1_weight = torch.nn.Parameter(torch.rand(16) + 0.5)
        self.bn1_bias = torch.nn.Parameter(torch.randn(16) * 0.1)
        self.register_buffer("bn1_running_mean", torch.randn(16) * 0.1)
        self.register_buffer("bn1_running_var", torch.rand(16) + 0.5)
        self.conv2_weight = torch.nn.Parameter(torch.randn(32, 16, 3, 3) * 0.1)
        self.bn2_weight = torch.nn.Parameter(torch.rand(32) + 0.5)
        self.bn2_bias = torch.nn.Parameter(torch.randn(32) * 0.1)
        self.register_buffer("bn2_running_mean", torch.randn(32) * 0.1)
        self.register_buffer("bn2_running_var", torch.rand(32) + 0.5)
        self.head_weight = torch.nn.Parameter(torch.randn(128, 32, 7, 7) * 0.02)
        self.head_bias = torch.nn.Parameter(torch.zeros(128))
        self.out_weight = torch.nn.Parameter(torch.randn(10, 128) * 0.1)
        self.out_bias = torch.nn.Parameter(torch.zeros(10))

    def forward(self, x):
        x = (x - 0.2860) / 0.3530
        x = torch.conv2d(x, self.conv1_weight, None, [1, 1], [1, 1])
        x = torch.batch_norm(x, self.bn1_weight, self.bn1_bias, self.bn1_running_mean, self.bn1_running_var,
                             False, 0.0, 1e-5, False)
        x = torch.max_pool2d(torch.relu(x), [2, 2])
        x = torch.conv2d(x, self.conv2_weight, None, [1, 1], [1, 1])
        x = torch.batch_norm(x, self.bn2_weight, self.bn2_bias, self.bn2_running_mean, self.bn2_running_var,
                             False, 0.0, 1e-5, False)
        x = torch.max_pool2d(torch.relu(x), [2, 2])
        x = torch.relu(torch.conv2d(x, self.head_weight, self.head_bias))
        x = torch.flatten(x, 1)
        return torch.addmm(self.out_bias, x, self.out_weight.t())


def make_model(args):
    torch.manual_seed(args.seed)
    module = torch.jit.script(FashionConvNet().eval())
    torch.jit.save(module, args.out)


def make_images(args):
    rng = np.random.default_rng(args.seed)
    rng.random((args.n, 1, 28, 28), dtype=np.float32).tofile(args.out)


def bench(args):
    torch.set_num_threads(args.threads)
    model = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.load(args.model).eval()))
    images = torch.from_numpy(np.fromfile(args.images, dtype=np.float32).reshape(-1, 1, 28, 28))
    n = images.shape[0]
    out = {"threads": args.threads, "images": n}
    with torch.inference_mode():
        for _ in range(10):
            model(images[:1])
        latencies = []
        for i in range(n):
            start = time.perf_counter()
            model(images[i:i + 1]).topk(5, 1)
            latencies.append(time.perf_counter() - start)
        p50, p90, p99 = np.percentile(latencies, [50, 90, 99])
        out["latency_ms"] = {"p50": 1e3 * p50, "p90": 1e3 * p90, "p99": 1e3 * p99,
                             "mean": 1e3 * statistics.fmean(latencies)}
        rows = []
        for batch in args.batch_sizes:
            batch = min(batch, n)
            for _ in range(args.warmup_per_shape):
                model(images[:batch]).topk(5, 1)
            rates = []
            for _ in range(args.repeats):
                done, start = 0, time.perf_counter()
                while True:
                    for first in range(0, n - batch + 1, batch):
                        model(images[first:first + batch]).topk(5, 1)
                        done += batch
                    elapsed = time.perf_counter() - start
                    if elapsed >= args.seconds / args.repeats:
                        break
                rates.append(done / elapsed)
            rows.append({"batch": batch, "images_per_second": statistics.median(rates),
                         "images_per_second_low": min(rates), "images_per_second_high": max(rates)})
        out["throughput"] = rows
    print(json.dumps(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make-model")
    m.add_argument("--out", required=True)
    m.add_argument("--seed", type=int, default=0)
    i = sub.add_parser("images")
    i.add_argument("--out", required=True)
    i.add_argument("--n", type=int, required=True)
    i.add_argument("--seed", type=int, default=0)
    b = sub.add_parser("bench")
    b.add_argument("--model", required=True)
    b.add_argument("--images", required=True)
    b.add_argument("--threads", type=int, default=1)
    b.add_argument("--batch-sizes", type=lambda s: [int(x) for x in s.split(",")], default=[1, 8, 32, 128])
    b.add_argument("--seconds", type=float, default=0.5)
    b.add_argument("--repeats", type=int, default=5)
    b.add_argument("--warmup-per-shape", type=int, default=3)
    args = parser.parse_args()
    {"make-model": make_model, "images": make_images, "bench": bench}[args.command](args)


if __name__ == "__main__":
    main()
