"""paddle.vision.datasets against real Paddle 3.3.1 on small files in the standard formats (built here, or the
repo's MNIST sample), and the errors for missing files (paddlelite never downloads)."""
import io
import os
import pickle
import tarfile

import numpy as np
import pytest

from tests.differential import differential, raises

import paddlelite.vision.datasets  # noqa: E402

SAMPLE = os.path.join(os.path.dirname(paddlelite.vision.datasets.__file__), "data")


def _sample(prefix, kind):
    return os.path.join(SAMPLE, f"{prefix}-{kind}-idx{3 if kind == 'images' else 1}-ubyte.gz")


def _items(dataset, indices, as_array=np.asarray):
    return [[as_array(x) for x in dataset[i]] for i in indices] + [len(dataset)]


@pytest.mark.parametrize("mode,prefix", [("train", "train"), ("test", "t10k")])
@pytest.mark.parametrize("backend", ["cv2", "pil"])
def test_mnist_sample(mode, prefix, backend):
    if backend == "pil":
        pytest.importorskip("PIL")

    def body(paddle):
        for cls in (paddle.vision.datasets.MNIST, paddle.vision.datasets.FashionMNIST):
            data = cls(image_path=_sample(prefix, "images"), label_path=_sample(prefix, "labels"), mode=mode,
                       backend=backend)
            yield _items(data, [0, 7, 99])
    differential()(lambda paddle: list(body(paddle)))()


def test_mnist_sample_is_learnable_digits():
    import paddlelite as paddle
    data = paddle.vision.datasets.MNIST(image_path=_sample("train", "images"), label_path=_sample("train", "labels"),
                                        backend="cv2")
    labels = sorted(int(data[i][1][0]) for i in range(len(data)))
    assert labels == sorted(list(range(10)) * 10)
    assert data[0][0].shape == (28, 28) and data[0][0].dtype == np.float32 and data[0][0].max() > 150


@pytest.fixture(scope="module")
def cifar_files(tmp_path_factory):
    root = tmp_path_factory.mktemp("cifar")
    rng = np.random.RandomState(0)

    def archive(name, members):
        path = str(root / name)
        with tarfile.open(path, "w:gz") as tar:
            for member, batch in members.items():
                blob = pickle.dumps(batch)
                info = tarfile.TarInfo(member)
                info.size = len(blob)
                tar.addfile(info, io.BytesIO(blob))
        return path

    def batch(n, key):
        return {b"data": rng.randint(0, 256, (n, 3072)).astype(np.uint8), key: list(rng.randint(0, 10, n))}

    return {"10": archive("cifar-10-python.tar.gz", {"cifar-10-batches-py/data_batch_1": batch(3, b"labels"),
                                                     "cifar-10-batches-py/data_batch_2": batch(2, b"labels"),
                                                     "cifar-10-batches-py/test_batch": batch(2, b"labels")}),
            "100": archive("cifar-100-python.tar.gz", {"cifar-100-python/train": batch(4, b"fine_labels"),
                                                       "cifar-100-python/test": batch(3, b"fine_labels")})}


@pytest.mark.parametrize("mode", ["train", "test"])
def test_cifar(cifar_files, mode):
    pytest.importorskip("PIL")

    def body(paddle):
        out = []
        for cls, key in ((paddle.vision.datasets.Cifar10, "10"), (paddle.vision.datasets.Cifar100, "100")):
            for backend in ("cv2", "pil"):
                out.append(_items(cls(data_file=cifar_files[key], mode=mode, backend=backend), [0, 1]))
        return out
    differential()(body)()


@pytest.fixture(scope="module")
def image_tree(tmp_path_factory):
    Image = pytest.importorskip("PIL.Image")
    root = tmp_path_factory.mktemp("folder")
    rng = np.random.RandomState(1)
    for cls, names in {"cat": ["a.png", "b.jpg", "notes.txt"], "dog": ["c.png"], "empty": []}.items():
        os.makedirs(root / cls)
        for name in names:
            if name.endswith(".txt"):
                (root / cls / name).write_text("not an image")
            else:
                Image.fromarray(rng.randint(0, 256, (5, 6, 3)).astype(np.uint8)).save(root / cls / name)
    return str(root)


def test_dataset_folders(image_tree):
    def body(paddle):
        folder = paddle.vision.datasets.DatasetFolder(image_tree)
        images = paddle.vision.datasets.ImageFolder(image_tree)
        return {"classes": folder.classes, "class_to_idx": folder.class_to_idx, "targets": folder.targets,
                "samples": [os.path.relpath(p, image_tree) for p, _ in folder.samples],
                "items": [[np.asarray(folder[i][0]), folder[i][1]] for i in range(len(folder))],
                "images": [os.path.relpath(p, image_tree) for p in images.samples],
                "first": np.asarray(images[0][0]), "len": len(images)}
    differential()(body)()


