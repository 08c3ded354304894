"""nn: layers and the functional API (mode-agnostic: the same code builds static programs)."""
from . import functional
