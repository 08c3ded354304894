"""jit.save's input_spec as Paddle reads it (issue 28, item 2: Paddle's test_jit_save_load): the to_static
input_spec decides the traced program and jit.save's picks the inputs kept (by name), an incompatible one is a
ValueError; jit.load's configs and missing files; TranslatedLayer's specs."""
import os
import tempfile

import numpy as np

from tests.differential import differential, error_class


def _error_class(call):
    """The class a caller of Paddle catches (a missing model is a ValueError there; here it is also a
    FileNotFoundError)."""
    return error_class(call, (ValueError, TypeError, AttributeError, Exception))


def _two_inputs(paddle):
    class TwoInputs(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc_x = paddle.nn.Linear(3, 2)
            self.fc_y = paddle.nn.Linear(3, 2)

        def forward(self, x, y):
            x_out = self.fc_x(x)
            y_out = self.fc_y(y)
            return x_out, y_out, paddle.mean(x_out + y_out)

    net = TwoInputs()
    for k, p in enumerate(net.parameters()):
        p.set_value(np.linspace(-1, 1, int(np.prod(p.shape)), dtype="float32").reshape(p.shape) * (k + 1))
    return net


def _x(paddle):
    return paddle.to_tensor(np.arange(6, dtype="float32").reshape(2, 3) / 6)


@differential()
def test_jit_save_keeps_the_inputs_its_input_spec_names(paddle):
    spec = paddle.static.InputSpec
    net = paddle.jit.to_static(_two_inputs(paddle), input_spec=[spec([None, 3], "float32"), spec([None, 3], "float32")],
                               full_graph=True)
    inputs = net.forward.inputs  # traced for to_static's input_spec, named after forward's arguments
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "pruned", "model")
        paddle.jit.save(net, path, [inputs[0]], output_spec=net.forward.outputs[:1])
        loaded = paddle.jit.load(path)
        path_all = os.path.join(tmp, "kept", "model")
        paddle.jit.save(net, path_all, inputs, output_spec=net.forward.outputs[:1], input_names_after_prune=["x"])
        loaded_all = paddle.jit.load(path_all)
        x = _x(paddle)
        return {"names": [v.name for v in inputs], "shape": list(inputs[0].shape),
                "pruned": loaded(x), "after_prune": loaded_all(x), "eager": net(x, x)[0],
                "input_spec": [(list(s.shape), s.name) for s in loaded._input_spec()],
                "missing_method": _error_class(lambda: loaded.program("not_exists"))}


@differential(expected={"dtype": "ValueError", "rank": "ValueError", "dim": "ValueError", "compatible": None,
                        "unknown_name": "ValueError", "unnamed": "ValueError", "missing_argument": "ValueError"})
def test_jit_save_input_spec_errors(paddle):
    spec = paddle.static.InputSpec
    net = paddle.jit.to_static(_two_inputs(paddle), input_spec=[spec([None, 3], "float32", "x"),
                                                                spec([None, 3], "float32", "y")], full_graph=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model")

        def save(layer, *specs):
            return lambda: paddle.jit.save(layer, path, input_spec=list(specs))
        return {"dtype": _error_class(save(net, spec([None, 3], "float64"), spec([None, 3], "float32"))),
                "rank": _error_class(save(net, spec([None, 3, 1], "float32"), spec([None, 3], "float32"))),
                "dim": _error_class(save(net, spec([None, 4], "float32"), spec([None, 3], "float32"))),
                "compatible": _error_class(save(net, spec([2, 3], "float32"), spec([2, -1], "float32"))),
                "unknown_name": _error_class(save(net, spec([None, 3], "float32", "x"),
                                                  spec([None, 3], "float32", "z"), spec([1], "float32", "w"))),
                "unnamed": _error_class(save(_plain_two(paddle), spec([None, 3], "float32"))),
                "missing_argument": _error_class(save(_two_inputs(paddle), spec([None, 3], "float32", "x")))}


def _plain_two(paddle):
    net = paddle.jit.to_static(_two_inputs(paddle), full_graph=True)
    net(_x(paddle), _x(paddle))
    return net


@differential(expected={"jit_load": "ValueError", "paddle_load": "ValueError", "empty_model_filename": "ValueError",
                        "unsupported_config": "ValueError", "skip_forward_files": []})
def test_jit_load_errors_and_skip_forward(paddle):
    with tempfile.TemporaryDirectory() as tmp:
        missing = os.path.join(tmp, "no_such_dir", "model")
        saved = os.path.join(tmp, "skipped", "model")
        paddle.jit.save(_two_inputs(paddle), saved, skip_forward=True)
        return {"jit_load": _error_class(lambda: paddle.jit.load(missing)),
                "paddle_load": _error_class(lambda: paddle.load(missing)),
                "empty_model_filename": _error_class(lambda: paddle.jit.load(missing, model_filename="")),
                "unsupported_config": _error_class(lambda: paddle.jit.load(missing, separate_params=True)),
                "skip_forward_files": sorted(os.listdir(os.path.dirname(saved)))}


@differential(expected={"useless_feed": "ValueError", "normalize": "ValueError"})
def test_a_feed_the_fetches_do_not_need_is_refused(paddle):
    """save_inference_model / normalize_program prune the program to the fetches; a feed variable the pruned program
    does not read is refused, as Paddle's (ValueError: 'not involved in the target_vars calculation')."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [10, 16], "float32")
        y = paddle.static.data("y", [10, 16], "float32")
        z = paddle.static.nn.fc(x, 4)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    with tempfile.TemporaryDirectory() as tmp:
        return {"useless_feed": _error_class(lambda: paddle.static.save_inference_model(
                    os.path.join(tmp, "model"), [x, y], [z], exe, program=main)),
                "normalize": _error_class(lambda: paddle.static.normalize_program(main, [x, y], [z]))}


@differential()
def test_jit_save_with_a_dict_input_spec(paddle):
    """An input_spec entry may be a dict of InputSpecs (the forward takes a dict): the program's inputs are its
    Tensors, named by the specs."""
    class DictInput(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear = paddle.nn.Linear(2, 3, weight_attr=paddle.nn.initializer.Constant(0.5),
                                           bias_attr=paddle.nn.initializer.Constant(0.1))

        def forward(self, img):
            return self.linear(img["img"] + img["img2"])

    spec = paddle.static.InputSpec
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model")
        paddle.jit.save(DictInput(), path, input_spec=[{"img": spec([None, 2], "float32", "img"),
                                                        "img2": spec([None, 2], "float32", "img2")}])
        loaded = paddle.jit.load(path)
        out = loaded(_x(paddle)[:, :2], _x(paddle)[:, 1:])
        return {"out": out, "specs": [(s.name, list(s.shape)) for s in loaded._input_spec()]}
