"""What a tutorial script runs before the tutorial's own code: the same start in every framework, and a record.

A converted tutorial (convert.py) begins with `harness.install(name)`. This module imports `paddle` -- whatever the
interpreter gives: paddlelite under `python -m paddlelite`, or real Paddle -- and makes the run comparable step by step
with another framework's, changing nothing the tutorial computes with:

* Data: the datasets the tutorial downloads are written as small synthetic files in Paddle's own formats (MNIST's
  IDX files, CIFAR-10's pickled batches, IMDB's review archive, a text corpus, a zip of sentence pairs), and the dataset
  classes (or paddle.utils.download, which finds the file already there) read those files
  (`data_file=`/`image_path=`: the class, its transform and its loader are the framework's own).
* The random start: NumPy's and Python's generators seeded (Paddle's samplers shuffle with NumPy); every parameter
  an optimizer is given is set, when the optimizer is created, to values drawn from a NumPy generator (uniform in
  Xavier's bound), except parameters whose initial values are all equal (zero biases, unit norm scales), which the
  frameworks already agree on; dropout masks and `paddle.randn` noise are drawn from NumPy generators too.
* The record: the value of every loss `Tensor.backward()` is called on, in order, written as JSON at exit to
  $PADDLE_TUTORIAL_LOSSES.
"""
import atexit
import gzip
import io
import json
import os
import pickle
import random
import tarfile
import zipfile

import numpy as np

LOSSES_VAR = "PADDLE_TUTORIAL_LOSSES"
_losses = []


def _xavier_bound(shape):
    if len(shape) < 2:
        return 0.1
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    if len(shape) == 2:  # Paddle's Linear weight is [in, out]
        fan_in, fan_out = shape
    else:  # a convolution's [out, in, k...]
        fan_in, fan_out = shape[1] * receptive, shape[0] * receptive
    return float(np.sqrt(6.0 / (fan_in + fan_out)))


def _set_initial_values(parameters, start):
    for index, param in enumerate(parameters, start):
        value = param.numpy()
        if value.size == 0 or np.all(value == value.flat[0]):
            continue
        draws = np.random.RandomState(index).uniform(-1.0, 1.0, value.shape) * _xavier_bound(value.shape)
        param.set_value(draws.astype(value.dtype))


def _flat_parameters(parameters):
    for entry in parameters or []:
        if isinstance(entry, dict):  # a parameter group
            yield from entry["params"]
        else:
            yield entry


def _patch_optimizer(paddle):
    original = paddle.optimizer.Optimizer.__init__
    created = [0]

    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        params = list(_flat_parameters(kwargs.get("parameters", args[1] if len(args) > 1 else None)))
        _set_initial_values(params, 1000 * created[0])
        created[0] += 1

    paddle.optimizer.Optimizer.__init__ = __init__


def _patch_dropout(paddle):
    functional = paddle.nn.functional
    original = functional.dropout
    masks = np.random.RandomState(12345)

    def dropout(x, p=0.5, axis=None, training=True, mode="upscale_in_train", name=None, **kwargs):
        if not training or p == 0 or axis is not None:
            return original(x, p=p, axis=axis, training=training, mode=mode, name=name, **kwargs)
        keep = (masks.uniform(size=tuple(x.shape)) >= p).astype("float32")
        if mode == "upscale_in_train":
            keep = keep / (1.0 - p) if p < 1 else keep * 0
        return x * paddle.to_tensor(keep, dtype=x.dtype)

    functional.dropout = dropout


def _patch_backward(paddle):
    original = paddle.Tensor.backward

    def backward(self, *args, **kwargs):
        if int(np.prod(self.shape)) == 1:
            _losses.append(float(self.astype("float32").numpy().reshape(-1)[0]))
        return original(self, *args, **kwargs)

    paddle.Tensor.backward = backward


def _write_losses():
    out = os.environ.get(LOSSES_VAR)
    if out:
        with open(out, "w") as f:
            json.dump(_losses, f)


# ---- synthetic data in the formats of the datasets the tutorials download ----

