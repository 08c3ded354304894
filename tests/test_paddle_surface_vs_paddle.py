"""The surface Paddle's own tests and tutorials reach past the documented API (issue 28, "Module paths and names" and
"What Paddle's broader unit tests trip on"), run against real Paddle 3.3.1: typed places, paddle.base.core
(VarDesc.VarType, LoDTensor, Scope, globals), base.framework's decorators and helpers, the module paths Paddle code
imports from, Program.state_dict / global_seed, a static Variable's get_value / detach / cpu, the Tensor's underscore
methods, NumPy operands of Tensor operators, hand-appended ops, and initialisers on a block."""
import importlib
import warnings

import numpy as np

from tests.differential import differential, raises


def _module(paddle, path):
    return importlib.import_module(f"{paddle.__name__}.{path}")


# ---- places ----------------------------------------------------------------------------------------------------
@differential(expected={"type": "CPUPlace", "isinstance": True, "tensor_is_typed": False, "equal": True,
                        "repr": "Place(cpu)", "core": True, "hashable": 1})
def test_cpu_place_is_a_class(paddle):
    place = paddle.CPUPlace()
    x = paddle.to_tensor([1.0], place=place)
    return {"type": type(place).__name__, "isinstance": isinstance(place, paddle.CPUPlace),
            "tensor_is_typed": isinstance(x.place, paddle.CPUPlace), "equal": x.place == place,
            "repr": repr(place), "core": _module(paddle, "base.core").CPUPlace is paddle.CPUPlace,
            "hashable": len({paddle.CPUPlace(), paddle.CPUPlace()})}


@differential(expected={"cuda": True, "pinned": True})
def test_gpu_place_classes_exist(paddle):
    return {"cuda": isinstance(paddle.CUDAPlace, type), "pinned": isinstance(paddle.CUDAPinnedPlace, type)}


# ---- paddle.base.core ------------------------------------------------------------------------------------------
@differential(expected={"fp32": True, "int64": True, "alias": True, "kind": "VarType.DENSE_TENSOR", "kind_num": 7,
                        "var_kind": "VarType.DENSE_TENSOR", "array": True, "tensor_eq": True})
def test_core_var_type(paddle):
    core = _module(paddle, "base.core")
    vt = core.VarDesc.VarType
    x = paddle.to_tensor([1.0])
    paddle.enable_static()
    v = paddle.static.data("x", [2], "float32")
    return {"fp32": vt.FP32 == paddle.float32, "int64": paddle.to_tensor([1]).dtype == vt.INT64,
            "alias": vt.LOD_TENSOR == vt.DENSE_TENSOR, "kind": str(x.type), "kind_num": int(vt.DENSE_TENSOR),
            "var_kind": str(v.type), "array": vt.LOD_TENSOR_ARRAY == vt.DENSE_TENSOR_ARRAY,
            "tensor_eq": x.type == vt.DENSE_TENSOR}


@differential(expected={"empty": False, "empty_shape": [0], "shape": [2, 3], "sum": 6.0, "dtype": "float32",
                        "lod": [], "init": True, "fetched": [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]})
def test_core_lod_tensor_is_fed(paddle):
    core = _module(paddle, "base.core")
    t = core.LoDTensor()
    empty, empty_shape = t._is_initialized(), t.shape()
    t.set(np.ones((2, 3), np.float32), paddle.CPUPlace())
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        y = paddle.static.data("x", [2, 3], "float32") * 2.0
    (out,) = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": t, "not_in_program": np.ones(1)},
                                                           fetch_list=[y])
    return {"empty": empty, "empty_shape": empty_shape, "shape": t.shape(), "sum": float(np.array(t).sum()),
            "dtype": t._dtype(), "lod": t.lod(), "init": t._is_initialized(), "fetched": out}


@differential(expected={"flag": False, "contains": True, "set": {"FLAGS_check_nan_inf": True}})
def test_core_globals_are_the_flags(paddle):
    g = _module(paddle, "base.core").globals()
    before = g["FLAGS_check_nan_inf"]
    g["FLAGS_check_nan_inf"] = True
    after = paddle.get_flags("FLAGS_check_nan_inf")
    paddle.set_flags({"FLAGS_check_nan_inf": False})
    return {"flag": before, "contains": "FLAGS_check_nan_inf" in g, "set": after}


@differential(expected={"kid": [1.0, 1.0], "parent_sees_kid": False, "kid_sees_parent": True,
                        "type": True})
def test_scope_new_scope(paddle):
    core = _module(paddle, "base.core")
    parent = core.Scope()
    parent.var("a").get_tensor().set(np.ones(2, np.float32), paddle.CPUPlace())
    kid = parent.new_scope()
    kid.var("b").get_tensor().set(np.ones(2, np.float32), paddle.CPUPlace())
    return {"kid": np.array(kid.find_var("b").get_tensor()), "parent_sees_kid": parent.find_var("b") is not None,
            "kid_sees_parent": kid.find_var("a") is not None, "type": isinstance(paddle.static.global_scope(),
                                                                                   type(parent))}


