"""paddle.nn's torch-style aliases (Module, ModuleList, ModuleDict) and ParameterDict against real Paddle 3.3.1."""
import numpy as np

from tests.differential import differential, raises


@differential()
def test_aliases_and_parameter_dict(paddle):
    nn = paddle.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Linear(2, 3), nn.Linear(3, 1)])
            self.heads = nn.ModuleDict({"a": nn.Linear(1, 1)})
            self.extra = nn.ParameterDict([("w", paddle.create_parameter([2], "float32")),
                                           ("b", paddle.create_parameter([1], "float32"))])
            self.extra.update({"c": paddle.create_parameter([3], "float32")})
    net = Net()
    for _, p in net.named_parameters():
        p.set_value(np.full(p.shape, 0.5, "float32"))
    out = net.heads["a"](net.blocks[1](net.blocks[0](paddle.ones([1, 2])))) * net.extra["b"]
    return {"aliases": [nn.Module is nn.Layer, nn.ModuleList is nn.LayerList, nn.ModuleDict is nn.LayerDict],
            "names": [n for n, _ in net.named_parameters()], "keys": list(net.extra), "len": len(net.extra),
            "out": out, "repr": repr(net.extra)}


@differential(expected=raises(ValueError))
def test_parameter_dict_rejects_bad_pairs(paddle):
    paddle.nn.ParameterDict([("w", paddle.create_parameter([2], "float32"), 1)])


@differential()
def test_parameter_constructors(paddle):
    t = paddle.ones([2])
    shared = paddle.nn.Parameter(t, requires_grad=False)
    t[0] = 5.0
    trained = paddle.nn.Parameter(paddle.to_tensor([1.0, 2.0]))
    by_shape = paddle.nn.Parameter([2, 3], "float32")
    layer = paddle.nn.Linear(2, 2)
    layer.extra = trained
    (layer.extra * 3.0).sum().backward()
    return {"shared": shared, "flags": [shared.trainable, shared.stop_gradient, trained.trainable,
                                        trained.stop_gradient, by_shape.trainable, shared.persistable],
            "shape": [by_shape.shape, by_shape.dtype], "is_param": isinstance(layer.weight, paddle.nn.Parameter),
            "names": [n for n, _ in layer.named_parameters()], "grad": trained.grad, "repr": repr(trained)}


@differential(expected={"keys": ["a", "b", "c"], "errors": ["ValueError", "AssertionError"]})
def test_layer_dict_update_forms_and_errors(paddle):
    """LayerDict.update takes a mapping, a LayerDict or (key, layer) pairs; a triple is a ValueError, a non-iterable
    an AssertionError (Paddle's classes)."""
    layers = paddle.nn.LayerDict({"a": paddle.nn.ReLU()})
    layers.update(paddle.nn.LayerDict({"b": paddle.nn.Tanh()}))
    layers.update([("c", paddle.nn.Sigmoid())])
    errors = []
    for bad in ([("d", paddle.nn.ReLU(), "extra")], 1):
        try:
            layers.update(bad)
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            errors.append(type(error).__name__)
    return {"keys": list(layers.keys()), "errors": errors}
