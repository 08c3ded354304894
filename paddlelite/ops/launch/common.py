"""What every launch helper uses: dtype suffixes, sized scalar arguments, alignment, grid sizing."""
import numpy as np

from ...device.kernels import sm_count

THREADS = 256
_SUFFIX = {"float32": "f32", "float16": "f16", "bfloat16": "bf16"}


def suffix(dtype):
    """The kernel-name suffix of a dtype the kernels cover (None for the others)."""
    return _SUFFIX.get(np.dtype(dtype).name)


def i64(v):
    return np.int64(v)


def i32(v):
    return np.int32(v)


def f32(v):
    return np.float32(v)


def ptr(a):
    """Device (or host) address of an array's first element."""
    return a.data.ptr if hasattr(a.data, "ptr") else a.ctypes.data


def aligned(width, *arrays):
    """True when every array's address is a multiple of `width` elements (for vector loads)."""
    return all(ptr(a) % (width * a.dtype.itemsize) == 0 for a in arrays)


def prod(shape):
    n = 1
    for d in shape:
        n *= int(d)
    return n


def block_size(fn, wanted):
    """`wanted` threads per block in whole warps, at most what compiled kernel `fn` launches with (its registers
    per thread bound that: 72 allow 896 threads of 1024)."""
    return min(int(wanted), fn.max_threads_per_block // 32 * 32)


RESIDENT = 4  # 256-thread blocks per SM that fit at once for every grid-stride kernel (each uses <= 64 registers)


def blocks(n, per_block, per_sm=RESIDENT):
    """Blocks for a grid-stride loop over n items: at most `per_sm` per SM -- by default one full wave -- and at
    least one. Every block of a grid-stride loop does the same work, so a last, partly filled wave costs a
    whole block's time (at 16 per SM, a kernel with 5 resident per SM ran 3.2 waves: 4 waves of time)."""
    return max(1, min(-(-int(n) // per_block), sm_count() * per_sm))


def scalar_f32(xp, a):
    """A one-element tensor (learning rate, beta power) as a contiguous float32 array."""
    return xp.ascontiguousarray(a.reshape(-1)[:1], dtype=np.float32)