@differential(expected={"int32": [True, 1], "list": [True, [1.0, 2.0]], "errors": ["AssertionError", "TypeError",
                                                                                 "TypeError"],
                        "base_tensor": [[2, 3], True], "imperative": [True, False]})
def test_base_executor_as_lodtensor_base_tensor_and_imperative(paddle):
    """base.executor._as_lodtensor (a feed value as a tensor: a dtype needed for anything but an ndarray), base.Tensor
    (the scope variable's tensor class) and base.enable_imperative / disable_imperative."""
    base = paddle.base
    cpu = base.CPUPlace()

    def outcome(fn):
        try:
            fn()
        except Exception as error:  # noqa: BLE001 -- the class is what is compared
            return type(error).__name__

    number = base.executor._as_lodtensor(1.0, cpu, paddle.int32)
    listed = base.executor._as_lodtensor([1, 2], cpu, paddle.float64)
    errors = [outcome(lambda: base.executor._as_lodtensor(1, cpu)),
              outcome(lambda: base.executor._as_lodtensor({"a": 1}, cpu, paddle.int32)),
              outcome(lambda: base.executor._as_lodtensor([{1.2}, {1, 2}], cpu, paddle.int32))]
    tensor = base.Tensor()
    tensor.set(np.ones([2, 3], "float32"), cpu)
    base.disable_imperative()
    static = paddle.in_dynamic_mode()
    base.enable_imperative()
    return {"int32": [number._dtype() == paddle.int32, int(np.array(number))],
            "list": [listed._dtype() == paddle.float64, np.array(listed).tolist()], "errors": errors,
            "base_tensor": [tensor.shape(), isinstance(tensor, base.core.DenseTensor)],
            "imperative": [paddle.in_dynamic_mode(), static]}


# ---- paddle.base.framework -------------------------------------------------------------------------------------
@differential(expected={"dygraph_only": "AssertionError", "static_only": "AssertionError", "ok": [3, 3],
                        "not_support": "AssertionError", "stat_dict": {"a": 1}, "grad_name": "x@GRAD",
                        "dtype": True, "place": "CPUPlace", "paddle_place": "CPUPlace"})
def test_framework_decorators_and_helpers(paddle):
    fw = _module(paddle, "base.framework")

    def outcome(fn):
        try:
            return fn()
        except Exception as error:
            return type(error).__name__

    twice = fw.dygraph_only(lambda: 3)
    once_static = fw.static_only(lambda: 3)
    not_dygraph = fw.dygraph_not_support(lambda: 3)
    load = fw.deprecate_stat_dict(lambda state_dict: state_dict)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        loaded = load(stat_dict={"a": 1})
    in_dygraph = [outcome(twice), outcome(once_static), outcome(not_dygraph)]
    paddle.enable_static()
    in_static = [outcome(twice), outcome(once_static), outcome(not_dygraph)]
    paddle.disable_static()
    return {"dygraph_only": in_static[0], "static_only": in_dygraph[1], "ok": [in_dygraph[0], in_static[1]],
            "not_support": in_dygraph[2], "stat_dict": loaded, "grad_name": fw.grad_var_name("x"),
            "dtype": fw.convert_np_dtype_to_dtype_(np.float32) == paddle.float32,
            "place": type(fw._current_expected_place()).__name__,
            "paddle_place": type(fw._get_paddle_place("cpu")).__name__}


# ---- module paths ----------------------------------------------------------------------------------------------
@differential(expected={"paths": True, "loss": True, "param_attr": True, "seed": 7, "new": 7,
                        "ir": [False, True, False]})
def test_module_paths_paddle_code_imports(paddle):
    for path in ("pir_utils", "distributed.fleet.meta_optimizers", "base.dygraph.base", "base.executor",
                 "base.param_attr", "base.unique_name", "base.data_feeder", "static.nn.control_flow",
                 "static.nn.common", "static.nn.sequence_lod", "static.nn.static_pylayer"):
        _module(paddle, path)
    pir_utils = _module(paddle, "pir_utils")
    static_inside = []
    with pir_utils.OldIrGuard():
        static_inside.append(paddle.in_dynamic_mode())
    _module(paddle, "framework.random")._manual_program_seed(7)
    return {"paths": _module(paddle, "base.dygraph.base").guard is _module(paddle, "base.dygraph").guard and
            _module(paddle, "base.executor").global_scope is paddle.static.global_scope and
            _module(paddle, "static.nn.control_flow").cond is paddle.static.nn.cond and
            _module(paddle, "base.data_feeder").convert_dtype(paddle.float32) == "float32",
            "loss": paddle.nn.loss.CrossEntropyLoss is paddle.nn.CrossEntropyLoss,
            "param_attr": paddle.framework.ParamAttr is paddle.ParamAttr,
            "seed": paddle.static.default_main_program().random_seed, "new": paddle.static.Program().random_seed,
            "ir": [static_inside[0], paddle.in_dynamic_mode(), paddle.get_flags("FLAGS_enable_pir_api")
                   ["FLAGS_enable_pir_api"]]}


