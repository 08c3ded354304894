"""paddle.utils.run_check: train a linear layer one step in static mode and in eager mode on the device
this build uses (the GPU when CuPy sees one), then data-parallel on every GPU when there are several, and
print Paddle's messages. The gradients are checked against their closed form, so a broken install fails
here rather than in a user's first program."""
import logging

import numpy as np

from .. import device as _device
from .. import distributed as _dist
from .. import nn as _nn
from .. import optimizer as _optimizer
from .. import static as _static
from .. import tensor as _tensor
from ..distributed.parallel import DataParallel
from ..framework import mode as _mode
from ..nn.layer.param_attr import ParamAttr, create_parameter

_INPUT = np.array([[[1.0, 2.0], [3.0, 4.0]]], dtype=np.float32)  # [1, 2, 2], as Paddle's check feeds
_WEIGHT_GRAD = np.array([[4.0] * 3, [6.0] * 3], dtype=np.float32)  # d sum(x @ W + b) / dW: x's column sums


def _check_gradient(where, grad):
    if not np.allclose(grad, _WEIGHT_GRAD):
        raise RuntimeError(f"paddle.utils.run_check: the {where} gradient of sum(x @ W + b) is {grad.tolist()}, "
                           f"expected {_WEIGHT_GRAD.tolist()}: this installation computes wrong results")


def _run_static_single(place):
    with _static.scope_guard(_static.Scope()):
        main, startup = _static.Program(), _static.Program()
        with _static.program_guard(main, startup):
            x = _static.data(name="input", shape=[None, 2, 2], dtype="float32")
            weight = create_parameter([2, 3], "float32", attr=ParamAttr(initializer=_nn.initializer.Constant(0.1)))
            bias = create_parameter([3], "float32")
            out = _tensor.sum(_nn.functional.linear(x, weight, bias))
            _, weight_grad = _static.append_backward(out, parameter_list=[weight])[0]
        exe = _static.Executor(place)
        exe.run(startup)
        _, grad = exe.run(main, feed={"input": _INPUT}, fetch_list=[out, weight_grad])
    _check_gradient("static", np.asarray(grad))


def _run_dygraph_single():
    linear = _nn.Linear(2, 3, weight_attr=ParamAttr(initializer=_nn.initializer.Constant(0.5)),
                        bias_attr=ParamAttr(initializer=_nn.initializer.Constant(1.0)))
    _tensor.sum(linear(_tensor.to_tensor(_INPUT))).backward()
    _check_gradient("eager", linear.weight.grad.numpy())
    _optimizer.Adam(learning_rate=0.001, parameters=linear.parameters()).step()


def train_for_run_parallel():
    """One data-parallel step on every process (paddle.distributed.spawn runs it)."""
    _dist.init_parallel_env()
    model = DataParallel(_nn.Sequential(_nn.Linear(10, 10), _nn.Linear(10, 1)))
    adam = _optimizer.Adam(learning_rate=0.001, parameters=model.parameters())
    loss = _nn.MSELoss()(model(_tensor.to_tensor(np.ones((10, 10), np.float32))),
                         _tensor.to_tensor(np.zeros((10, 1), np.float32)))
    loss.backward()
    adam.step()


def run_check():
    """Check that paddlelite computes correctly on this machine's device(s), printing Paddle's messages."""
    print("Running verify PaddlePaddle program ... ")
    gpus = _device.cuda.device_count()
    device_str, count = ("GPU", gpus) if gpus else ("CPU", 1)
    was_static, previous_device = not _mode.in_dynamic_mode(), _device.get_device()
    try:
        _device.set_device("gpu:0" if gpus else "cpu")
        _mode.enable_static()
        _run_static_single(_device.CUDAPlace(0) if gpus else _device.CPUPlace())
        _mode.disable_static()
        _run_dygraph_single()
    finally:
        (_mode.enable_static if was_static else _mode.disable_static)()
        _device.set_device(previous_device)
    print(f"PaddlePaddle works well on 1 {device_str}.")
    if count > 1:
        try:
            _dist.spawn(train_for_run_parallel, nprocs=count)
        except Exception as e:
            logging.warning(f"PaddlePaddle meets some problem with {count} {device_str}s. This may be caused by:"
                            "\n 1. There is not enough GPUs visible on your system"
                            "\n 2. Some GPUs are occupied by other process now"
                            "\n 3. mpi4py/MPI or NCCL (through CuPy) is not installed correctly: "
                            "pip install 'paddlelite[distributed]'")
            logging.warning(f"\n Original Error is: {e}")
            print(f"PaddlePaddle is installed successfully ONLY for single {device_str}! "
                  "Let's start deep learning with PaddlePaddle now.")
            raise
        print(f"PaddlePaddle works well on {count} {device_str}s.")
    print("PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.")
