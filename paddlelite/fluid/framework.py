"""fluid.framework: the program model."""
from ..framework.flags import get_flags, in_dynamic_or_pir_mode, in_pir_mode, set_flags, use_pir_api
from ..framework.mode import in_dynamic_mode
from ..static.framework import (Block, Operator, Parameter, Program, Variable, default_main_program,
                                default_startup_program, program_guard)


def in_dygraph_mode():
    return in_dynamic_mode()


_non_static_mode = in_dygraph_mode

__all__ = ["Block", "Operator", "Parameter", "Program", "Variable", "default_main_program",
           "default_startup_program", "program_guard", "in_dygraph_mode", "in_dynamic_or_pir_mode", "in_pir_mode",
           "use_pir_api", "get_flags", "set_flags"]
