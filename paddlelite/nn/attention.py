"""paddle.nn.attention: which implementations scaled_dot_product_attention may use (SDPBackend), set for a block
by sdpa_kernel (and F.sdp_kernel's flags). Here MATH is the composed matmul/softmax path; FLASH_ATTENTION and
EFFICIENT_ATTENTION are both the fused GPU op. On the CPU only MATH runs: a block allowing neither it nor
anything else that runs there raises, as Paddle's CPU build does."""
import contextlib
import enum

__all__ = ["SDPBackend", "sdpa_kernel"]


class SDPBackend(enum.IntEnum):
    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2


_backend_enabled = {SDPBackend.MATH: True, SDPBackend.FLASH_ATTENTION: True, SDPBackend.EFFICIENT_ATTENTION: True}
_current_priority = [SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]


def _get_enabled_backends():
    return [backend for backend, enabled in _backend_enabled.items() if enabled]


def _cur_sdpa_kernel_backends(with_priority=False):
    backends = _get_enabled_backends()
    if with_priority:
        backends.sort(key=lambda b: _current_priority.index(b) if b in _current_priority else len(_current_priority))
    return backends


def _validate_backends(backends):
    if isinstance(backends, SDPBackend):
        backends = [backends]
    if not isinstance(backends, (list, tuple)):
        raise TypeError("backends must be an instance of SDPBackend or a list of SDPBackend instances")
    for backend in backends:
        if not isinstance(backend, SDPBackend):
            raise TypeError(f"All backends must be SDPBackend instances, got {type(backend)}")
    return list(dict.fromkeys(backends))


def _sdpa_kernel(backends, set_priority=False):
    global _current_priority
    for backend in _backend_enabled:
        _backend_enabled[backend] = backend in backends
    if set_priority:
        _current_priority = list(backends) + [b for b in _current_priority if b not in backends]


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority=False):
    """Within the block, attention uses only `backends` (an SDPBackend or a list of them)."""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError("Backend must be an instance of SDPBackend or a list of SDPBackend instances")
    backends = _validate_backends(backends)
    if not backends:
        raise ValueError("At least one backend must be specified")
    previous = _cur_sdpa_kernel_backends(with_priority=set_priority)
    try:
        _sdpa_kernel(backends, set_priority)
        yield {}
    finally:
        _sdpa_kernel(previous, set_priority)


def fused_allowed(on_gpu):
    """Whether attention may run fused (else it runs composed): Paddle's choice among the enabled backends."""
    enabled = _get_enabled_backends()
    fused = SDPBackend.FLASH_ATTENTION in enabled or SDPBackend.EFFICIENT_ATTENTION in enabled
    if SDPBackend.MATH in enabled and (not fused or not on_gpu):
        return False
    if not on_gpu:
        raise RuntimeError("No available backend for scaled_dot_product_attention was found.")
    return fused
