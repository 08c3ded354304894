"""Every kernels/*.cu compiles for sm_80 and sm_90 with NVRTC (what CuPy uses: no host headers), and
with `nvcc -ptx` where nvcc is installed. No GPU needed: NVRTC comes from the pip wheel
nvidia-cuda-nvrtc-cu12 (tests/cuda_emu/nvrtc.py calls its C API through ctypes).
"""
import os
import re
import shutil
import subprocess

import pytest

from paddlelite.device import kernels as K
from tests.cuda_emu import nvrtc

ARCHS = ("sm_80", "sm_90")
_LIB = nvrtc.load()


def _expected_kernels(family):
    """The extern "C" kernels a family defines, from the emulator's preprocessed view."""
    if shutil.which("g++") is None:
        return None
    from tests.cuda_emu.emu import kernel_names
    return set(kernel_names(K.kernel_source(family)))


def test_every_family_has_a_source():
    files = sorted(f[:-3] for f in os.listdir(K.kernel_dir()) if f.endswith(".cu"))
    assert files == sorted(K.FAMILIES)


@pytest.mark.skipif(_LIB is None, reason="NVRTC not installed (pip install nvidia-cuda-nvrtc-cu12)")
@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("family", K.FAMILIES)
def test_nvrtc_compiles(family, arch):
    ptx = nvrtc.compile_ptx(_LIB, K.kernel_source(family), f"{family}.cu", arch, options=K.CupyModules.OPTIONS)
    entries = set(re.findall(r"\.entry\s+(\w+)\(", ptx))
    expected = _expected_kernels(family)
    assert entries and (expected is None or entries == expected)
    assert f".target {arch}" in ptx


@pytest.mark.skipif(_LIB is None, reason="NVRTC not installed (pip install nvidia-cuda-nvrtc-cu12)")
def test_nvrtc_reports_errors():
    with pytest.raises(RuntimeError, match="NVRTC"):
        nvrtc.compile_ptx(_LIB, K.kernel_source("dropout").replace("load4(dout", "load5(dout"), "broken.cu")


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not installed")
@pytest.mark.parametrize("family", K.FAMILIES)
def test_nvcc_ptx_compiles(family, tmp_path):
    src = tmp_path / f"{family}.cu"
    src.write_text(K.kernel_source(family))
    for arch in ARCHS:
        r = subprocess.run(["nvcc", "-ptx", f"-arch={arch}", "-std=c++17", "-Werror", "all-warnings", str(src), "-o",
                            str(tmp_path / f"{family}_{arch}.ptx")], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
