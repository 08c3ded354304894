"""Write paddlelite/vision/datasets/data/: a small MNIST-format sample (100 train + 100 test 28x28 digits;
Paddle's MNIST reader needs a multiple of 100).

The digits are drawn from a 5x7 bitmap font, scaled 3x, shifted, thickened and noised with a fixed seed, so
the files are the same on every run (gzip's timestamp is zeroed). Usage: python scripts/make_mnist_sample.py
"""
import gzip
import os
import struct

import numpy as np

FONT = {  # 5 columns x 7 rows per digit
    0: ["01110", "10001", "10011", "10101", "11001", "10001", "01110"],
    1: ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
    2: ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
    3: ["11110", "00001", "00001", "01110", "00001", "00001", "11110"],
    4: ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
    5: ["11111", "10000", "11110", "00001", "00001", "10001", "01110"],
    6: ["00110", "01000", "10000", "11110", "10001", "10001", "01110"],
    7: ["11111", "00001", "00010", "00100", "01000", "01000", "01000"],
    8: ["01110", "10001", "10001", "01110", "10001", "10001", "01110"],
    9: ["01110", "10001", "10001", "01111", "00001", "00010", "01100"],
}
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "paddlelite", "vision", "datasets",
                   "data")


def draw(digit, rng):
    glyph = np.array([[c == "1" for c in row] for row in FONT[digit]], dtype=np.float32)
    big = np.kron(glyph, np.ones((3, 3), np.float32))  # 15x21 pixels
    if rng.rand() < 0.5:  # a thicker stroke
        big = np.maximum(big, np.roll(big, 1, axis=1))
    image = np.zeros((28, 28), np.float32)
    top = 3 + rng.randint(-2, 3)  # centred, give or take two pixels
    left = 6 + rng.randint(-2, 3)
    image[top:top + big.shape[0], left:left + big.shape[1]] = big
    image = image * rng.uniform(180, 255) + rng.uniform(0, 40, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


def write_idx(path, array):
    header = struct.pack(">HBB", 0, 0x08, array.ndim) + struct.pack(">" + "I" * array.ndim, *array.shape)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as f:
        f.write(header + array.astype(np.uint8).tobytes())


def main():
    rng = np.random.RandomState(0)
    os.makedirs(OUT, exist_ok=True)
    for prefix, count in (("train", 100), ("t10k", 100)):
        labels = np.array([i % 10 for i in range(count)], np.uint8)
        rng.shuffle(labels)
        images = np.stack([draw(int(d), rng) for d in labels])
        write_idx(os.path.join(OUT, f"{prefix}-images-idx3-ubyte.gz"), images)
        write_idx(os.path.join(OUT, f"{prefix}-labels-idx1-ubyte.gz"), labels)


if __name__ == "__main__":
    main()
