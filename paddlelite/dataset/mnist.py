"""paddle.dataset.mnist: MNIST's samples as (784 float32 pixels scaled to [-1, 1], int label)."""
from ..vision.datasets.mnist import read_idx
from ..utils import deprecated
from . import common

__all__ = []

URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
TEST_IMAGE_MD5 = "9fb629c4189551a2d022fa330f9573f3"
TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
TEST_LABEL_MD5 = "ec29112dd5afa0611ce80d1b7f02629c"
TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
TRAIN_IMAGE_MD5 = "f68b3c2dcbeaaa9fbdd348bbdeb94873"
TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
TRAIN_LABEL_MD5 = "d53e105ee54ea40749a09fcbcd1e9432"


def reader_creator(image_filename, label_filename, buffer_size):
    """A reader of the IDX files' (image, label) pairs; `buffer_size` is kept for Paddle's signature (its reader
    unpacks that many images at a time)."""
    def reader():
        images, labels = read_idx(image_filename), read_idx(label_filename)
        scaled = images.reshape(len(images), -1).astype("float32") / 255.0 * 2.0 - 1.0
        for image, label in zip(scaled, labels):
            yield image, int(label)

    return reader


@deprecated(since="2.0.0", update_to="paddle.vision.datasets.MNIST", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def train():
    return reader_creator(common.download(TRAIN_IMAGE_URL, "mnist", TRAIN_IMAGE_MD5),
                          common.download(TRAIN_LABEL_URL, "mnist", TRAIN_LABEL_MD5), 100)


@deprecated(since="2.0.0", update_to="paddle.vision.datasets.MNIST", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def test():
    return reader_creator(common.download(TEST_IMAGE_URL, "mnist", TEST_IMAGE_MD5),
                          common.download(TEST_LABEL_URL, "mnist", TEST_LABEL_MD5), 100)


def fetch():
    for url, md5 in ((TRAIN_IMAGE_URL, TRAIN_IMAGE_MD5), (TRAIN_LABEL_URL, TRAIN_LABEL_MD5),
                     (TEST_IMAGE_URL, TEST_IMAGE_MD5), (TEST_LABEL_URL, TEST_LABEL_MD5)):
        common.download(url, "mnist", md5)
