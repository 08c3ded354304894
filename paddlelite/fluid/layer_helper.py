"""paddle.base.layer_helper.LayerHelper: what Paddle's operator code builds programs with -- the layer's unique
name, temporaries named after it (`<name>.tmp_<n>`), and operators appended by type to the current block of the
main program (Block.append_op: any registered op, Paddle's legacy type names included)."""
from ..static.framework import default_main_program, default_startup_program
from ..utils import unique_name

__all__ = []


class LayerHelper:
    def __init__(self, layer_type, **kwargs):
        self.kwargs = kwargs
        self.layer_type = layer_type
        if self.kwargs.get("name") is None:
            self.kwargs["name"] = unique_name.generate(layer_type)

    @property
    def name(self):
        return self.kwargs["name"]

    @property
    def main_program(self):
        return default_main_program()

    @property
    def startup_program(self):
        return default_startup_program()

    def append_op(self, *args, **kwargs):
        return self.main_program.current_block().append_op(*args, **kwargs)

    def create_variable_for_type_inference(self, dtype, stop_gradient=False, shape=None):
        """A temporary of the current block named `<layer name>.tmp_<n>`."""
        return self.main_program.current_block().create_var(
            name=unique_name.generate_with_ignorable_key(f"{self.name}.tmp"), dtype=dtype,
            shape=() if shape is None else shape, persistable=False, stop_gradient=stop_gradient)

    def create_variable(self, *args, **kwargs):
        return self.main_program.current_block().create_var(*args, **kwargs)

    def create_global_variable(self, persistable=False, *args, **kwargs):
        return self.main_program.global_block().create_var(*args, persistable=persistable, **kwargs)

    def multiple_input(self, input_param_name="input"):
        inputs = self.kwargs.get(input_param_name, [])
        return list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]

    def input(self, input_param_name="input"):
        inputs = self.multiple_input(input_param_name)
        if len(inputs) != 1:
            raise ValueError(f"{self.layer_type} layer only takes one input")
        return inputs[0]

    def input_dtype(self, input_param_name="input"):
        """The dtype all the inputs under `input_param_name` share (ValueError when they differ)."""
        dtypes = {str(v.dtype) for v in self.multiple_input(input_param_name)}
        if len(dtypes) > 1:
            raise ValueError(f"Data Type mismatch: {sorted(dtypes)} in {self.layer_type}")
        return self.multiple_input(input_param_name)[0].dtype if dtypes else None
