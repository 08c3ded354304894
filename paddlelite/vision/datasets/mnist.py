"""MNIST and Fashion-MNIST from their idx-ubyte.gz files."""
import gzip

import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from ._common import check_backend, local_file, to_pil

__all__ = ["MNIST", "FashionMNIST"]


def read_idx(path):
    """The array in an IDX file (gzipped or not): big-endian dims after a magic number giving the rank."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if data[:2] != b"\x00\x00" or data[2] != 0x08:
        raise ValueError(f"{path} is not an IDX file of unsigned bytes")
    rank = data[3]
    dims = np.frombuffer(data, ">u4", count=rank, offset=4)
    return np.frombuffer(data, np.uint8, offset=4 + 4 * rank).reshape(tuple(int(d) for d in dims))


class MNIST(Dataset):
    """(image, label) pairs: a 28x28 PIL image (backend 'pil') or float32 array ('cv2'), and an int64 [label]."""
    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"

    def __init__(self, image_path=None, label_path=None, mode="train", transform=None, download=True, backend=None):
        assert mode.lower() in ["train", "test"], f"mode should be 'train' or 'test', but got {mode}"
        self.backend = check_backend(backend)
        self.mode = mode.lower()
        prefix = "train" if self.mode == "train" else "t10k"
        name = type(self).__name__
        self.image_path = local_file(image_path, f"{self.URL_PREFIX}{prefix}-images-idx3-ubyte.gz", name,
                                     "image_path", download)
        self.label_path = local_file(label_path, f"{self.URL_PREFIX}{prefix}-labels-idx1-ubyte.gz", name,
                                     "label_path", download)
        self.transform = transform
        images, labels = read_idx(self.image_path), read_idx(self.label_path)
        if len(images) != len(labels):
            raise ValueError(f"paddle.vision.datasets.{name}: {len(images)} images but {len(labels)} labels")
        self.images = [image.reshape(-1).astype("float32") for image in images]
        self.labels = [np.array([label]).astype("int64") for label in labels]
        self.dtype = get_default_dtype()

    def __getitem__(self, idx):
        image, label = np.reshape(self.images[idx], [28, 28]), self.labels[idx]
        if self.backend == "pil":
            image = to_pil(image, "L")
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(self.dtype), label.astype("int64")

    def __len__(self):
        return len(self.labels)


class FashionMNIST(MNIST):
    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
