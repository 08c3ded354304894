"""paddle.jit.dy2static: the module Paddle code imports to_static's helpers from (dy2static.utils)."""
from . import utils  # noqa: F401