def teardown_module():
    """_manual_program_seed / global_seed set a process-wide default seed for new Programs: put it back."""
    import paddlelite
    paddlelite.static.Program().global_seed(0)
    paddlelite.static.default_main_program().random_seed = 0
    paddlelite.static.default_startup_program().random_seed = 0


# ---- programs and static variables -----------------------------------------------------------------------------
@differential(expected={"all": ["fc_0.b_0", "fc_0.w_0"], "param": ["fc_0.b_0", "fc_0.w_0"], "opt": [],
                        "restored": [[7.0, 7.0]], "get_value": [2, 2], "bad_mode": "ValueError"})
def test_program_state_dict_round_trip(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [1, 2], "float32")
        y = paddle.static.nn.fc(x, 2)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    state = main.state_dict()
    weights = {name: np.array(t) for name, t in state.items()}
    weights["fc_0.w_0"] = np.full((2, 2), 3.0, np.float32)
    weights["fc_0.b_0"] = np.ones(2, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main.set_state_dict({**weights, "not_in_program": np.ones(1)})
    (out,) = exe.run(main, feed={"x": np.ones((1, 2), np.float32)}, fetch_list=[y])
    try:
        main.state_dict("nope")
        bad = None
    except ValueError as error:
        bad = type(error).__name__
    return {"all": sorted(state), "param": sorted(main.state_dict("param")), "opt": sorted(main.state_dict("opt")),
            "restored": out, "get_value": list(main.global_block().var("fc_0.w_0").get_value().shape()),
            "bad_mode": bad}


@differential(expected={"keys": ["fc_0.b_0", "fc_0.w_0"], "same": True, "restored": [[7.0, 7.0]]})
def test_program_state_dict_through_paddle_save(paddle):
    """paddle.save of Program.state_dict() (LoDTensor values, pickled as their arrays) and paddle.load back into
    set_state_dict, as Paddle's saving guide does."""
    import os
    import tempfile
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [1, 2], "float32")
        y = paddle.static.nn.fc(x, 2, weight_attr=paddle.nn.initializer.Constant(3.0),
                                bias_attr=paddle.nn.initializer.Constant(1.0))
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "model.pdparams")
        paddle.save(main.state_dict(), path)
        loaded = paddle.load(path)
    saved = {name: np.array(t) for name, t in main.state_dict().items()}
    same = all(np.array_equal(np.array(loaded[name]), value) for name, value in saved.items())
    exe.run(startup)  # fresh values, then the saved ones back
    main.set_state_dict(loaded)
    (out,) = exe.run(main, feed={"x": np.ones((1, 2), np.float32)}, fetch_list=[y])
    return {"keys": sorted(loaded), "same": same, "restored": out}


@differential(expected={"fewer_dims": [[6], [3], [4, 2]], "refused": ["ValueError"] * 5})
def test_executor_feed_shape_check(paddle):
    """Executor.run's feed check, Paddle's: the fed dims match the variable's leading dims (-1: any); fewer dims than
    declared run as fed, a 0-D value, more dims, or a mismatched leading dim are a ValueError."""
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        a = paddle.static.data("a", [-1, 1], "float32")
        b = paddle.static.data("b", [-1, 3], "float32")
        c = paddle.static.data("c", [-1, 2, 1], "float32")
        d = paddle.static.data("d", [2, 3], "float32")
    exe = paddle.static.Executor(paddle.CPUPlace())

    def fed(var, shape):
        try:
            return list(exe.run(main, feed={var.name: np.zeros(shape, "float32")}, fetch_list=[var])[0].shape)
        except ValueError as error:
            return type(error).__name__

    return {"fewer_dims": [fed(a, [6]), fed(b, [3]), fed(c, [4, 2])],
            "refused": [fed(a, []), fed(a, [6, 1, 1]), fed(a, [2, 2]), fed(d, [6]), fed(b, [2, 4])]}


@differential(expected={"cpu_op": "memcpy", "detach": ["detach_x_0", True, "share_data"], "lod_level": 0,
                        "is_parameter": [True, False], "values": [[2.0, 4.0], [2.0, 4.0], [2.0, 4.0]],
                        "gradient": "AssertionError"})
def test_variable_cpu_detach_and_friends(paddle):
    paddle.enable_static()
    main = paddle.static.Program()
    with paddle.static.program_guard(main, paddle.static.Program()):
        x = paddle.static.data("x", [2], "float32")
        y = x.cpu()
        cpu_op = main.global_block().ops[-1].type
        d = x.detach()
        detach = [d.name, d.stop_gradient, main.global_block().ops[-1].type]
        p = paddle.static.create_parameter([2], "float32")
        try:
            x.gradient()
            gradient = None
        except AssertionError:
            gradient = "AssertionError"
        outs = [y * 2.0, d * 2.0, x * 2.0]
    values = paddle.static.Executor(paddle.CPUPlace()).run(main, feed={"x": np.array([1.0, 2.0], np.float32)},
                                                           fetch_list=outs)
    return {"cpu_op": cpu_op, "detach": detach, "lod_level": x.lod_level, "is_parameter": [p.is_parameter,
                                                                                            x.is_parameter],
            "values": values, "gradient": gradient}


