"""Where paddle.dataset's readers find their files (DATA_HOME/<module>/<file>), checked by MD5 as Paddle checks
them, and Paddle's helpers to split a reader into pickle files and read them back per trainer."""
import glob
import hashlib
import os
import pickle
import re

from ..io.dataset_files import data_home

__all__ = []

DATA_HOME = data_home()


def must_mkdirs(path):
    os.makedirs(path, exist_ok=True)


def md5file(fname):
    digest = hashlib.md5()
    with open(fname, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def download(url, module_name, md5sum, save_name=None):
    """DATA_HOME/module_name/<the url's file name, or save_name> when it is there with MD5 `md5sum`. Paddle downloads
    it otherwise; paddlelite has no network access and raises RuntimeError (Paddle's class when downloading fails)
    saying where to put the file."""
    if not re.fullmatch(r"[a-zA-Z0-9_/\-]+", module_name):
        raise ValueError(f"paddle.dataset.common.download: module_name must be letters, digits, '_', '/' or '-', "
                         f"received {module_name!r}")
    if save_name is not None and not re.fullmatch(r"(?:(?!\.\.)[a-zA-Z0-9_/.\-])+", save_name):
        raise ValueError(f"paddle.dataset.common.download: save_name must be a relative file name without '..', "
                         f"received {save_name!r}")
    filename = os.path.join(DATA_HOME, module_name, save_name or url.split("/")[-1])
    if os.path.exists(filename) and md5file(filename) == md5sum:
        return filename
    found = f"it holds MD5 {md5file(filename)}" if os.path.exists(filename) else "it does not exist"
    raise RuntimeError(f"Cannot download {url}: paddlelite does not download (no network access); put the file at "
                       f"{filename} (MD5 {md5sum}; {found})")


def _check_exists_and_download(path, url, md5, module_name, download=True):
    if path and os.path.exists(path):
        return path
    if download:
        return globals()["download"](url, module_name, md5)
    raise ValueError(f"{path} not exists and auto download disabled")


def fetch_all():
    """Every module's fetch(): the files are checked (paddlelite does not download them)."""
    from . import cifar, mnist, uci_housing
    for module in (cifar, mnist, uci_housing):
        module.fetch()


def split(reader, line_count, suffix="%05d.pickle", dumper=pickle.dump):
    """The reader's samples pickled into files `suffix % 0`, `suffix % 1`, ...: the first holds samples 0..line_count,
    each next one line_count more (Paddle's grouping)."""
    if not callable(dumper):
        raise TypeError("dumper should be callable.")
    lines, index = [], 0
    for i, sample in enumerate(reader()):
        lines.append(sample)
        if i >= line_count and i % line_count == 0:
            with open(suffix % index, "wb") as f:
                dumper(lines, f)
            lines, index = [], index + 1
    if lines:
        with open(suffix % index, "wb") as f:
            dumper(lines, f)


def cluster_files_reader(files_pattern, trainer_count, trainer_id, loader=pickle.load):
    """A reader of the samples in the files matching `files_pattern` (sorted) that fall to `trainer_id`: every
    trainer_count-th file from its id on. `loader` reads a file's list of samples; pickle.load reads what `split`
    wrote -- only use it on files you wrote yourself (unpickling runs code the file names)."""
    def reader():
        if not callable(loader):
            raise TypeError("loader should be callable.")
        mine = [fn for index, fn in enumerate(sorted(glob.glob(files_pattern))) if index % trainer_count == trainer_id]
        for fn in mine:
            print(f"append file: {fn}")
        for fn in mine:
            with open(fn, "rb") as f:
                yield from loader(f)

    return reader
