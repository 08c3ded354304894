"""DatasetFolder (root/class_x/xxx.png, labelled by folder) and ImageFolder (every image under root)."""
import os

import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from ..image import get_image_backend, open_image

__all__ = ["DatasetFolder", "ImageFolder"]

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_valid_extension(filename, extensions):
    assert isinstance(extensions, (list, tuple)), "`extensions` must be list or tuple."
    return filename.lower().endswith(tuple(x.lower() for x in extensions))


def _files(root, is_valid_file):
    for dirpath, _, fnames in sorted(os.walk(os.path.expanduser(root), followlinks=True)):
        for fname in sorted(fnames):
            path = os.path.join(dirpath, fname)
            if is_valid_file(path):
                yield path


def _validator(extensions, is_valid_file):
    if extensions is not None:
        return lambda path: has_valid_extension(path, extensions)
    return is_valid_file


def default_loader(path):
    """The image at path in RGB: a HWC uint8 array for the 'cv2' backend, else a PIL image."""
    image = open_image(path).convert("RGB")
    return np.asarray(image) if get_image_backend() == "cv2" else image


class DatasetFolder(Dataset):
    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root, self.transform = root, transform
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        classes = sorted(d.name for d in os.scandir(root) if d.is_dir())
        class_to_idx = {c: i for i, c in enumerate(classes)}
        valid = _validator(extensions, is_valid_file)
        samples = [(path, class_to_idx[c]) for c in classes for path in _files(os.path.join(root, c), valid)]
        if not samples:
            raise RuntimeError("Found 0 directories in subfolders of: " + root + "\n"
                               "Supported extensions are: " + ",".join(extensions or ()))
        self.loader = default_loader if loader is None else loader
        self.extensions, self.classes, self.class_to_idx = extensions, classes, class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]
        self.dtype = get_default_dtype()

    def __getitem__(self, index):
        path, target = self.samples[index]
        sample = self.loader(path)
        if self.transform is not None:
            sample = self.transform(sample)
        return sample, target

    def __len__(self):
        return len(self.samples)


class ImageFolder(Dataset):
    def __init__(self, root, loader=None, extensions=None, transform=None, is_valid_file=None):
        self.root = root
        if extensions is None and is_valid_file is None:
            extensions = IMG_EXTENSIONS
        samples = list(_files(root, _validator(extensions, is_valid_file)))
        if not samples:
            raise RuntimeError("Found 0 files in subfolders of: " + root + "\n"
                               "Supported extensions are: " + ",".join(extensions or ()))
        self.loader = default_loader if loader is None else loader
        self.extensions, self.samples, self.transform = extensions, samples, transform

    def __getitem__(self, index):
        sample = self.loader(self.samples[index])
        if self.transform is not None:
            sample = self.transform(sample)
        return [sample]

    def __len__(self):
        return len(self.samples)
