"""Issue 11 "Layers and specs" against real Paddle 3.3.1: Tensor attributes are buffers, InputSpec.batch /
unbatch work in place, NoamDecay starts at 0."""
import numpy as np

from tests.differential import differential, raises


def _model(paddle):
    nn = paddle.nn

    class Sub(nn.Layer):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(2, 2)
            self.t = paddle.to_tensor([1.0, 2.0])
            self.register_buffer("rb", paddle.ones([1]))
            self.register_buffer("np_", paddle.zeros([1]), persistable=False)

    class Model(nn.Layer):
        def __init__(self):
            super().__init__()
            self.sub = Sub()
            self.top = paddle.to_tensor([3.0])
    return Model()


@differential(expected={"all": ["top", "sub.t", "sub.rb", "sub.np_"], "sub": ["t", "rb", "np_"], "own": ["top"],
                        "state": ["sub.rb", "sub.lin.weight", "sub.lin.bias"], "values": [[3.0], [5.0], [1.0], [0.0]],
                        "after_none": ["top", "sub.rb", "sub.np_"]})
def test_tensor_attribute_of_a_sublayer_is_a_buffer(paddle):
    m = _model(paddle)
    out = {"all": [n for n, _ in m.named_buffers()], "sub": [n for n, _ in m.sub.named_buffers()],
           "own": [n for n, _ in m.named_buffers(include_sublayers=False)], "state": list(m.state_dict())}
    m.sub.t = paddle.to_tensor([5.0])
    out["values"] = [b for b in m.buffers()]
    m.sub.t = None
    out["after_none"] = [n for n, _ in m.named_buffers()]
    return out


@differential(expected=raises(TypeError))
def test_buffer_attribute_rejects_a_number(paddle):
    _model(paddle).top = 3


@differential(expected={"same": [True, True], "batched": [8, 3, 4], "unbatched": [3, 4], "list": [5, 3],
                        "none": [3]})
def test_input_spec_batch_and_unbatch_in_place(paddle):
    spec = paddle.static.InputSpec([3, 4], "float32", "x")
    batched = spec.batch(8)
    shape_batched = list(spec.shape)
    unbatched = spec.unbatch()
    return {"same": [batched is spec, unbatched is spec], "batched": shape_batched, "unbatched": list(spec.shape),
            "list": list(paddle.static.InputSpec([3], "float32").batch([5]).shape),
            "none": list(paddle.static.InputSpec([None, 3], "float32").unbatch().shape)}


@differential(expected=raises(ValueError))
def test_input_spec_batch_list_of_two(paddle):
    paddle.static.InputSpec([3], "float32").batch([2, 3])


@differential(expected=raises(TypeError))
def test_input_spec_batch_not_int(paddle):
    paddle.static.InputSpec([3], "float32").batch("a")


@differential(expected=raises(ValueError))
def test_input_spec_unbatch_0d(paddle):
    paddle.static.InputSpec([], "float32").unbatch()


@differential(expected={"lrs": [0.0, 0.01, 0.02, 0.03], "resumed": 0.016770509831248424, "state": 0.0})
def test_noam_decay_is_zero_at_epoch_0(paddle):
    lr = paddle.optimizer.lr
    sched = lr.NoamDecay(d_model=0.01, warmup_steps=100, learning_rate=1.0)
    lrs = []
    for _ in range(4):
        lrs.append(sched())
        sched.step()
    return {"lrs": lrs, "resumed": lr.NoamDecay(d_model=512, warmup_steps=10, learning_rate=2.0, last_epoch=5)(),
            "state": lr.NoamDecay(d_model=512, warmup_steps=10).state_dict()["last_lr"]}


_DEFAULT_DTYPE_LAYERS = {
    "Conv1D": lambda nn: nn.Conv1D(2, 3, 3), "Conv2D": lambda nn: nn.Conv2D(2, 3, 3),
    "Conv3D": lambda nn: nn.Conv3D(2, 3, 3), "Conv2DTranspose": lambda nn: nn.Conv2DTranspose(2, 3, 3),
    "Embedding": lambda nn: nn.Embedding(5, 3), "Linear": lambda nn: nn.Linear(2, 3),
    "Bilinear": lambda nn: nn.Bilinear(2, 2, 3), "PReLU": lambda nn: nn.PReLU(), "LayerNorm": lambda nn: nn.LayerNorm(3),
    "BatchNorm2D": lambda nn: nn.BatchNorm2D(3), "LSTM": lambda nn: nn.LSTM(2, 3),
}


@differential(expected={name: "paddle.float64" for name in _DEFAULT_DTYPE_LAYERS})
def test_layer_parameters_take_the_default_dtype(paddle):
    paddle.set_default_dtype("float64")
    try:
        return {name: str(make(paddle.nn).parameters()[0].dtype) for name, make in _DEFAULT_DTYPE_LAYERS.items()}
    finally:
        paddle.set_default_dtype("float32")


@differential(expected={"keys": ([], []), "weight": [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]],
                        "static": ["linear.bias", "linear.weight", "scratch"]})
def test_set_state_dict_matches_the_layers_own_entries_not_an_overriding_state_dict(paddle):
    """A Layer whose state_dict renames entries converts them back in set_state_dict (Paddle's test_state_dict_convert):
    set_state_dict matches against the layer's own entries, without the override or the state-dict hooks; and
    to_static_state_dict includes the non-persistable buffers."""
    class Renamed(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear = paddle.nn.Linear(3, 2)
            self.register_buffer("scratch", paddle.zeros([1]), persistable=False)

        def state_dict(self, destination=None, include_sublayers=True, structured_name_prefix="", use_hook=True):
            st = super().state_dict(destination=destination, include_sublayers=include_sublayers,
                                    structured_name_prefix=structured_name_prefix, use_hook=use_hook)
            st["linear.new_weight"] = paddle.transpose(st.pop("linear.weight"), [1, 0])
            return st

        def set_state_dict(self, state_dict, use_structured_name=True):
            state_dict["linear.weight"] = paddle.transpose(state_dict.pop("linear.new_weight"), [1, 0])
            return super().set_state_dict(state_dict)

    source, target = Renamed(), Renamed()
    source.linear.weight.set_value(np.arange(6, dtype="float32").reshape(3, 2))
    keys = target.set_state_dict(source.state_dict())
    return {"keys": keys, "weight": target.linear.weight, "static": sorted(target.to_static_state_dict())}
