#!/usr/bin/python3
"""The Python peer of evalsuite's holdout evaluation (Debian's python3-torch and python3-torchvision).

  make-model --out FILE [--arch A] [--calibrate DIR]
                                            torchvision.models.A(weights=None) (default resnet18; resnet50,
                                            mobilenet_v3_small, ...) with random weights (seed 0), traced; with
                                            --calibrate, batch-norm statistics are first estimated on the images
                                            of DIR so that predictions depend on the input (not one constant class)
  tensors --images DIR --out FILE           torchvision's ImageNet transforms (Resize(256), CenterCrop(224),
                                            ToTensor, Normalize) of every *.jpg in DIR, sorted by name, written as
                                            raw little-endian float32 [N, 3, 224, 224]
  bench --images DIR --model FILE --threads T --batch B [--workers W]
                                            images/second of PIL decode + transforms in a DataLoader with W worker
                                            processes, batched inference with T threads; prints one JSON line
No downloads: the weights are random. Always run with /usr/bin/python3 (the interpreter that has torch).
"""
import argparse
import glob
import json
import os
import sys
import time

import torch
import torchvision
from PIL import Image
from torchvision import transforms

IMAGENET = transforms.Compose([
    transforms.Resize(256),
    transforms.CenterCrop(224),
    transforms.ToTensor(),
    transforms.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]),
])


def image_files(folder):
    files = sorted(glob.glob(os.path.join(folder, "*.jpg")))
    if not files:
        sys.exit(f"no *.jpg in {folder}")
    return files


def load(path):
    with open(path, "rb") as f:
        return IMAGENET(Image.open(f).convert("RGB"))


class Folder(torch.utils.data.Dataset):
    def __init__(self, files):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return load(self.files[i])


def make_model(args):
    torch.manual_seed(0)
    model = getattr(torchvision.models, args.arch)(weights=None)
    if args.calibrate:
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.momentum = None  # cumulative average over the calibration batches
        model.train()
        files = image_files(args.calibrate)
        with torch.no_grad():
            for start in range(0, len(files), 16):
                model(torch.stack([load(f) for f in files[start:start + 16]]))
    model.eval()
    traced = torch.jit.trace(model, torch.zeros(1, 3, 224, 224))
    traced.save(args.out)


def tensors(args):
    with open(args.out, "wb") as out:
        for f in image_files(args.images):
            out.write(load(f).contiguous().numpy().astype("<f4").tobytes())


def bench(args):
    torch.set_num_threads(args.threads)
    model = torch.jit.load(args.model).eval()
    files = image_files(args.images)
    with torch.inference_mode():
        model(torch.zeros(args.batch, 3, 224, 224))  # warm-up, as evalsuite's load-time probe
        start = time.perf_counter()
        loader = torch.utils.data.DataLoader(Folder(files), batch_size=args.batch, num_workers=args.workers)
        count = 0
        for batch in loader:
            model(batch).topk(5, 1)
            count += batch.shape[0]
        seconds = time.perf_counter() - start
    print(json.dumps({"images": count, "seconds": seconds, "images_per_second": count / seconds,
                      "threads": args.threads, "workers": args.workers, "batch": args.batch,
                      "torch": torch.__version__, "torchvision": torchvision.__version__}))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("make-model")
    p.add_argument("--out", required=True)
    p.add_argument("--calibrate")
    p.add_argument("--arch", default="resnet18")
    p = sub.add_parser("tensors")
    p.add_argument("--images", required=True)
    p.add_argument("--out", required=True)
    p = sub.add_parser("bench")
    p.add_argument("--images", required=True)
    p.add_argument("--model", required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    if args.command == "bench" and args.workers is None:
        args.workers = args.threads
    {"make-model": make_model, "tensors": tensors, "bench": bench}[args.command](args)


if __name__ == "__main__":
    main()
