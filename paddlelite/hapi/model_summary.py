"""paddle.summary: a table of the network's layers with their input/output shapes and parameter counts."""
import numbers
from collections import OrderedDict

import numpy as np

from ..framework import user_warnings as _user_warnings
from .. import tensor as T
from ..autograd import no_grad
from ..framework.mode import in_dynamic_mode
from ..framework.tensor import Tensor
from ..nn import LayerList, Sequential
from ..static import InputSpec

__all__ = ["summary"]


def _is_shape(shape):
    return all(not isinstance(item, (list, tuple)) for item in shape)


def _check_shape(shape):
    unknown, out = 0, []
    for item in shape:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("Option input_size only the dim of batch_size can be None or -1.")
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got {item}")
        out.append(item)
    return tuple(out)


def _check_input(input_size):
    if isinstance(input_size, (list, tuple)) and _is_shape(input_size):
        return _check_shape(input_size)
    return [_check_input(i) for i in input_size]


def _sizes_of(input):
    if isinstance(input, Tensor):
        return tuple(input.shape)
    if isinstance(input, (list, tuple)):
        return [tuple(x.shape) for x in input]
    if isinstance(input, dict):
        return [tuple(v.shape) for v in input.values()]
    raise ValueError("Input is not tensor, list, tuple and dict, unable to determine input_size, please input "
                     "input_size.")


def _normalize_sizes(input_size):
    if isinstance(input_size, InputSpec):
        return tuple(input_size.shape)
    if isinstance(input_size, list):
        out = []
        for item in input_size:
            item = (item,) if isinstance(item, int) else item
            assert isinstance(item, (tuple, InputSpec)), \
                f"When input_size is list, expect item in input_size is a tuple or InputSpec, but got {type(item)}"
            out.append(tuple(item.shape) if isinstance(item, InputSpec) else item)
        return out
    return (input_size,) if isinstance(input_size, int) else input_size


def summary(net, input_size=None, dtypes=None, input=None):
    """Print the table (Paddle's format) and return {'total_params', 'trainable_params'}."""
    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    if input_size is None:
        input_size = _sizes_of(input)
    input_size = _check_input(_normalize_sizes(input_size))
    if in_dynamic_mode():
        was_training = net.training
    else:  # the table comes from ops appended to the main program; a static network has no train/eval switch
        _user_warnings.warn("Your model was created in static graph mode, this may not get correct summary "
                            "information!")
        was_training = False
    if was_training:
        net.eval()
    try:
        text, info = summary_string(net, input_size, dtypes, input)
    finally:
        if was_training:
            net.train()
    print(text)
    return info


def _all_numbers(items):
    return all(isinstance(i, numbers.Number) for i in items)


def _shape_of(x):
    if isinstance(x, (list, tuple)):
        return [_shape_of(v) for v in x]
    return list(x.shape) if hasattr(x, "shape") else []


def _layer_rows(model, inputs, call):
    """{'<Class>-<index+1>': row} for every layer the forward runs (Sequential/LayerList containers excluded)."""
    rows, hooks = OrderedDict(), []
    depth = len(list(model.sublayers()))

    def hook(layer, layer_input, output):
        class_name = type(layer).__name__
        try:
            index = int(layer.full_name().split("_")[-1])
        except ValueError:
            index = len(rows)
        row = rows.setdefault(f"{class_name}-{index + 1}", OrderedDict())
        row["input_shape"] = _shape_of(layer_input)
        row["output_shape"] = _shape_of(output)
        params = trainable = 0
        for p in layer._parameters.values():
            if p is None:
                continue
            params += np.prod(p.shape)  # NumPy integers, as Paddle's counts (the returned dict shows them)
            if getattr(p, "trainable", True) and not p.stop_gradient:
                trainable += np.prod(p.shape)
        row["trainable_params"] = trainable
        row["trainable"] = trainable > 0 or not layer._parameters
        row["nb_params"] = params

    for layer in [model] + list(model.sublayers()):
        if not isinstance(layer, (Sequential, LayerList)) and (layer is not model or depth < 1):
            hooks.append(layer.register_forward_post_hook(hook))
    try:
        call(inputs)
    finally:
        for h in hooks:
            h.remove()
    return rows


@no_grad()
def summary_string(model, input_size=None, dtypes=None, input=None):
    def build_dtypes(size, dtype):
        if isinstance(size, (list, tuple)) and _all_numbers(size):
            return [dtype or "float32"]
        return [build_dtypes(i, dtype) for i in size]

    if not isinstance(dtypes, (list, tuple)):
        dtypes = build_dtypes(input_size, dtypes)
    if isinstance(input_size, tuple):
        input_size = [input_size]

    def build_input(size, dtype):
        if isinstance(size, (list, tuple)) and _all_numbers(size):
            return T.cast(T.rand(list(size)), dtype[0] if isinstance(dtype, (list, tuple)) else dtype)
        return [build_input(i, d) for i, d in zip(size, dtype)]

    if input is not None:
        rows = _layer_rows(model, input, lambda x: model(x))
    else:
        rows = _layer_rows(model, build_input(input_size, dtypes), lambda x: model(*x))

    widths = {"layer": 15, "input": 20, "output": 20, "params": 15}
    for name, row in rows.items():
        widths["layer"] = max(widths["layer"], len(name))
        widths["input"] = max(widths["input"], len(str(row["input_shape"])))
        widths["output"] = max(widths["output"], len(str(row["output_shape"])))
        widths["params"] = max(widths["params"], len(str(row["nb_params"])))
    table_width = max(75, sum(widths.values()) + 5)

    def line(a, b, c, d):
        return (f"{a:^{widths['layer']}} {b:^{widths['input']}} {c:^{widths['output']}} "
                f"{d:^{widths['params']}}\n")

    text = "-" * table_width + "\n" + line("Layer (type)", "Input Shape", "Output Shape", "Param #")
    text += "=" * table_width + "\n"
    total_params = total_output = trainable_params = 0
    for name, row in rows.items():
        text += line(name, str(row["input_shape"]), str(row["output_shape"]), f"{row['nb_params']:,}")
        total_params += row["nb_params"]
        try:
            total_output += np.sum(np.prod(row["output_shape"], axis=-1))
        except ValueError:  # several outputs of different ranks
            total_output += sum(np.sum(np.prod(shape, axis=-1)) for shape in row["output_shape"])
        if row.get("trainable"):
            trainable_params += row["trainable_params"]

    def input_megabytes(size):
        if isinstance(size, (list, tuple)) and _all_numbers(size):
            return abs(np.prod(size) * 4.0 / (1024 ** 2.0))
        return sum(input_megabytes(i) for i in size)

    input_mb = input_megabytes(input_size)
    output_mb = abs(2.0 * total_output * 4.0 / (1024 ** 2.0))  # x2 for the gradients
    params_mb = abs(total_params * 4.0 / (1024 ** 2.0))
    text += "=" * table_width + "\n"
    text += f"Total params: {total_params:,}\n"
    text += f"Trainable params: {trainable_params:,}\n"
    text += f"Non-trainable params: {total_params - trainable_params:,}\n"
    text += "-" * table_width + "\n"
    text += f"Input size (MB): {input_mb:0.2f}\n"
    text += f"Forward/backward pass size (MB): {output_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\n"
    text += f"Estimated Total Size (MB): {input_mb + output_mb + params_mb:0.2f}\n"
    text += "-" * table_width + "\n"
    return text, {"total_params": total_params, "trainable_params": trainable_params}