@differential(expected={"seed": 5, "new": 5})
def test_program_global_seed(paddle):
    paddle.enable_static()
    program = paddle.static.Program()
    program.global_seed(5)
    out = {"seed": program.random_seed, "new": paddle.static.Program().random_seed}
    program.global_seed(0)
    return out


@differential(expected={"attrs": ["axis", "op_device", "op_namescope", "op_role", "op_role_var", "with_quant_attr"],
                        "loss": 1.6, "w": [[0.25] * 4] * 3, "b": [0.25] * 4, "x": [[0.25] * 3] * 2})
def test_hand_appended_ops_get_their_attribute_defaults(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        block = main.global_block()
        x = paddle.static.data("x", [2, 3], "float32")
        x.stop_gradient = False
        w = paddle.static.create_parameter([3, 4], "float32", name="w",
                                           default_initializer=paddle.nn.initializer.Constant(0.5))
        b = paddle.static.create_parameter([4], "float32", name="b",
                                           default_initializer=paddle.nn.initializer.Constant(0.1))
        out = block.create_var(name="out", shape=[2, 4], dtype="float32")
        block.append_op(type="mul", inputs={"X": x, "Y": w}, outputs={"Out": out})
        out2 = block.create_var(name="out2", shape=[2, 4], dtype="float32")
        op = block.append_op(type="elementwise_add", inputs={"X": out, "Y": b}, outputs={"Out": out2})
        loss = paddle.mean(out2)
        paddle.static.append_backward(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    loss_v, w_g, b_g, x_g = exe.run(main, feed={"x": np.ones((2, 3), np.float32)},
                                    fetch_list=[loss, "w@GRAD", "b@GRAD", "x@GRAD"])
    return {"attrs": sorted(n for n in op.all_attrs() if n != "op_callstack"), "loss": float(loss_v), "w": w_g,
            "b": b_g, "x": x_g}


# ---- initialisers on a block -----------------------------------------------------------------------------------
_SHOWN = ("dtype", "shape", "min", "max", "mean", "std", "seed", "value", "in_dtype", "out_dtype")


def _init_ops(paddle, make, dtype, by_block):
    paddle.enable_static()
    program = paddle.static.Program()
    block = program.global_block()
    if by_block:
        block.create_parameter(name="w", shape=[5, 10], dtype=dtype, initializer=make())
    else:
        make()(block.create_parameter(name="w", shape=[5, 10], dtype=dtype), block)
    return [[op.type, {k: op.attr(k) for k in op.attr_names if k in _SHOWN}] for op in block.ops]


@differential(expected={
    "constant": [["fill_constant", {"dtype": 5, "shape": [5, 10], "value": 2.0}]],
    "constant_bf16": [["fill_constant", {"dtype": 22, "shape": [5, 10], "value": 2.299999952316284}]],
    "uniform16": [["uniform_random", {"dtype": 5, "shape": [5, 10], "min": -1.0, "max": 1.0, "seed": 0}],
                  ["cast", {"in_dtype": 5, "out_dtype": 4}]],
    "xavier_bf16": [["uniform_random", {"dtype": 22, "shape": [5, 10], "min": -0.6324555277824402,
                                        "max": 0.6324555277824402, "seed": 0}]],
    "xavier_normal16": [["gaussian_random", {"dtype": 5, "shape": [5, 10], "mean": 0.0, "std": 0.3651483654975891,
                                             "seed": 0}], ["cast", {"in_dtype": 5, "out_dtype": 4}]],
    "truncated": [["truncated_gaussian_random", {"dtype": 5, "shape": [5, 10], "mean": 0.0, "std": 1.0,
                                                 "seed": 0}]],
    "xavier_gain_seed": [["uniform_random", {"dtype": 5, "shape": [5, 10], "min": -1.2649110555648804,
                                             "max": 1.2649110555648804, "seed": 3}]],
    "kaiming_fan_out": [["gaussian_random", {"dtype": 5, "shape": [5, 10], "mean": 0.0, "std": 0.4472135901451111,
                                             "seed": 0}]],
})
def test_initializers_append_paddles_ops_to_a_block(paddle):
    init = paddle.nn.initializer
    return {"constant": _init_ops(paddle, lambda: init.Constant(2.0), "float32", True),
            "constant_bf16": _init_ops(paddle, lambda: init.Constant(2.3), "bfloat16", True),
            "uniform16": _init_ops(paddle, lambda: init.Uniform(-1.0, 1.0), "float16", False),
            "xavier_bf16": _init_ops(paddle, init.XavierUniform, "bfloat16", True),
            "xavier_normal16": _init_ops(paddle, init.XavierNormal, "float16", False),
            "truncated": _init_ops(paddle, init.TruncatedNormal, "float32", True),
            "xavier_gain_seed": _init_ops(paddle, lambda: init.XavierInitializer(seed=3, gain=2.0), "float32", True),
            "kaiming_fan_out": _init_ops(paddle, lambda: init.KaimingNormal(mode="fan_out"), "float32", True)}


@differential(expected={
    "normal": [["gaussian_random", {"dtype": 5, "shape": [5, 10], "mean": 2.299999952316284,
                                    "std": 1.899999976158142, "seed": 123}]],
    "uniform": [["uniform_random", {"dtype": 5, "shape": [5, 10], "min": -4.199999809265137,
                                    "max": 3.0999999046325684, "seed": 456}]],
    "truncated": [["truncated_gaussian_random", {"dtype": 5, "shape": [5, 10], "mean": 0.0, "std": 1.0,
                                                 "seed": 7}]],
    "subclasses": [True, True, True], "assigned": [0.5, 1.5, 2.5, 3.5]})
def test_fluid_initializers_take_a_seed(paddle):
    """NormalInitializer/UniformInitializer/TruncatedNormalInitializer are Paddle's seeded bases of Normal/Uniform/
    TruncatedNormal; base.framework.extract_plain_list reads assign_value's Scalars."""
    init = paddle.nn.initializer
    block = paddle.static.Program().global_block()
    paddle.enable_static()
    block.create_parameter(name="a", shape=[4], dtype="float32",
                           initializer=init.NumpyArrayInitializer(np.arange(4, dtype="float32") + 0.5))
    assigned = _module(paddle, "base.framework").extract_plain_list(block.ops[0].attr("values"))
    return {"normal": _init_ops(paddle, lambda: init.NormalInitializer(2.3, 1.9, 123), "float32", True),
            "uniform": _init_ops(paddle, lambda: init.UniformInitializer(-4.2, 3.1, seed=456), "float32", True),
            "truncated": _init_ops(paddle, lambda: init.TruncatedNormalInitializer(seed=7), "float32", True),
            "subclasses": [issubclass(init.Normal, init.NormalInitializer),
                           issubclass(init.Uniform, init.UniformInitializer),
                           issubclass(init.TruncatedNormal, init.TruncatedNormalInitializer)],
            "assigned": assigned}


@differential(expected={"list": [[1.0, 2.0], [2]], "row": [[[1.0, 2.0, 3.0]], [1, 3]], "same": [[0.0, 1.0], [2]]})
def test_assign_gives_the_parameter_the_values_shape(paddle):
    """Eagerly, an Assign initialiser's values replace the parameter whole: it takes their shape, whatever the layer
    declared (Paddle's assign_value_ writes the value's shape)."""
    def weight(value):
        attr = paddle.ParamAttr(initializer=paddle.nn.initializer.Assign(value))
        w = paddle.nn.Linear(2, 2, weight_attr=attr).weight
        return [w.numpy().tolist(), list(w.shape)]

    return {"list": weight([1.0, 2.0]), "row": weight(np.array([[1.0, 2.0, 3.0]])),
            "same": weight(np.arange(2.0))}


@differential(expected={"same": [True, True], "differ": True})
def test_eager_initializers_draw_with_the_program_seed(paddle):
    """In the legacy IR an initialiser of seed 0 draws with the main program's random_seed eagerly too: under
    _manual_program_seed every parameter gets a generator of that seed (same shapes, same values)."""
    paddle.disable_static()
    paddle.framework.random._manual_program_seed(2020)
    try:
        a, b = paddle.nn.Linear(3, 2), paddle.nn.Linear(3, 2)
        same = [np.array_equal(a.weight.numpy(), b.weight.numpy()),
                np.array_equal(paddle.nn.MultiHeadAttention(4, 2).q_proj.weight.numpy(),
                               paddle.nn.MultiHeadAttention(4, 2).q_proj.weight.numpy())]
    finally:
        paddle.framework.random._manual_program_seed(0)
    differ = not np.array_equal(paddle.nn.Linear(3, 2).weight.numpy(), paddle.nn.Linear(3, 2).weight.numpy())
    return {"same": same, "differ": differ}


@differential(expected={"mapped": [{"b": 2, "a": 4}, [6], []], "flat": [2, 3, 1], "packed": {"b": 7, "a": [9, 8]},
                        "tensors": [[2.0], [4.0]], "bad": "ValueError"})
def test_utils_nest_functions(paddle):
    """paddle.utils.map_structure / flatten / pack_sequence_as: dict entries in sorted key order, containers rebuilt
    with their own key order and types."""
    utils = paddle.utils
    try:
        utils.pack_sequence_as([0, 0], [1, 2, 3])
        bad = None
    except ValueError as error:
        bad = type(error).__name__
    mapped = utils.map_structure(lambda x: x * 2, [{"b": 1, "a": 2}, [3], []])
    return {"mapped": mapped, "flat": utils.flatten({"b": 1, "a": [2, 3]}),
            "packed": utils.pack_sequence_as({"b": 0, "a": [0, 0]}, [9, 8, 7]),
            "tensors": utils.map_structure(lambda t: t + 1, [paddle.to_tensor([1.0]), paddle.to_tensor([3.0])]),
            "bad": bad}


@differential(expected=["x", "x", "x", "x@GRAD_slice_0", "x", "y"])
def test_backward_strip_grad_suffix(paddle):
    """base.backward._strip_grad_suffix_: a gradient's name back to its forward variable's."""
    strip = _module(paddle, "base.backward")._strip_grad_suffix_
    return [strip(name) for name in ("x@GRAD", "x@GRAD@GRAD", "x@GRAD@RENAME@1", "x@GRAD_slice_0@GRAD",
                                     "grad/grad/x@GRAD@RENAME@block0@1@GRAD", "y")]


@differential(expected={"inside": False, "after": True, "name": "opened", "signature": "(path, mode='r')",
                        "value": ["path", "r"]})
def test_dygraph_guard_and_signature_safe_contextmanager(paddle):
    """base.framework._dygraph_guard(None) runs a block in static mode (no tracer); base.wrapped_decorator's
    signature_safe_contextmanager keeps the function's signature (Paddle's test helpers build on both)."""
    import inspect
    fw = _module(paddle, "base.framework")
    with fw._dygraph_guard(None):
        inside = paddle.in_dynamic_mode()

    @_module(paddle, "base.wrapped_decorator").signature_safe_contextmanager
    def opened(path, mode="r"):
        yield [path, mode]

    with opened("path") as value:
        pass
    return {"inside": inside, "after": paddle.in_dynamic_mode(), "name": opened.__name__,
            "signature": str(inspect.signature(opened)), "value": value}


@differential(expected=raises(ValueError))
def test_kaiming_fan_out_with_fan_in(paddle):
    paddle.nn.initializer.KaimingUniform(fan_in=3.0, mode="fan_out")


# ---- the Tensor's underscore methods ---------------------------------------------------------------------------
@differential(expected={"to": [True, "float64"], "grad_ivar": [[2.0, 4.0], [6.0, 8.0]], "no_grad": None,
                        "copy": [[[1.0, 2.0], [3.0, 4.0]], True, False], "numel": 4, "init": True,
                        "place_str": "Place(cpu)", "slice": [[[3.0, 4.0]], True, 8],
                        "md5": "b4ad64bc24f643726bddf5606af738da", "bump": 1, "share": [[1.0, 2.0], True],
                        "hook": [[2.0, 2.0], True, False], "local": None})
def test_tensor_underscore_methods(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    y = x._to("cpu")
    (x * x).sum().backward()
    copy = x._copy_to(paddle.CPUPlace(), True)
    rows = x._slice(1, 2)
    z = paddle.to_tensor([1.0, 2.0])
    z._bump_inplace_version()
    d = paddle.to_tensor([5.0, 6.0])
    z._share_buffer_to(d)
    t = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    hook = t._register_grad_hook(lambda g: g * 2)
    (t * 1).sum().backward()
    removed = [t._remove_grad_hook(hook), t._remove_grad_hook(hook)]
    return {"to": [x._is_shared_buffer_with(y), x._to(dtype="float64").dtype], "grad_ivar": x._grad_ivar(),
            "no_grad": paddle.to_tensor([1.0])._grad_ivar(),
            "copy": [copy, copy.stop_gradient, copy._is_shared_buffer_with(x)], "numel": x._numel(),
            "init": x._is_initialized(), "place_str": x._place_str,
            "slice": [rows, x._is_shared_buffer_with(rows), rows._offset()], "md5": x._md5sum(),
            "bump": z._inplace_version(), "share": [d, d._is_shared_buffer_with(z)], "hook": [t.grad, *removed],
            "local": z._local_value()}


@differential(expected={"axis0": [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0]], "grad": [3.0, 3.0]})
def test_multiply_with_axis(paddle):
    x = paddle.ones([2, 3])
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    out = _module(paddle, "tensor.math")._multiply_with_axis(x, y, axis=0)
    out.sum().backward()
    return {"axis0": out, "grad": y.grad}


# ---- NumPy arrays and other objects as operator operands -------------------------------------------------------
@differential(expected={"add": [2.0, 4.0], "radd": [2.0, 4.0], "eq": [True, False], "req": [True, True],
                        "lt": [False, True], "rsub": [0.0, 0.0], "zero_d": [2.0, 3.0], "same": [0.5, 1.0],
                        "ints": [2, 4], "none": [False, True], "list": False, "matmul": 3.0})
def test_operators_take_numpy_arrays(paddle):
    x = paddle.to_tensor([1.0, 2.0])
    f64 = np.array([1.0, 2.0])
    return {"add": x + f64, "radd": f64 + x, "eq": x == np.array([1.0, 3.0]), "req": f64 == x,
            "lt": x < np.array([1.0, 3.0]), "rsub": f64 - x, "zero_d": x + np.array(1.0),
            "same": x / np.array([2.0, 2.0], np.float32), "ints": paddle.to_tensor([1, 2]) + np.array([1, 2]),
            "none": [x == None, x != None], "list": x == [1.0, 2.0],  # noqa: E711  (Paddle's answer to == None)
            "matmul": x @ np.ones((2,), np.float32)}


@differential(expected=raises(TypeError))
def test_numpy_operand_of_a_kind_paddle_does_not_promote(paddle):
    return paddle.to_tensor([1, 2]) == np.array([1.0, 2.0])


# ---- paddle.save / load entry points; paddle.jit ---------------------------------------------------------------
@differential(expected={"buffer": [1.0, 1.0], "program": ["Program", ["scale"]], "program_buffer": "Program",
                        "lod_tensor": ["Tensor", [[1.0, 1.0], [1.0, 1.0]]], "numpy": "ndarray"})
def test_save_buffers_programs_and_lod_tensors(paddle):
    import io
    import os
    import tempfile
    buffer = io.BytesIO()
    paddle.save({"a": paddle.ones([2])}, buffer)
    buffer.seek(0)
    loaded = paddle.load(buffer)["a"]
    paddle.enable_static()
    program = paddle.static.Program()
    with paddle.static.program_guard(program):
        paddle.static.data("x", [2, 3]) * 2.0
    program_buffer = io.BytesIO()
    paddle.save(program, program_buffer)
    program_buffer.seek(0)
    from_buffer = paddle.load(program_buffer)
    with tempfile.TemporaryDirectory() as directory:
        paddle.save(program, os.path.join(directory, "main.pdmodel"))
        back = paddle.load(os.path.join(directory, "main.pdmodel"))
        paddle.disable_static()
        t = paddle.base.core.LoDTensor()
        t.set(np.ones((2, 2), np.float32), paddle.CPUPlace())
        paddle.save(t, os.path.join(directory, "t.pdtensor"))
        as_tensor = paddle.load(os.path.join(directory, "t.pdtensor"))
        as_array = paddle.load(os.path.join(directory, "t.pdtensor"), return_numpy=True)
    return {"buffer": loaded, "program": [type(back).__name__, [op.type for op in back.global_block().ops]],
            "program_buffer": type(from_buffer).__name__,
            "lod_tensor": [type(as_tensor).__name__, as_tensor], "numpy": type(as_array).__name__}


def _net(paddle):
    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.linear = paddle.nn.Linear(2, 2, weight_attr=paddle.nn.initializer.Constant(1.0),
                                           bias_attr=paddle.nn.initializer.Constant(0.5))

        def forward(self, x, flag=True):
            return self.linear(x) * 2.0 if flag else self.linear(x)
    return Net()


@differential(expected={"inputs": [["x", [-1, 2]]], "saved": [[5.0, 5.0]]})
def test_jit_input_spec_constants_and_static_function_inputs(paddle):
    import os
    import tempfile
    net = _net(paddle)
    spec = paddle.static.InputSpec([None, 2], "float32", "x")
    forward = paddle.jit.to_static(net.forward, input_spec=[spec], full_graph=True)
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "net")
        paddle.jit.save(_net(paddle), path, input_spec=[spec, True])
        saved = paddle.jit.load(path)(paddle.ones([1, 2]))
    return {"inputs": [[v.name, list(v.shape)] for v in forward.inputs], "saved": saved}


@differential(expected={"samples": [[0.0, 4.0], [8.0, 12.0], [16.0]], "lists": [[0.0, 0.0], [4.0, 4.0]],
                        "batches": [[4.0, 4.0]], "feeder": [5.0, 1.0], "dynamic": [[2, 3], [2, 1]]})
def test_fluid_data_loader_from_generator_and_data_feeder(paddle):
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x, y = paddle.static.data("x", [None, 3], "float32"), paddle.static.data("y", [None, 1], "int64")
        out = paddle.mean(x, axis=1, keepdim=True) * 3.0 + paddle.cast(y, "float32")
        loader = paddle.base.io.DataLoader.from_generator(feed_list=[x, y], capacity=4, iterable=True)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)

    def run(loader):
        return [exe.run(main, feed=feed[0], fetch_list=[out])[0].ravel().tolist() for feed in loader]

    def samples():
        for i in range(5):
            yield np.full([3], i, "float32"), np.array([i], "int64")

    def lists():
        for i in range(2):
            yield [(np.full([3], i, "float32"), np.array([i])) for _ in range(2)]

    def batches():
        yield np.ones((2, 3), "float32"), np.ones((2, 1), "int64")
    got = {"samples": run(loader.set_sample_generator(samples, batch_size=2, drop_last=False,
                                                       places=paddle.CPUPlace())),
           "lists": run(loader.set_sample_list_generator(lists, places=paddle.CPUPlace())),
           "batches": run(loader.set_batch_generator(batches, places=paddle.CPUPlace()))}
    feeder = paddle.base.DataFeeder(feed_list=[x, y], place=paddle.CPUPlace())
    got["feeder"] = exe.run(main, feed=feeder.feed([(np.ones(3, "float32"), np.array([2])),
                                                    (np.zeros(3, "float32"), np.array([1]))]),
                            fetch_list=[out])[0].ravel().tolist()
    paddle.disable_static()
    dynamic = paddle.base.io.DataLoader.from_generator(capacity=2)
    got["dynamic"] = [list(t.shape) for b in dynamic.set_batch_generator(batches, places=paddle.CPUPlace())()
                      for t in b]  # called: Paddle code iterates loader() too
    return got


