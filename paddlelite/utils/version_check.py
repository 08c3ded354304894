"""paddle.utils.require_version (Paddle's base.framework.require_version): a script's check that the Paddle API
it runs on (3.3.1 here: paddle.version) lies in [min_version, max_version]."""
import re

from .. import version as _version

_FORMAT = re.compile(r"\d+(\.\d+){0,3}")


def _as_four(text):
    parts = text.split(".")
    return [int(p) for p in parts + ["0"] * (4 - len(parts))]


def require_version(min_version, max_version=None):
    """Exception('VersionError: ...') unless paddle.version lies in [min_version, max_version]."""
    if not isinstance(min_version, str):
        raise TypeError(f"The type of 'min_version' in require_version must be str, but received {type(min_version)}.")
    if not isinstance(max_version, (str, type(None))):
        raise TypeError("The type of 'max_version' in require_version must be str or type(None), but received "
                        f"{type(max_version)}.")
    for name, value in (("min_version", min_version), ("max_version", max_version)):
        if value is not None and not _FORMAT.fullmatch(value):
            raise ValueError(f"The value of '{name}' in require_version must be in format '\\d+(\\.\\d+){{0,3}}', like "
                             f"'1.5.2.0', but received {value}")
    installed = [int(_version.major), int(_version.minor), int(_version.patch), int(_version.rc)]
    full = _version.full_version
    if max_version is not None:
        if installed > _as_four(max_version) or installed < _as_four(min_version):
            raise Exception(f"VersionError: PaddlePaddle version in [{min_version}, {max_version}] required, but {full} "
                            "installed.")
    elif installed < _as_four(min_version):
        raise Exception(f"VersionError: PaddlePaddle version {min_version} or higher is required, but {full} "
                        f"installed, please upgrade your PaddlePaddle to {min_version} or other higher version.")
