"""Framework core shared by both modes: dtypes, the mode switches, random state, the Tensor."""

__all__ = []  # the submodules are the namespace
