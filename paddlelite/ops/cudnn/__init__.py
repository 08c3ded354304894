"""Host code of the cuDNN graphs (cuDNN Frontend, paddlelite/device/cudnn.py), one module per op family, as
ops/launch/ holds the launch code of kernels/*.cu: each function describes its op's tensors to cuDNN, builds (once
per key) and runs the graph, and returns None for what cuDNN does not cover -- the op's binding then takes its
other path (a kernel of kernels/, or the reference forward)."""
