"""Static graph mode: Program, Block, Variable, Operator, append_backward, gradients, Executor."""
