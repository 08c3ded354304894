"""paddle.dataset.cifar: CIFAR-10/100's samples as (3072 float32 values in [0, 1], int label)."""
from ..vision.datasets.cifar import read_batches
from ..utils import deprecated
from . import common

__all__ = []

URL_PREFIX = "https://dataset.bj.bcebos.com/cifar/"
CIFAR10_URL = URL_PREFIX + "cifar-10-python.tar.gz"
CIFAR10_MD5 = "c58f30108f718f92721af3b95e74349a"
CIFAR100_URL = URL_PREFIX + "cifar-100-python.tar.gz"
CIFAR100_MD5 = "eb9058c3a382ffc7106e4002c42a8d85"


def reader_creator(filename, sub_name, cycle=False):
    """A reader of the archive's batches whose names contain `sub_name`, in the archive's order; `cycle` repeats
    them forever."""
    def reader():
        while True:
            for row, label in read_batches(filename, sub_name, ordered=False):
                yield (row / 255.0).astype("float32"), int(label)
            if not cycle:
                break

    return reader


@deprecated(since="2.0.0", update_to="paddle.vision.datasets.Cifar100", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def train100():
    return reader_creator(common.download(CIFAR100_URL, "cifar", CIFAR100_MD5), "train")


@deprecated(since="2.0.0", update_to="paddle.vision.datasets.Cifar100", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def test100():
    return reader_creator(common.download(CIFAR100_URL, "cifar", CIFAR100_MD5), "test")


@deprecated(since="2.0.0", update_to="paddle.vision.datasets.Cifar10", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def train10(cycle=False):
    return reader_creator(common.download(CIFAR10_URL, "cifar", CIFAR10_MD5), "data_batch", cycle=cycle)


@deprecated(since="2.0.0", update_to="paddle.vision.datasets.Cifar10", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def test10(cycle=False):
    return reader_creator(common.download(CIFAR10_URL, "cifar", CIFAR10_MD5), "test_batch", cycle=cycle)


def fetch():
    common.download(CIFAR10_URL, "cifar", CIFAR10_MD5)
    common.download(CIFAR100_URL, "cifar", CIFAR100_MD5)