@differential(expected={"same": True, "initial": [5, 7], "replayed": True, "manual": True})
def test_seed_returns_the_cpu_generator(paddle):
    g = paddle.seed(5)
    first = g.initial_seed()
    state = g.get_state()
    a = paddle.rand([3])
    g.set_state(state)
    replayed = bool((paddle.rand([3]) == a).all())
    g.manual_seed(7)
    c = paddle.rand([3])
    paddle.seed(7)
    return {"same": g is paddle.base.core.default_cpu_generator(),
            "initial": [first, g.initial_seed()], "replayed": replayed,
            "manual": bool((paddle.rand([3]) == c).all())}


@differential(expected={"lazy": ["ok", "AssertionError"], "eager": "AssertionError", "shape": [2, 2]})
def test_parameter_initialize_under_lazy_guard(paddle):
    def outcome(fn):
        try:
            fn()
            return "ok"
        except AssertionError:
            return "AssertionError"
    with paddle.LazyGuard():
        lazy = paddle.nn.Linear(2, 2)
    first, again = outcome(lazy.weight.initialize), outcome(lazy.weight.initialize)
    return {"lazy": [first, again], "eager": outcome(paddle.nn.Linear(2, 2).weight.initialize),
            "shape": list(lazy.weight.numpy().shape)}


