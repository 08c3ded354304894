"""Paddle's OpRole values and the attributes every op carries (op_proto_and_checker_maker: OpRole says which pass
appended an op)."""
import enum

OP_ROLE_FORWARD = 0
OP_ROLE_BACKWARD = 1
OP_ROLE_OPTIMIZE = 2
OP_ROLE_LOSS = 256
OP_ROLE_ATTR = "op_role"
OP_ROLE_VAR_ATTR = "op_role_var"
OP_DEVICE_ATTR = "op_device"
OP_NAMESCOPE_ATTR = "op_namescope"
OP_CALLSTACK_ATTR = "op_callstack"
WITH_QUANT_ATTR = "with_quant_attr"


class OpRole(enum.IntEnum):
    Forward = OP_ROLE_FORWARD
    Backward = OP_ROLE_BACKWARD
    Optimize = OP_ROLE_OPTIMIZE
    Loss = OP_ROLE_LOSS
    RPC = 4
    Dist = 8
    LRSched = 16
