"""paddle.pir_utils: the guards Paddle's tests and scripts use to pick an IR for static programs.

Paddle 3.3.1 has two static IRs and these guards switch between them (IrGuard: PIR, OldIrGuard: the legacy
ProgramDesc IR), switching to static mode on entry when called in dygraph mode and back on exit. paddlelite has the
legacy IR only (`FLAGS_enable_pir_api` reads False): every guard keeps that IR, and the guards that Paddle makes
enter static mode (IrGuard, OldIrGuard) do so here too, so code written under them runs with the same mode.
"""
from .framework.mode import disable_static, enable_static, in_dynamic_mode


class _StaticModeGuard:
    """Static mode inside the block when entered from dygraph mode; the IR stays the legacy one."""

    def __enter__(self):
        self.in_dygraph_outside = in_dynamic_mode()
        if self.in_dygraph_outside:
            enable_static()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if self.in_dygraph_outside:
            disable_static()


class _KeepModeGuard:
    """The mode unchanged (Paddle's dygraph IR guards switch only the IR the dygraph-to-static tracer builds)."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        return None


class IrGuard(_StaticModeGuard):
    """Paddle: static mode with PIR. paddlelite: static mode with the legacy IR (its only IR)."""


class OldIrGuard(_StaticModeGuard):
    """Static mode with the legacy IR."""


class DygraphPirGuard(_KeepModeGuard):
    """Paddle: dygraph with PIR for what it traces. paddlelite: the legacy IR."""


class DygraphOldIrGuard(_KeepModeGuard):
    """Dygraph with the legacy IR for what it traces."""


__all__ = ["DygraphOldIrGuard", "DygraphPirGuard", "IrGuard", "OldIrGuard"]