@differential(expected={"name": "x", "shape": [-1, 3], "feed": [True, False], "stop": [True, False],
                        "persistable": False})
def test_variable_desc(paddle):
    paddle.enable_static()
    try:
        with paddle.static.program_guard(paddle.static.Program(), paddle.static.Program()):
            x = paddle.static.data("x", [None, 3])
            desc = x.desc
            feed = [desc.need_check_feed()]
            desc.set_need_check_feed(False)
            feed.append(desc.need_check_feed())
            stop = [desc.stop_gradient()]
            desc.set_stop_gradient(False)
            stop.append(x.stop_gradient)
            return {"name": desc.name(), "shape": desc.shape(), "feed": feed, "stop": stop,
                    "persistable": desc.persistable()}
    finally:
        paddle.disable_static()


@differential(expected={"shape": [3, 4], "dtype": "int32", "value": 2, "complex": [1.5, -2.0], "pointer": True,
                        "same": True, "text": raises(ValueError)})
def test_dense_tensor_low_level_methods(paddle):
    import numbers
    core = paddle.base.core
    scope = core.Scope()
    tensor = scope.var("t").get_tensor()
    tensor._set_dims([3, 4])
    tensor._alloc_int(core.CPUPlace())
    array = np.array(tensor)
    array[1, 2] = 2
    tensor.set(array, core.CPUPlace())
    complex_tensor = core.Tensor()
    complex_tensor.set(np.zeros([2, 2], np.complex64), core.CPUPlace())
    complex_tensor._set_complex64_element(3, 1.5 - 2j)
    got = complex_tensor._get_complex64_element(3)
    result = {"shape": list(np.array(tensor).shape), "dtype": str(np.array(tensor).dtype),
              "value": int(np.array(tensor)[1, 2]), "complex": [got.real, got.imag],
              "pointer": isinstance(tensor._mutable_data(core.CPUPlace(), paddle.float32), numbers.Integral),
              "same": core.Tensor is core.DenseTensor}
    try:
        tensor.set(["1", "2"], core.CPUPlace())
        result["text"] = "accepted"
    except ValueError:
        result["text"] = raises(ValueError)
    return result
