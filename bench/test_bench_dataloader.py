"""DataLoader worker processes: one epoch's wall time against num_workers, with PyTorch's DataLoader
(same dataset, same workers) as the peer.

* io: 40 samples that each wait 20 ms (time.sleep: a disk or network read), batch 2 -> ~N x faster
  with N workers (the waits overlap; 0 workers take 40 x 20 ms = 0.8 s, 8 workers at best 3 rounds of
  40 ms).
* cpu: 32 samples that each run a NumPy augmentation of a 3x128x128 image (flips, a 5-tap blur,
  normalisation, noise), batch 8 -> scales with the cores (2 on the CI machine).

Run: pytest bench/test_bench_dataloader.py --benchmark-only --benchmark-group-by=group
"""
import time

import numpy as np
import pytest

from paddlelite import io

IO_SAMPLES, IO_WAIT_S, IO_BATCH = 40, 0.02, 2
CPU_SAMPLES, CPU_BATCH = 32, 8


def _augment(i):
    rng = np.random.default_rng(i)
    img = rng.random((3, 128, 128))
    for _ in range(12):
        img = img[:, ::-1, :] if rng.random() < 0.5 else img[:, :, ::-1]
        img = (img + np.roll(img, 1, 1) + np.roll(img, -1, 1) + np.roll(img, 2, 2) + np.roll(img, -2, 2)) / 5.0
        img = (img - img.mean(axis=(1, 2), keepdims=True)) / (img.std(axis=(1, 2), keepdims=True) + 1e-6)
        img = img + 0.01 * rng.standard_normal(img.shape)
    return img.astype(np.float32)


def _datasets(base):
    class Waits(base):
        def __getitem__(self, i):
            time.sleep(IO_WAIT_S)
            return np.full(8, i, np.float32)

        def __len__(self):
            return IO_SAMPLES

    class Augments(base):
        def __getitem__(self, i):
            return _augment(i)

        def __len__(self):
            return CPU_SAMPLES
    return {"io": (Waits(), IO_BATCH), "cpu": (Augments(), CPU_BATCH)}


def _epoch(loader):
    return sum(1 for _ in loader)


@pytest.mark.parametrize("workers", [0, 1, 2, 4, 8])
@pytest.mark.parametrize("kind", ["io", "cpu"])
def test_paddlelite_epoch(benchmark, kind, workers):
    if kind == "cpu" and workers > 2:
        pytest.skip("2 cores: more CPU-bound workers than cores only add contention")
    dataset, batch = _datasets(io.Dataset)[kind]
    benchmark.group = f"dataloader-{kind}-{workers}workers"
    loader = io.DataLoader(dataset, batch_size=batch, num_workers=workers)
    assert benchmark.pedantic(_epoch, args=(loader,), rounds=5, iterations=1) == len(loader)


@pytest.mark.parametrize("workers", [0, 1, 2, 4, 8])
@pytest.mark.parametrize("kind", ["io", "cpu"])
def test_torch_epoch(benchmark, kind, workers):
    torch = pytest.importorskip("torch")
    if kind == "cpu" and workers > 2:
        pytest.skip("2 cores: more CPU-bound workers than cores only add contention")
    dataset, batch = _datasets(torch.utils.data.Dataset)[kind]
    benchmark.group = f"dataloader-{kind}-{workers}workers"
    loader = torch.utils.data.DataLoader(dataset, batch_size=batch, num_workers=workers)
    assert benchmark.pedantic(_epoch, args=(loader,), rounds=5, iterations=1) == len(loader)
