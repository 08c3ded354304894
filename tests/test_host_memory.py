"""Host memory kept for reuse (device/host_memory.py): a large freed block serves the next allocation without
faulting its pages in again."""
import os
import subprocess
import sys

import pytest

resource = pytest.importorskip("resource")

from paddlelite.device import host_memory  # noqa: E402

_FAULTS = """
import resource, sys
import numpy as np
if sys.argv[1] == "paddlelite":
    import paddlelite
n = 64 << 20  # above glibc's largest default mmap threshold (32 MiB): without the settings, mmapped anew
np.full(n, 1, np.uint8)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
np.full(n, 2, np.uint8)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _faults(importing):
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_") and k != "GLIBC_TUNABLES"}
    out = subprocess.run([sys.executable, "-c", _FAULTS, importing], capture_output=True, text=True, env=env,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))), check=True)
    return int(out.stdout)


def test_a_freed_block_is_reused_without_page_faults():
    if not host_memory.keep_freed_memory():
        pytest.skip("glibc's malloc only")
    default = _faults("numpy")  # the second block is mapped anew and faulted in (by huge pages where the kernel can)
    assert default >= 32
    assert _faults("paddlelite") * 10 < default


def test_the_environment_keeps_its_malloc_settings(monkeypatch):
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "131072")
    assert host_memory.keep_freed_memory() is False