@differential()
def test_core_dense_tensor_dims_alloc_and_elements(paddle):
    # Paddle's low-level DenseTensor API (its test_tensor.py): dims first, then storage of them
    core = _module(paddle, "base.core")
    t = core.Scope().var("t").get_tensor()
    t._set_dims([2, 3])
    t._alloc_int(paddle.CPUPlace())
    ints = np.array(t)
    ints[1, 2] = 7
    t.set(ints, paddle.CPUPlace())
    dims, int_dtype, written = t._get_dims(), str(np.array(t).dtype), int(np.array(t)[1, 2])
    t._alloc_double(paddle.CPUPlace())
    t._set_double_element(4, 2.5)
    c = core.DenseTensor()
    c.set(np.zeros((2, 2), np.complex64), paddle.CPUPlace())
    c._set_complex64_element(3, 1.5 - 2j)
    empty = core.DenseTensor()
    empty._set_dims([0, 1])
    empty._alloc_float(paddle.CPUPlace())
    return {"dims": dims, "int_dtype": int_dtype, "written": written,  # allocated values are Paddle's uninitialized memory
            "double": [t._get_double_element(4), str(np.array(t).dtype), list(np.array(t).shape)],
            "complex": [c._get_complex64_element(3), np.array(c)], "empty": list(np.array(empty).shape),
            "ptr": t._ptr() > 0 and isinstance(t._mutable_data(paddle.CPUPlace(), core.VarDesc.VarType.FP64), int)}
