#!/usr/bin/python3
"""The peer of bench/training_throughput_bench.cpp: evalsuite's `baseline` entry (same model, same recipe,
same batch assembly) written in PyTorch's Python front end. Trains on the first N Fashion-MNIST training
images and prints one JSON line with the training throughput (evaluation and data loading excluded).

Run with Debian's /usr/bin/python3 (python3-torch 1.13, the same library evalsuite links).
"""
import argparse
import gzip
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

MEAN, STD = 0.2860, 0.3530  # entries/builtin_entries.h


def read_idx(path, offset):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return np.frombuffer(f.read(), np.uint8, offset=offset)


def find(data_dir, stem):
    for name in (stem, stem + ".gz"):
        if os.path.exists(os.path.join(data_dir, name)):
            return os.path.join(data_dir, name)
    raise SystemExit(f"{data_dir}: no {stem}[.gz]")


class ConvNet(nn.Module):
    """training/convnet.cpp: conv-BN-ReLU-pool x2, a 7x7 'dense' convolution, a linear layer."""

    def __init__(self, c1=16, c2=32, head=128):
        super().__init__()
        self.conv1 = nn.Conv2d(1, c1, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c1)
        self.conv2 = nn.Conv2d(c1, c2, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c2)
        self.head = nn.Conv2d(c2, head, 7)
        self.out = nn.Linear(head, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 2)
        x = F.max_pool2d(F.relu(self.bn2(self.conv2(x))), 2)
        if x.shape[2] != 7 or x.shape[3] != 7:
            x = F.adaptive_avg_pool2d(x, 7)
        return self.out(torch.flatten(F.relu(self.head(x)), 1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--images", type=int, default=10000)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--channels-last", type=int, default=1, help="1 as evalsuite does, 0 for NCHW")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    images = read_idx(find(args.data, "train-images-idx3-ubyte"), 16).reshape(-1, 1, 28, 28)[: args.images]
    labels = read_idx(find(args.data, "train-labels-idx1-ubyte"), 8)[: args.images]
    x_all = (torch.from_numpy(images.astype(np.float32)) / 255.0 - MEAN) / STD
    y_all = torch.from_numpy(labels.astype(np.int64))
    fmt = torch.channels_last if args.channels_last else torch.contiguous_format

    # baseline recipe: batch 128, SGD momentum 0.9, weight decay 5e-4, lr 0.05 with per-step cosine decay.
    model = ConvNet().to(memory_format=fmt)
    model.train()
    lr, batch = 0.05, 128
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4, nesterov=False)
    n = x_all.shape[0]
    steps = (n + batch - 1) // batch
    generator = torch.Generator().manual_seed(args.seed)
    train_seconds = 0.0
    loss_sum = 0.0
    for epoch in range(args.epochs):
        start = time.perf_counter()
        order = torch.randperm(n, generator=generator)
        loss_sum = 0.0
        for step in range(steps):
            index = order[step * batch:(step + 1) * batch]
            x = x_all.index_select(0, index).contiguous(memory_format=fmt)
            y = y_all.index_select(0, index)
            progress = (epoch + step / steps) / args.epochs
            for group in optimizer.param_groups:
                group["lr"] = lr * 0.5 * (1 + math.cos(math.pi * progress))
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            loss_sum += loss.item() * index.shape[0]
        train_seconds += time.perf_counter() - start
    print(json.dumps({
        "images": n, "epochs": args.epochs, "threads": torch.get_num_threads(),
        "train_seconds": train_seconds, "images_per_second": n * args.epochs / train_seconds,
        "last_epoch_loss": loss_sum / n, "torch": torch.__version__,
        "channels_last": bool(args.channels_last),
    }))


if __name__ == "__main__":
    main()