def _mnist_files(directory, mode, count):
    """IDX image and label files (gzip), as MNIST ships them."""
    rng = np.random.RandomState({"train": 1, "test": 2}[mode])
    images = rng.randint(0, 256, size=(count, 28, 28)).astype(np.uint8)
    labels = rng.randint(0, 10, size=count).astype(np.uint8)
    image_path = os.path.join(directory, f"{mode}-images-idx3-ubyte.gz")
    label_path = os.path.join(directory, f"{mode}-labels-idx1-ubyte.gz")
    with gzip.open(image_path, "wb") as f:
        f.write(np.array([2051, count, 28, 28], dtype=">i4").tobytes() + images.tobytes())
    with gzip.open(label_path, "wb") as f:
        f.write(np.array([2049, count], dtype=">i4").tobytes() + labels.tobytes())
    return image_path, label_path


def _cifar_file(directory, count, classes=10):
    """cifar-10-python.tar.gz (batches data_batch_1, test_batch; `labels`) or cifar-100-python.tar.gz (train, test;
    `fine_labels`): pickled batches of 3072-byte rows."""
    path = os.path.join(directory, f"cifar-{classes}-python.tar.gz")
    folder, names, key = ("cifar-10-batches-py", ("data_batch_1", "test_batch"), b"labels") if classes == 10 else \
        ("cifar-100-python", ("train", "test"), b"fine_labels")
    rng = np.random.RandomState(3)
    with tarfile.open(path, "w:gz") as tar:
        for name in names:
            batch = {b"data": rng.randint(0, 256, size=(count, 3072)).astype(np.uint8),
                     key: rng.randint(0, classes, size=count).tolist()}
            blob = pickle.dumps(batch, protocol=2)
            info = tarfile.TarInfo(f"{folder}/{name}")
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))
    return path


def _imdb_file(directory, count):
    """aclImdb_v1.tar.gz: `count` reviews per split and label, as text files, over a vocabulary small enough that
    every word passes the dataset's frequency cutoff (150)."""
    path = os.path.join(directory, "aclImdb_v1.tar.gz")
    rng = np.random.RandomState(6)
    words = [f"w{i}" for i in range(20)]
    with tarfile.open(path, "w:gz") as tar:
        for split in ("train", "test"):
            for label in ("pos", "neg"):
                for i in range(count):
                    review = " ".join(words[j] for j in rng.randint(0, len(words), rng.randint(20, 60)))
                    blob = (review.capitalize() + ".\n").encode()
                    info = tarfile.TarInfo(f"aclImdb/{split}/{label}/{i}_7.txt")
                    info.size = len(blob)
                    tar.addfile(info, io.BytesIO(blob))
    return path


def write_text(path, words, seed=4):
    """A corpus of `words` words over a small vocabulary, with punctuation (what the n-gram tutorial reads)."""
    rng = np.random.RandomState(seed)
    vocabulary = [f"w{i}" for i in range(40)] + ["the,", "and.", "king;", "queen!"]
    with open(path, "w") as f:
        f.write(" ".join(vocabulary[i] for i in rng.randint(0, len(vocabulary), size=words)))


def write_pairs(path, count, seed=5):
    """Tab-separated English/Chinese sentence pairs with an attribution column (the seq2seq tutorial's cmn.txt):
    English sentences start with a pronoun, both sides have fewer than 10 tokens."""
    rng = np.random.RandomState(seed)
    pronouns, words = ["i", "you", "he", "she", "we", "they"], [f"w{i}" for i in range(30)]
    characters = [chr(0x4E00 + i) for i in range(40)]
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(count):
            english = [pronouns[rng.randint(len(pronouns))]] + [words[i] for i in rng.randint(0, 30, rng.randint(1, 8))]
            chinese = "".join(characters[i] for i in rng.randint(0, 40, rng.randint(1, 9)))
            f.write(" ".join(english).capitalize() + ".\t" + chinese + "\tCC-BY 2.0\n")


