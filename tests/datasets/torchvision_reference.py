"""The torchvision side of tests/datasets/torchvision_fidelity_test.cpp (run with Debian's python3-torchvision).

Usage: torchvision_reference.py OUT_DIR PRESET...
Writes photo-like images of several sizes, aspect ratios and kinds into OUT_DIR (baseline and progressive
JPEG, EXIF orientations 1-8, grayscale, palette and alpha PNG, WebP with an EXIF orientation), then for each
the input tensor of torchvision's pipeline as a user writes it (PIL open, ImageOps.exif_transpose, RGB,
Resize(256), CenterCrop(224), ToTensor, Normalize) to NAME.pil.f32, and the same with torchvision's other
resize back-end (uint8 tensors, antialias=True) to NAME.tensor.f32 (both prefixed by the preset name): the
distance between the two is torchvision's own back-end difference, the bar evalsuite is held to.
OUT_DIR/images.tsv lists name and kind. Presets: "imagenet" (bilinear), "imagenet-bicubic" (timm's default).
"""
import io
import os
import sys

import numpy as np
import torch
from PIL import Image, ImageDraw, ImageOps
from torchvision import transforms
from torchvision.transforms import InterpolationMode
from torchvision.transforms import functional as F

MEAN = [0.485, 0.456, 0.406]
STD = [0.229, 0.224, 0.225]


def photo(width, height, seed):
    """Smooth colour fields, hard-edged shapes, fine texture and sensor-like noise: what resampling meets."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    image = np.zeros((height, width, 3), np.float32)
    for c in range(3):
        for _ in range(4):
            fx, fy = rng.uniform(0.5, 12, 2) / max(width, height)
            image[..., c] += rng.uniform(20, 50) * np.sin(2 * np.pi * (fx * x + fy * y) + rng.uniform(0, 6.3))
        image[..., c] += 128
    image += 18 * np.sin(x * 0.9 + y * 0.35)[..., None] * (x > width / 2)[..., None]  # fine stripes, one half
    image += rng.normal(0, 6, image.shape)
    pil = Image.fromarray(np.clip(image, 0, 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(pil)
    for _ in range(12):
        x0, y0 = int(rng.integers(0, width)), int(rng.integers(0, height))
        w, h = int(rng.integers(4, max(5, width // 3))), int(rng.integers(4, max(5, height // 3)))
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        if rng.random() < 0.5:
            draw.rectangle([x0, y0, x0 + w, y0 + h], fill=colour)
        else:
            draw.ellipse([x0, y0, x0 + w, y0 + h], fill=colour)
    return pil


def exif_bytes(orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    return exif.tobytes()


def write_images(out_dir):
    """(name, kind) of every image written."""
    sizes = [(640, 480), (480, 640), (200, 150), (1000, 333), (1200, 1600), (257, 256)]
    written = []

    def save(name, kind, image, **options):
        if options["format"] == "PNG":
            options["compress_level"] = 1  # the test's time, not the pixels
        image.save(os.path.join(out_dir, name), **options)
        written.append((name, kind))

    for i, (w, h) in enumerate(sizes):
        base = photo(w, h, seed=i)
        save(f"baseline_{w}x{h}.jpg", "jpeg-baseline", base, format="JPEG", quality=90)
        save(f"progressive_{w}x{h}.jpg", "jpeg-progressive", base, format="JPEG", quality=85, progressive=True)
        save(f"gray_{w}x{h}.jpg", "jpeg-grayscale", base.convert("L"), format="JPEG", quality=90)
        save(f"rgb_{w}x{h}.png", "png-rgb", base, format="PNG")
        save(f"gray_{w}x{h}.png", "png-grayscale", base.convert("L"), format="PNG")
        save(f"palette_{w}x{h}.png", "png-palette", base.quantize(64, method=Image.Quantize.FASTOCTREE),
             format="PNG")
        rgba = base.copy()
        rgba.putalpha(Image.linear_gradient("L").resize((w, h)))
        save(f"alpha_{w}x{h}.png", "png-alpha", rgba, format="PNG")
    oriented = photo(600, 400, seed=99)
    for orientation in range(1, 9):
        save(f"exif{orientation}.jpg", f"jpeg-exif-{orientation}", oriented, format="JPEG", quality=90,
             exif=exif_bytes(orientation))
    save("lossless.webp", "webp-lossless", photo(500, 300, seed=7), format="WEBP", lossless=True)
    for orientation in (3, 6, 8):
        save(f"exif{orientation}.webp", f"webp-exif-{orientation}", oriented, format="WEBP", lossless=True,
             exif=exif_bytes(orientation))
        save(f"exif{orientation}.png", f"png-exif-{orientation}", oriented, format="PNG", exif=exif_bytes(orientation))
    return written


def main():
    out_dir, presets = sys.argv[1], sys.argv[2:]
    written = write_images(out_dir)
    rgb_images = []
    for name, _ in written:
        with Image.open(os.path.join(out_dir, name)) as opened:
            rgb_images.append(ImageOps.exif_transpose(opened).convert("RGB"))
    for preset in presets:
        interpolation = InterpolationMode.BICUBIC if preset == "imagenet-bicubic" else InterpolationMode.BILINEAR
        pil_pipeline = transforms.Compose([
            transforms.Resize(256, interpolation=interpolation), transforms.CenterCrop(224), transforms.ToTensor(),
            transforms.Normalize(MEAN, STD)])
        for (name, _), rgb in zip(written, rgb_images):
            reference = pil_pipeline(rgb)
            # torchvision's tensor back-end: uint8 CHW, antialiased resize, the same crop and normalization.
            tensor = F.pil_to_tensor(rgb)
            tensor = F.resize(tensor, 256, interpolation=interpolation, antialias=True)
            tensor = F.center_crop(tensor, 224)
            tensor = F.normalize(F.convert_image_dtype(tensor, torch.float32), MEAN, STD)
            stem = os.path.join(out_dir, f"{name}.{preset}")
            reference.numpy().astype("<f4").tofile(stem + ".pil.f32")
            tensor.numpy().astype("<f4").tofile(stem + ".tensor.f32")
    with open(os.path.join(out_dir, "images.tsv"), "w") as listing:
        for name, kind in written:
            listing.write(f"{name}\t{kind}\n")


if __name__ == "__main__":
    main()
