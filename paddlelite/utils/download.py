"""paddle.utils.download: a file named by a URL, found under a local directory and unpacked there.

paddlelite does not download (the project runs without network access, as its datasets do): `get_path_from_url`
uses the file when it is already at root_dir/<the URL's file name> (with the given MD5) and otherwise raises, naming
the URL and where to put the file. Zip and tar archives are unpacked next to the file as Paddle unpacks them, and the
path returned is Paddle's: the single file or top directory they hold, or a directory named after the archive.
Archives are untrusted: members are extracted only inside that directory (no absolute paths, no '..', no links or
device files).
"""
import hashlib
import os
import tarfile
import zipfile

__all__ = ["get_weights_path_from_url"]

WEIGHTS_HOME = os.path.expanduser(os.path.join("~", ".cache", "paddle", "hapi", "weights"))


def is_url(path):
    """Whether `path` is an http(s) URL."""
    return path.startswith("http://") or path.startswith("https://")


def _map_path(url, root_dir):
    return os.path.join(root_dir, os.path.split(url)[-1])


def _get_unique_endpoints(trainer_endpoints):
    """One endpoint per host (the first in sorted order): the processes that download for their machine."""
    trainer_endpoints.sort()
    hosts, unique = set(), set()
    for endpoint in trainer_endpoints:
        host = endpoint.split(":")[0]
        if host not in hosts:
            hosts.add(host)
            unique.add(endpoint)
    return unique


def _md5check(fullname, md5sum=None):
    if md5sum is None:
        return True
    md5 = hashlib.md5()
    with open(fullname, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            md5.update(chunk)
    return md5.hexdigest() == md5sum


def get_path_from_url(url, root_dir, md5sum=None, check_exist=True, decompress=True, method="get"):
    """root_dir/<the URL's file name> (unpacked when it is a zip or tar archive and `decompress`), which must be
    there already: paddlelite does not download."""
    if not is_url(url):
        raise AssertionError(f"downloading from {url} not a url")
    if method not in ("get", "wget"):
        raise AssertionError(f"make sure `{method}` implemented")
    fullpath = _map_path(url, root_dir)
    if not (os.path.exists(fullpath) and check_exist and _md5check(fullpath, md5sum)):
        found = "has a different MD5 than " + md5sum if os.path.exists(fullpath) and md5sum else "does not exist"
        raise RuntimeError(f"paddle.utils.download.get_path_from_url: {fullpath} {found}, and paddlelite does not "
                           f"download (no network access); fetch {url} yourself into {root_dir}")
    if decompress and os.path.isfile(fullpath) and (tarfile.is_tarfile(fullpath) or zipfile.is_zipfile(fullpath)):
        fullpath = _decompress(fullpath)
    return fullpath


def get_weights_path_from_url(url, md5sum=None):
    """get_path_from_url under WEIGHTS_HOME (~/.cache/paddle/hapi/weights)."""
    return get_path_from_url(url, WEIGHTS_HOME, md5sum)


def _decompress(fname):
    """Unpack a zip or tar archive next to it; the path of what it held (see the module's docstring)."""
    if tarfile.is_tarfile(fname):
        with tarfile.open(fname, "r:*") as archive:
            return _unpack(fname, archive.getnames(), lambda where: archive.extractall(where, filter="data"))
    if zipfile.is_zipfile(fname):
        with zipfile.ZipFile(fname, "r") as archive:  # ZipFile.extractall drops absolute and '..' components
            return _unpack(fname, [n.replace("../", "") for n in archive.namelist()], archive.extractall)
    raise TypeError(f"Unsupported compress file type {fname}")


def _unpack(fname, names, extract):
    directory = os.path.dirname(fname)
    if not names:
        raise ValueError(f"paddle.utils.download: {fname} is an empty archive")
    tops = {n.replace("\\", "/").split("/")[0] for n in names}
    if len(names) == 1 and "/" not in names[0]:  # a single file
        extract(directory)
        return os.path.join(directory, names[0])
    if len(tops) == 1:  # everything under one directory
        extract(directory)
        return os.path.join(directory, os.path.splitext(names[0].strip("/"))[0].split("/")[-1])
    target = os.path.join(directory, os.path.splitext(os.path.basename(fname))[0])
    os.makedirs(target, exist_ok=True)
    extract(target)
    return target
