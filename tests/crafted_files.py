"""Building blocks of hand-made files, shared by tests/test_untrusted_files.py and the fuzzer
(tests/fuzz_files.py): pickles of any reduce tuple, `.npy` members with any header."""
import struct

import numpy as np

RECONSTRUCT = np.ndarray.__reduce__(np.zeros(1))[0]  # NumPy's own numpy._core.multiarray._reconstruct


class Reduce:
    """Pickles as `fn(*args)` then BUILD(state): the shape of every NumPy pickle, with any values in it."""

    def __init__(self, fn, args, state=None):
        self.fn, self.args, self.state = fn, args, state

    def __reduce__(self):
        return (self.fn, self.args) if self.state is None else (self.fn, self.args, self.state)


def npy_bytes(header, data):
    """A version 1.0 `.npy` file whose header is the text `header` (any text), followed by `data`."""
    text = header.encode("latin1")
    text += b" " * ((-(10 + len(text) + 1)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text + data


def save_small_model(prefix):
    """A valid inference model (x[None, 3] -> fc -> relu -> fc -> scale) at `prefix`; returns the Executor."""
    import paddlelite as paddle
    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3], "float32")
            h = paddle.nn.functional.relu(paddle.static.nn.fc(x, 4))
            y = paddle.scale(paddle.static.nn.fc(h, 2), 2.0)
            exe = paddle.static.Executor(paddle.CPUPlace())
            exe.run(startup)
            paddle.static.save_inference_model(prefix, [x], [y], exe)
        return exe
    finally:
        paddle.disable_static()
