"""paddle.Size: an eager tensor's shape, a list of ints (so Paddle code that edits shapes keeps working)
that also compares equal to a tuple and prints as `paddle.Size([2, 3])`."""
from .printing import PaddleNamedType


class Size(list, metaclass=PaddleNamedType):
    __slots__ = ()
    _paddle_name = "paddle.base.libpaddle.Size"

    def __eq__(self, other):
        return list.__eq__(self, list(other) if isinstance(other, tuple) else other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __getitem__(self, index):
        item = list.__getitem__(self, index)
        return Size(item) if isinstance(index, slice) else item

    def __add__(self, other):
        return Size(list.__add__(self, list(other)))

    def __radd__(self, other):
        return Size(list(other) + list(self))

    def __mul__(self, n):
        return Size(list.__mul__(self, n))

    __rmul__ = __mul__

    def numel(self):
        n = 1
        for d in self:
            n *= d
        return n

    def __repr__(self):
        return f"paddle.Size({list.__repr__(self)})"

    __str__ = __repr__