def test_voc2012(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    rng = np.random.RandomState(2)
    path = str(tmp_path / "VOCtrainval_11-May-2012.tar")
    with tarfile.open(path, "w") as tar:
        def add(name, blob):
            info = tarfile.TarInfo(name)
            info.size = len(blob)
            tar.addfile(info, io.BytesIO(blob))
        for split, names in {"trainval": ["x1", "x2"], "train": ["x1"], "val": ["x2"]}.items():
            add(f"VOCdevkit/VOC2012/ImageSets/Segmentation/{split}.txt", ("\n".join(names) + "\n").encode())
        for name in ["x1", "x2"]:
            for folder, ext, mode in (("JPEGImages", "jpg", "RGB"), ("SegmentationClass", "png", "L")):
                buf = io.BytesIO()
                shape = (4, 5, 3) if mode == "RGB" else (4, 5)
                Image.fromarray(rng.randint(0, 21, shape).astype(np.uint8), mode).save(buf, format=ext.replace(
                    "jpg", "jpeg"))
                add(f"VOCdevkit/VOC2012/{folder}/{name}.{ext}", buf.getvalue())

    def body(paddle):
        return [_items(paddle.vision.datasets.VOC2012(data_file=path, mode=mode, backend=backend), [0])
                for mode in ("train", "test", "valid") for backend in ("cv2", "pil")]
    differential()(body)()


def test_flowers(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    scio = pytest.importorskip("scipy.io")
    rng = np.random.RandomState(3)
    data_file = str(tmp_path / "102flowers.tgz")
    with tarfile.open(data_file, "w:gz") as tar:
        for index in (1, 2, 3):
            buf = io.BytesIO()
            Image.fromarray(rng.randint(0, 256, (6, 7, 3)).astype(np.uint8)).save(buf, format="jpeg")
            info = tarfile.TarInfo(f"jpg/image_{index:05}.jpg")
            info.size = len(buf.getvalue())
            tar.addfile(info, io.BytesIO(buf.getvalue()))
    scio.savemat(str(tmp_path / "imagelabels.mat"), {"labels": np.array([[5, 7, 9]])})
    scio.savemat(str(tmp_path / "setid.mat"), {"tstid": np.array([[1, 3]]), "trnid": np.array([[2]]),
                                               "valid": np.array([[3]])})

    def body(paddle):
        return [_items(paddle.vision.datasets.Flowers(data_file, str(tmp_path / "imagelabels.mat"),
                                                      str(tmp_path / "setid.mat"), mode=mode, backend=backend), [0])
                for mode in ("train", "test", "valid") for backend in ("cv2", "pil")]
    differential()(body)()


def test_missing_files_are_clear_errors():
    import paddlelite as paddle
    with pytest.raises(ValueError, match=r"MNIST: image_path is not set and paddlelite does not download"):
        paddle.vision.datasets.MNIST(backend="cv2")
    with pytest.raises(ValueError, match=r"Cifar10: data_file='/nonexistent.tar.gz' does not exist"):
        paddle.vision.datasets.Cifar10(data_file="/nonexistent.tar.gz")


@differential(expected=raises(AssertionError))
def test_no_path_and_no_download(paddle):
    paddle.vision.datasets.Cifar100(download=False)


@differential(expected=raises(ValueError))
def test_bad_backend(paddle):
    paddle.vision.datasets.MNIST(image_path=_sample("train", "images"), label_path=_sample("train", "labels"),
                                 backend="opencv")


def test_image_backend_and_load(image_tree):
    import paddlelite as paddle
    from PIL import Image
    path = os.path.join(image_tree, "cat", "a.png")
    rgb = np.asarray(Image.open(path).convert("RGB"))
    assert paddle.vision.get_image_backend() == "pil"
    assert isinstance(paddle.vision.image_load(path), Image.Image)
    np.testing.assert_array_equal(paddle.vision.image_load(path, "cv2"), rgb[..., ::-1])  # OpenCV's BGR
    np.testing.assert_array_equal(paddle.vision.image_load(path, "tensor").numpy(), rgb)
    paddle.vision.set_image_backend("cv2")
    try:
        np.testing.assert_array_equal(paddle.vision.datasets.DatasetFolder(image_tree)[0][0], rgb)
    finally:
        paddle.vision.set_image_backend("pil")
    with pytest.raises(ValueError, match="Expected backend are one of"):
        paddle.vision.set_image_backend("opencv")
