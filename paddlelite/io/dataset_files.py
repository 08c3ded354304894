"""Where the datasets of paddle.vision, paddle.text and paddle.audio find their files: local paths only
(paddlelite never downloads; the error names the file to fetch)."""
import os


def local_file(path, url, api, what, download):
    """`path` when it names an existing file; otherwise a clear error naming `api` (the dataset class's public
    name), the argument `what` and the `url` Paddle would download."""
    if path is None:
        assert download, f"{what} is not set and downloading automatically is disabled"
        raise ValueError(f"{api}: {what} is not set and paddlelite does not download (no network access); fetch "
                         f"{url} yourself and pass {what}='<local path>'")
    if not os.path.exists(path):
        raise ValueError(f"{api}: {what}={path!r} does not exist (paddlelite does not download; the file is {url})")
    return path


def data_home():
    """Where Paddle keeps (and paddlelite looks for) unpacked datasets: ~/.cache/paddle/dataset."""
    return os.path.expanduser(os.path.join("~", ".cache", "paddle", "dataset"))


def unpacked_dir(path, url, api):
    """`path` (a directory under data_home()) when it exists; otherwise an error saying where to unpack `url`."""
    if not os.path.isdir(path):
        raise ValueError(f"{api}: {path} does not exist and paddlelite does not download (no network access); fetch "
                         f"{url} yourself and unpack it in {data_home()}")
    return path
