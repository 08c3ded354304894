"""paddle.common_ops_import: the names Paddle's operator code imports in one line (data checks, dtype conversion,
the framework's Variable and mode queries, LayerHelper), from the modules that implement them here. Paddle's
OpProtoHolder and _create_tensor (its C++ operator registry and tensor constructor) have no counterpart."""
from . import base  # noqa: F401
from .base import core  # noqa: F401
from .base.core import VarDesc  # noqa: F401
from .fluid.data_feeder import check_dtype, check_type, check_variable_and_dtype, convert_dtype  # noqa: F401
from .fluid.framework import (Variable, _dygraph_tracer, convert_np_dtype_to_dtype_, default_main_program,  # noqa: F401
                              device_guard, dygraph_only, in_dygraph_mode)
from .fluid.layer_helper import LayerHelper  # noqa: F401
from .nn.layer.param_attr import ParamAttr  # noqa: F401