def write_spa_eng(path, count, seed=8):
    """spa-eng.zip (the translation tutorial's download: spa-eng/spa.txt, tab-separated English/Spanish pairs, one
    per line), the sentences short, some of them questions with Spanish's opening mark."""
    rng = np.random.RandomState(seed)
    english, spanish = [f"e{i}" for i in range(30)], [f"s{i}" for i in range(40)]
    lines = []
    for _ in range(count):
        eng = " ".join(english[i] for i in rng.randint(0, 30, rng.randint(1, 8))).capitalize()
        spa = " ".join(spanish[i] for i in rng.randint(0, 40, rng.randint(1, 9))).capitalize()
        question = rng.rand() < 0.3
        lines.append(f"{eng}?\t¿{spa}?" if question else f"{eng}.\t{spa}.")
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("spa-eng/", "")
        archive.writestr("spa-eng/spa.txt", "\n".join(lines) + "\n")


def write_faces(directory, count, seed=7):
    """`count` JPEG photos of CelebA's aligned size (178 x 218) in `directory` (the DCGAN tutorial's
    img_align_celeba/, which it resizes and crops itself): smooth colour fields, so the crops stay varied after
    JPEG coding."""
    from PIL import Image

    os.makedirs(directory, exist_ok=True)
    rng = np.random.RandomState(seed)
    rows, cols = np.mgrid[0:218, 0:178] / 218.0
    for index in range(count):
        a, b, c = rng.uniform(0, 6, size=(3, 3))
        pixels = np.stack([np.sin(a[k] * rows + b[k] * cols + c[k]) for k in range(3)], axis=-1)
        Image.fromarray(((pixels + 1) * 127.5).astype(np.uint8)).save(os.path.join(directory, f"{index:06d}.jpg"))


def _patch_randn(paddle):
    """Normal noise (a GAN's generator input) from a NumPy generator, as the dropout masks."""
    original = paddle.randn
    draws = np.random.RandomState(54321)

    def randn(shape, dtype=None, name=None):
        sample = original(shape, dtype, name)
        return paddle.to_tensor(draws.standard_normal(sample.shape).astype(sample.numpy().dtype))

    paddle.randn = randn


def _patch_datasets(paddle, directory, sizes):
    datasets = paddle.vision.datasets
    mnist, cifar10, cifar100 = datasets.MNIST, datasets.Cifar10, datasets.Cifar100

    class MNIST(mnist):
        def __init__(self, image_path=None, label_path=None, mode="train", transform=None, download=True,
                     backend=None):
            image_path, label_path = _mnist_files(directory, mode, sizes[f"mnist_{mode}"])
            super().__init__(image_path, label_path, mode, transform, False, backend)

    class Cifar10(cifar10):
        def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None):
            super().__init__(_cifar_file(directory, sizes["cifar10"]), mode, transform, False, backend)

    class Cifar100(cifar100):
        def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None):
            super().__init__(_cifar_file(directory, sizes["cifar100"], 100), mode, transform, False, backend)

    datasets.MNIST = datasets.mnist.MNIST = MNIST  # tutorials name the classes both ways
    datasets.Cifar10 = datasets.cifar.Cifar10 = Cifar10
    datasets.Cifar100 = datasets.cifar.Cifar100 = Cifar100
    try:
        import paddle.text as text
    except ImportError:  # a framework without paddle.text: the tutorial stops where it uses it
        return
    imdb = text.datasets.Imdb

    class Imdb(imdb):
        def __init__(self, data_file=None, mode="train", cutoff=150, download=True):
            super().__init__(_imdb_file(directory, sizes["imdb"]), mode, cutoff, False)

    text.Imdb = text.datasets.Imdb = Imdb


def install(sizes):
    """Called first by a converted tutorial (see the module's docstring); `sizes`: synthetic dataset sizes."""
    import paddle

    np.random.seed(0)
    random.seed(0)
    paddle.seed(0)
    _patch_optimizer(paddle)
    _patch_dropout(paddle)
    _patch_randn(paddle)
    _patch_backward(paddle)
    _patch_datasets(paddle, os.getcwd(), sizes)
    atexit.register(_write_losses)
