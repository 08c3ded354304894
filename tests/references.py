"""Reference libraries (PyTorch) imported on first use, so that a bare install still runs the suite.

A test that touches `torch.<name>` or `TF.<name>` skips with a reason when PyTorch is not installed;
the other tests of its module still run. Real Paddle is reached through `tests/differential.py`.
"""
import importlib

import pytest


class LazyReference:
    """A module imported when an attribute is first read; `pytest.importorskip` semantics when absent."""

    def __init__(self, module_name):
        self._module_name = module_name
        self._module = None

    def __getattr__(self, name):
        if self._module is None:
            pytest.importorskip(self._module_name.partition(".")[0],
                                reason=f"reference check needs {self._module_name} (pip install torch==2.13.0)")
            self._module = importlib.import_module(self._module_name)
        return getattr(self._module, name)


torch = LazyReference("torch")
TF = LazyReference("torch.nn.functional")
