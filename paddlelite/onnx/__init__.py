"""paddle.onnx.export: a Layer as an ONNX model, written through the `onnx` package (the optional extra `[onnx]`).

The Layer is traced as jit.save traces it (jit.io.traced_program), the program pruned to its inference form
(static.normalize_program: test mode, only the ops the outputs need), and each op written by the one converter of its
registry type (convert.py; the converters in ops_*.py). Paddle's own export hands the same arguments to paddle2onnx.
"""
import os

from ..jit.io import selected_outputs, traced_program
from ..static.io import normalize_program

__all__ = ["export"]

# the options of paddle2onnx's dygraph2onnx this export takes
_CONFIGS = ("output_spec", "enable_onnx_checker", "auto_upgrade_opset")


def export(layer, path, input_spec=None, opset_version=9, **configs):
    """Write `layer` (a Layer or a to_static function), traced with `input_spec`, as the ONNX model `<path>.onnx`.

    opset_version: the ONNX opset to write (9, Paddle's default, up to the newest the installed onnx knows); an op that
    needs a newer one raises it, with a warning, unless auto_upgrade_opset=False. A dim of None / -1 in an InputSpec
    stays symbolic in the model (a dynamic batch size). Ops with no ONNX form raise one error listing all of them.
    configs: output_spec (the forward's outputs to keep, as jit.save takes it: output Tensors or positions; the
    program is pruned to them), enable_onnx_checker, auto_upgrade_opset.
    """
    api = "paddle.onnx.export"
    try:
        import onnx
    except ImportError as e:
        raise ImportError(f"{api} needs the onnx package: pip install 'paddlelite[onnx]'") from e
    from .convert import program_to_onnx
    from .graph import MIN_OPSET

    if not isinstance(path, str) or not os.path.basename(path):
        raise ValueError(f"{api}: path must be 'dirname/file_prefix' (the model is written to file_prefix.onnx), "
                         f"received {path!r}")
    newest = onnx.defs.onnx_opset_version()
    if isinstance(opset_version, bool) or not isinstance(opset_version, int) or not 7 <= opset_version <= newest:
        raise ValueError(f"{api}: opset_version must be an int in [7, {newest}] (the installed onnx knows opsets up "
                         f"to {newest}; the converters write {MIN_OPSET} or newer), received {opset_version!r}")
    unknown = sorted(set(configs) - set(_CONFIGS))
    if unknown:
        raise TypeError(f"{api}: unexpected keyword argument(s) {unknown}; it takes {list(_CONFIGS)}")
    partial, inputs = traced_program(layer, input_spec, api)
    outputs = selected_outputs(partial.outputs, configs.get("output_spec"), api)
    program = normalize_program(partial.program, inputs, outputs)
    values = {v.name: t._host() for v, t in partial.captures}
    model, _ = program_to_onnx(program, [v.name for v in inputs], [v.name for v in outputs], values,
                               opset_version, api, auto_upgrade=configs.get("auto_upgrade_opset", True))
    if configs.get("enable_onnx_checker", True):
        onnx.checker.check_model(model, full_check=True)
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
    onnx.save(model, path + ".onnx")

