"""Framework core shared by both modes: dtypes, the mode switches, random state, the Tensor."""
