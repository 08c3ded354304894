"""Oxford 102 Flowers: the images' .tgz archive plus the labels' and split's .mat files (read with SciPy)."""
import os
import tarfile

import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from ..image import open_image
from ._common import check_backend, local_file

__all__ = ["Flowers"]

_URL = "http://paddlemodels.bj.bcebos.com/flowers/"
# as in Paddle: 'train' reads the (larger) test split's ids and 'test' the train split's
_FLAGS = {"train": "tstid", "test": "trnid", "valid": "valid"}


class Flowers(Dataset):
    def __init__(self, data_file=None, label_file=None, setid_file=None, mode="train", transform=None, download=True,
                 backend=None):
        assert mode.lower() in ["train", "valid", "test"], \
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        self.backend = check_backend(backend)
        flag = _FLAGS[mode.lower()]
        data_file = local_file(data_file or None, _URL + "102flowers.tgz", "Flowers", "data_file", download)
        label_file = local_file(label_file or None, _URL + "imagelabels.mat", "Flowers", "label_file", download)
        setid_file = local_file(setid_file or None, _URL + "setid.mat", "Flowers", "setid_file", download)
        self.transform = transform
        self.data_path = data_file.replace(".tgz", "/")
        if not os.path.exists(os.path.join(self.data_path, "jpg")):
            os.makedirs(self.data_path, exist_ok=True)
            with tarfile.open(data_file) as archive:
                archive.extractall(self.data_path, filter="data")
        try:
            from scipy import io as scio
        except ImportError as error:
            raise ImportError("paddle.vision.datasets.Flowers reads the .mat label files with SciPy "
                              "(pip install scipy)") from error
        self.labels = scio.loadmat(label_file)["labels"][0]
        self.indexes = scio.loadmat(setid_file)[flag][0]

    def __getitem__(self, idx):
        index = self.indexes[idx]
        label = np.array([self.labels[index - 1]])
        image = open_image(os.path.join(self.data_path, f"jpg/image_{index:05}.jpg"))
        if self.backend == "cv2":
            image = np.array(image)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label.astype("int64")
        return image.astype(get_default_dtype()), label.astype("int64")

    def __len__(self):
        return len(self.indexes)
