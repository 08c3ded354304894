"""PASCAL VOC 2012 segmentation: (image, class map) pairs read straight from the trainval .tar archive."""
import io
import tarfile

import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from ..image import open_image
from ._common import check_backend, local_file

__all__ = ["VOC2012"]

_URL = "https://dataset.bj.bcebos.com/voc/VOCtrainval_11-May-2012.tar"
SET_FILE = "VOCdevkit/VOC2012/ImageSets/Segmentation/{}.txt"
DATA_FILE = "VOCdevkit/VOC2012/JPEGImages/{}.jpg"
LABEL_FILE = "VOCdevkit/VOC2012/SegmentationClass/{}.png"
# as in Paddle: 'train' reads the trainval list and 'test' the train list
_FLAGS = {"train": "trainval", "test": "train", "valid": "val"}


class VOC2012(Dataset):
    def __init__(self, data_file=None, mode="train", transform=None, download=True, backend=None):
        assert mode.lower() in ["train", "valid", "test"], \
            f"mode should be 'train', 'valid' or 'test', but got {mode}"
        self.backend = check_backend(backend)
        self.flag = _FLAGS[mode.lower()]
        self.data_tar = None
        self.data_file = local_file(data_file, _URL, "VOC2012", "data_file", download)
        self.transform = transform
        self.data_tar = tarfile.open(self.data_file)
        self.name2mem = {member.name: member for member in self.data_tar.getmembers()}
        names = [line.strip().decode("utf-8")
                 for line in self.data_tar.extractfile(self.name2mem[SET_FILE.format(self.flag)]) if line.strip()]
        self.data = [DATA_FILE.format(n) for n in names]
        self.labels = [LABEL_FILE.format(n) for n in names]
        self.dtype = get_default_dtype()

    def _read(self, name):
        return open_image(io.BytesIO(self.data_tar.extractfile(self.name2mem[name]).read()))

    def __getitem__(self, idx):
        data, label = self._read(self.data[idx]), self._read(self.labels[idx])
        if self.backend == "cv2":
            data, label = np.array(data), np.array(label)
        if self.transform is not None:
            data = self.transform(data)
        if self.backend == "cv2":
            return data.astype(self.dtype), label.astype(self.dtype)
        return data, label

    def __len__(self):
        return len(self.data)

    def __del__(self):
        if getattr(self, "data_tar", None):
            self.data_tar.close()
