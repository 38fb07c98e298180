#!/usr/bin/python3
"""An external evalsuite entry in PyTorch's Python front end: trains a small CNN on Fashion-MNIST for one
seed and writes evalsuite's JSON Lines run log (runlog/jsonl_run_log.h) as it goes.

Use it from a study (see studies/example-external.toml):
  command = "/usr/bin/python3 {study_dir}/../examples/pytorch_entry.py --seed {seed} --threads {threads}
             --epochs {epochs} --target {threshold} --log {log}"

Data: Debian's dataset-fashion-mnist (gzipped IDX in /usr/share/datasets/fashion-mnist, or --data DIR).
Validation is evalsuite's own split (datasets/fashion_mnist/fashion_mnist.h): per class, the test images are
shuffled with SplitMix64 seeded with 20170825 and the first half of each class is the validation set, so TTA
is measured on the same 5,000 images as the built-in entries. The holdout half is never touched.
Seeds: --seed is the run seed; weight init and data order get their own seeds derived from it with
SplitMix64 (common/seeds.h DeriveSeed), recorded in the header.
"""
import argparse
import gzip
import os
import platform
import struct
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from evalsuite_log import RunLog

MASK64 = (1 << 64) - 1
SPLIT_SEED = 20170825
MEAN, STD = 0.2860, 0.3530


class SplitMix64:
    """The same generator as common/seeds.h, bit for bit."""

    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def next_below(self, bound):
        if bound <= 1:
            return 0
        threshold = ((1 << 64) - bound) % bound
        while True:
            product = self.next() * bound
            if (product & MASK64) >= threshold:
                return product >> 64


def derive_seed(base, stream):
    mixer = SplitMix64(base ^ ((0xD1B54A32D192ED03 * (stream + 1)) & MASK64))
    mixer.next()
    return mixer.next() & 0xFFFFFFFF


def read_idx(path, magic, dims):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if len(data) < 4 + 4 * dims:
        raise ValueError(f"{path}: truncated IDX header")
    found = struct.unpack(">I", data[:4])[0]
    if found != magic:
        raise ValueError(f"{path}: magic {found:#x}, expected {magic:#x}")
    shape = struct.unpack(">" + "I" * dims, data[4:4 + 4 * dims])
    body = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * dims)
    if body.size != int(np.prod(shape)):
        raise ValueError(f"{path}: {body.size} bytes of data, header says {shape}")
    return body.reshape(shape)


def find(data_dir, stem):
    for name in (stem, stem + ".gz"):
        path = os.path.join(data_dir, name)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(f"{data_dir}: no {stem} or {stem}.gz (install dataset-fashion-mnist or pass --data)")


def validation_indices(test_labels):
    """evalsuite's stratified split of the test set: the validation half, ascending."""
    rng = SplitMix64(SPLIT_SEED)
    by_class = {}
    for i, label in enumerate(test_labels):
        by_class.setdefault(label, []).append(i)
    chosen = []
    for label in sorted(by_class):
        members = by_class[label]
        for i in range(len(members) - 1, 0, -1):  # Fisher-Yates, as DeterministicShuffle does it
            j = rng.next_below(i + 1)
            members[i], members[j] = members[j], members[i]
        chosen.extend(members[: len(members) // 2])
    return sorted(chosen)


def to_tensor(images):
    x = torch.from_numpy(images.astype(np.float32) / 255.0).unsqueeze(1)
    return (x - MEAN) / STD


class SmallCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = nn.Linear(32 * 7 * 7, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


def accuracy(model, x, y, batch=1000):
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(y), batch):
            correct += (model(x[i:i + batch]).argmax(1) == y[i:i + batch]).sum().item()
    model.train()
    return correct / len(y)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--log", required=True, help="the JSON Lines run log to write")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--target", type=float, default=0.88, help="validation top-1 to reach")
    parser.add_argument("--train-subset", type=int, default=0, help="train on the first N images (0: all)")
    parser.add_argument("--stop-at-target", action="store_true")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    args = parser.parse_args()
    if args.seed < 0 or args.epochs < 1 or args.threads < 1 or args.train_subset < 0:
        parser.error("--seed, --epochs, --threads and --train-subset must be non-negative (epochs, threads >= 1)")

    torch.set_num_threads(args.threads)
    init_seed, order_seed = derive_seed(args.seed, 1), derive_seed(args.seed, 2)
    log = RunLog(args.log, args.seed)  # examples/evalsuite_log.py: each record flushed as it is written

    hyper = {"model": "conv16-conv32-fc128", "optimizer": "sgd-nesterov", "momentum": 0.9, "lr": args.lr,
             "schedule": "cosine", "batch_size": args.batch_size, "epochs": args.epochs,
             "train_subset": args.train_subset or None}
    log.header("pytorch-python", threshold=args.target, hyperparameters=hyper,
               seeds={"run": args.seed, "init": init_seed, "data_order": order_seed}, threads=args.threads,
               environment={"python": platform.python_version(), "torch": torch.__version__,
                            "numpy": np.__version__, "host": platform.node()})

    train_x = read_idx(find(args.data, "train-images-idx3-ubyte"), 0x803, 3)
    train_y = read_idx(find(args.data, "train-labels-idx1-ubyte"), 0x801, 1)
    test_x = read_idx(find(args.data, "t10k-images-idx3-ubyte"), 0x803, 3)
    test_y = read_idx(find(args.data, "t10k-labels-idx1-ubyte"), 0x801, 1)
    if args.train_subset:
        train_x, train_y = train_x[: args.train_subset], train_y[: args.train_subset]
    val = validation_indices(test_y.tolist())
    x_train, y_train = to_tensor(train_x), torch.from_numpy(train_y.astype(np.int64))
    x_val, y_val = to_tensor(test_x[val]), torch.from_numpy(test_y[val].astype(np.int64))

    torch.manual_seed(init_seed)
    model = SmallCnn()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, nesterov=True, weight_decay=5e-4)
    steps_per_epoch = (len(y_train) + args.batch_size - 1) // args.batch_size
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=args.epochs * steps_per_epoch)
    order_rng = torch.Generator().manual_seed(order_seed)

    for epoch in range(1, args.epochs + 1):
        permutation = torch.randperm(len(y_train), generator=order_rng)
        total_loss = 0.0
        with log.training():  # evaluation excluded, as DAWNBench counts
            for i in range(0, len(y_train), args.batch_size):
                batch = permutation[i:i + args.batch_size]
                loss = F.cross_entropy(model(x_train[batch]), y_train[batch])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                scheduler.step()
                total_loss += loss.item() * len(batch)
        metric = accuracy(model, x_val, y_val)
        log.eval(epoch, metric, train_loss=total_loss / len(y_train))
        if metric >= args.target and args.stop_at_target:
            break
    log.end()
    return 0


if __name__ == "__main__":
    sys.exit(main())
