"""The progress line paddle.Model prints while it trains, evaluates and predicts (Paddle's format)."""
import os
import shutil
import sys
import time

import numpy as np


def _format_value(v):
    if isinstance(v, np.ndarray) and v.size == 1 and v.dtype in (np.float32, np.float64):
        v = v.item()
    if isinstance(v, (float, np.float32, np.float64)):
        return f" {v:.4f}" if abs(v) > 1e-3 else f" {v:.4e}"
    return f" {v}"


def _format_values(values):
    return "".join(f" - {k}:" + "".join(_format_value(v) for v in (val if isinstance(val, list) else [val]))
                   for k, val in values)


class ProgressBar:
    """verbose=1: one line redrawn in place with a bar and ETA; verbose=2 or 3: one line per update."""

    def __init__(self, num=None, width=30, verbose=1, start=True, file=sys.stdout, name="step"):
        if isinstance(num, int) and num <= 0:
            raise TypeError("num should be None or integer (> 0)")
        self._num = num
        columns = shutil.get_terminal_size().columns or 80
        self._width = min(width, min(int(columns * 0.6), columns - 50))
        self._total_width = 0
        self._verbose = verbose
        self.file = file
        self._start = time.time() if start else None
        self._last_update = 0
        self.name = name
        self._dynamic_display = ((hasattr(file, "isatty") and file.isatty()) or "ipykernel" in sys.modules
                                 or "posix" in sys.modules or "PYCHARM_HOSTED" in os.environ)

    def start(self):
        self.file.flush()
        self._start = time.time()

    def _rate(self, current_num, now):
        per_unit = (now - self._start) / current_num if current_num else 0
        if per_unit >= 1 or per_unit == 0:
            return per_unit, f" - {per_unit:.0f}s/{self.name}"
        if per_unit >= 1e-3:
            return per_unit, f" - {per_unit * 1e3:.0f}ms/{self.name}"
        return per_unit, f" - {per_unit * 1e6:.0f}us/{self.name}"

    def _count(self, current_num):
        if self._num:
            digits = int(np.log10(self._num)) + 1
            return (self.name + " %" + str(digits) + "d/%d") % (current_num, self._num)
        return f"{self.name} {current_num:3}"

    def update(self, current_num, values=()):
        now = time.time()
        per_unit, rate = self._rate(current_num, now)
        out = sys.stdout
        if self._verbose == 1:
            previous = self._total_width
            out.write("\b" * previous + "\r" if self._dynamic_display else "\n")
            if self._num is not None:
                bar = self._count(current_num) + " ["
                filled = int(self._width * float(current_num) / self._num)
                if filled > 0:
                    bar += "=" * (filled - 1) + (">" if current_num < self._num else "=")
                bar += "." * (self._width - filled) + "]"
            else:
                bar = self._count(current_num)
            self._total_width = len(bar)
            out.write(bar)
            info = _format_values(values)
            if self._num is not None and current_num < self._num:
                eta = int(per_unit * (self._num - current_num))
                if eta > 3600:
                    info += f" - ETA: {eta // 3600}:{(eta % 3600) // 60:02}:{eta % 60:02}"
                elif eta > 60:
                    info += f" - ETA: {eta // 60}:{eta % 60:02}"
                else:
                    info += f" - ETA: {eta}s"
            info += rate
            self._total_width += len(info)
            if previous > self._total_width:
                info += " " * (previous - self._total_width)
            if self._num is None or current_num >= self._num:
                info += "\n"
            out.write(info)
            out.flush()
            self._last_update = now
        elif self._verbose in (2, 3):
            out.write(self._count(current_num) + _format_values(values) + rate + "\n")
            out.flush()
