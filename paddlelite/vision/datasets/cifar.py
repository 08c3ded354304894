"""CIFAR-10 and CIFAR-100 from their python-version tar.gz archives."""
import pickle
import tarfile

import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from ._common import check_backend, local_file, to_pil

__all__ = ["Cifar10", "Cifar100"]

_URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"


def read_batches(path, flag, ordered):
    """(row of 3072 uint8, label) of every batch in the archive whose member name contains `flag`, the members in
    name order when `ordered` (else as stored)."""
    with tarfile.open(path, mode="r") as f:
        names = [m.name for m in f if flag in m.name]
        for name in sorted(names) if ordered else names:
            # the archive's batches are pickles of plain dicts, lists and byte arrays
            batch = pickle.load(f.extractfile(name), encoding="bytes")
            labels = batch.get(b"labels", batch.get(b"fine_labels", None))
            assert labels is not None
            yield from zip(batch[b"data"], labels)


class Cifar10(Dataset):
    """(image, label): a 32x32x3 PIL image ('pil') or float32 HWC array ('cv2'), and an int64 label."""
    _URL = _URL_PREFIX + "cifar-10-python.tar.gz"
    _FLAGS = {"train": "data_batch", "test": "test_batch"}

    def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None):
        assert mode.lower() in ["train", "test"], f"mode.lower() should be 'train' or 'test', but got {mode}"
        self.mode = mode.lower()
        self.backend = check_backend(backend)
        self.flag = self._FLAGS[self.mode]
        self.data_file = local_file(data_file, self._URL, type(self).__name__, "data_file", download)
        self.transform = transform
        self._load_data()
        self.dtype = get_default_dtype()

    def _load_data(self):
        self.data = list(read_batches(self.data_file, self.flag, ordered=True))

    def __getitem__(self, idx):
        image, label = self.data[idx]
        image = np.reshape(image, [3, 32, 32]).transpose([1, 2, 0])
        if self.backend == "pil":
            image = to_pil(image)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, np.array(label).astype("int64")
        return image.astype(self.dtype), np.array(label).astype("int64")

    def __len__(self):
        return len(self.data)


class Cifar100(Cifar10):
    _URL = _URL_PREFIX + "cifar-100-python.tar.gz"
    _FLAGS = {"train": "train", "test": "test"}
