"""Paddle's core.SelectedRows: a tensor of `height` rows of which only those listed in `rows` are stored, their values
one DenseTensor (`get_tensor()`, set with `set(array, place)`). Paddle's sparse embedding gradients are of this kind;
here it is the container Paddle code builds to save and load such values (static/binary_io.py)."""
import numbers

from .executor import DenseTensor


def _row_list(rows, api):
    rows = [] if rows is None else list(rows)
    if not all(isinstance(r, numbers.Integral) and not isinstance(r, bool) for r in rows):
        raise TypeError(f"{api}: rows must be a list of ints, received {rows!r}")
    return [int(r) for r in rows]


def _height(height, api):
    if not isinstance(height, numbers.Integral) or isinstance(height, bool) or height < 0:
        raise ValueError(f"{api}: height must be a non-negative int, received {height!r}")
    return int(height)


class SelectedRows:
    def __init__(self, rows=None, height=0):
        self._rows = _row_list(rows, "SelectedRows")
        self._height = _height(height, "SelectedRows")
        self._value = DenseTensor()

    def rows(self):
        return list(self._rows)

    def set_rows(self, rows):
        self._rows = _row_list(rows, "SelectedRows.set_rows")

    def height(self):
        return self._height

    def set_height(self, height):
        self._height = _height(height, "SelectedRows.set_height")

    def get_tensor(self):
        """The stored rows' values, [len(rows), ...]."""
        return self._value

    def __repr__(self):
        return f"SelectedRows(rows={self._rows}, height={self._height}, value={self._value!r})"
