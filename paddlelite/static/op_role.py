"""Paddle's OpRole values (op_proto_and_checker_maker.OpRole): which pass appended an op."""
OP_ROLE_FORWARD = 0
OP_ROLE_BACKWARD = 1
OP_ROLE_OPTIMIZE = 2
OP_ROLE_LOSS = 256
OP_ROLE_ATTR = "op_role"
OP_ROLE_VAR_ATTR = "op_role_var"
