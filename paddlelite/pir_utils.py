"""paddle.pir_utils: the IR guards Paddle's tests wrap their static code in.

paddlelite implements Paddle's legacy IR only (FLAGS_enable_pir_api stays False), so every guard builds legacy-IR
programs: OldIrGuard and DygraphOldIrGuard are exactly Paddle's; IrGuard and DygraphPirGuard, which switch Paddle to
PIR, keep the legacy IR here (a body that uses only the common static API runs the same; of the PIR-only APIs only
paddle.pir.Value is here, a class with no instances). Like Paddle's, IrGuard and OldIrGuard enter static mode for their body when entered in
dynamic mode.
"""
from .framework.mode import disable_static, enable_static, in_dynamic_mode


class OldIrGuard:
    """Build legacy-IR static programs inside (static mode for the body when entered in dynamic mode)."""

    def __enter__(self):
        self._dygraph_outside = in_dynamic_mode()
        if self._dygraph_outside:
            enable_static()
        return self

    def __exit__(self, *exc):
        if self._dygraph_outside:
            disable_static()
        return False


class IrGuard(OldIrGuard):
    """Paddle's switch to PIR: here the body builds legacy-IR programs (paddlelite has no PIR)."""


class DygraphOldIrGuard:
    """Paddle's legacy-IR switch for dynamic-mode code (to_static): the only IR here, so nothing changes."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class DygraphPirGuard(DygraphOldIrGuard):
    """Paddle's switch to PIR for dynamic-mode code (to_static): here the legacy IR stays."""


__all__ = ["DygraphOldIrGuard", "DygraphPirGuard", "IrGuard", "OldIrGuard"]
