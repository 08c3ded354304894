"""The CUDA emulation loads the libraries it builds, so its cache must be private to the user."""
import os
import stat
import tempfile

import pytest

from tests.cuda_emu import emu


def test_cache_dir_is_under_the_user_cache_and_private(tmp_path, monkeypatch):
    assert not emu.CACHE_DIR.startswith(tempfile.gettempdir())
    path = emu.private_cache_dir(str(tmp_path / "cache" / "cuda_emu"))
    assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0


def test_a_group_or_world_writable_cache_is_refused(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    with pytest.raises(RuntimeError, match="not private"):
        emu.private_cache_dir(str(shared))
