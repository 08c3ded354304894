"""The module paths and names PaddleNLP (2.8.1) imports from Paddle at its top, with Paddle's meaning in one process
(issue 28: the English-to-Spanish transformer tutorial imports paddlenlp): fleet's model-parallel layers at degree 1,
the model-parallel random states, activation recomputation, paddle.utils.download and try_import, amp_state,
in_declarative_mode, the transformer's mask and attr helpers, LayerHelper, the DataLoader iterators' base class;
and, for the multi-process features paddlelite does not implement, names that raise NotImplementedError when used.
"""
import importlib
import os
import subprocess
import sys
import tempfile
import textwrap
import zipfile

import numpy as np
import pytest

from tests.differential import differential, raises

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _module(paddle, path):
    return importlib.import_module(f"{paddle.__name__}.{path}")


# (module, name) pairs PaddleNLP imports at its top (a static scan of the 585 modules `import paddlenlp` loads)
PADDLENLP_IMPORTS = [
    ("common_ops_import", "convert_dtype"), ("common_ops_import", "LayerHelper"),
    ("distributed.communication.group", "_get_global_group"), ("distributed.communication.reduce", "ReduceOp"),
    ("distributed.communication.reduce", "_get_reduce_op"), ("distributed.fleet", "fleet"),
    ("distributed.fleet.base", "topology"),
    ("distributed.fleet.meta_optimizers.dygraph_optimizer", "DygraphShardingOptimizer"),
    ("distributed.fleet.meta_optimizers.dygraph_optimizer", "HybridParallelOptimizer"),
    ("distributed.fleet.meta_optimizers.dygraph_optimizer.dygraph_sharding_optimizer", "DygraphShardingOptimizerV2"),
    ("distributed.fleet.meta_parallel", "ColumnParallelLinear"), ("distributed.fleet.meta_parallel", "LayerDesc"),
    ("distributed.fleet.meta_parallel", "PipelineLayer"), ("distributed.fleet.meta_parallel", "RowParallelLinear"),
    ("distributed.fleet.meta_parallel", "SharedLayerDesc"), ("distributed.fleet.meta_parallel", "get_rng_state_tracker"),
    ("distributed.fleet.meta_parallel", "VocabParallelEmbedding"),
    ("distributed.fleet.meta_parallel", "ParallelCrossEntropy"),
    ("distributed.fleet.meta_parallel.parallel_layers", "PipelineLayer"),
    ("distributed.fleet.meta_parallel.sharding.group_sharded_optimizer_stage2", "GroupShardedOptimizerStage2"),
    ("distributed.fleet.model", "PipelineParallel"), ("distributed.fleet.utils", "recompute"),
    ("distributed.fleet.utils", "mix_precision_utils"), ("distributed.fleet.utils", "sequence_parallel_utils"),
    ("distributed.fleet.utils.hybrid_parallel_util", "fused_allreduce_gradients"),
    ("distributed.fleet.utils.hybrid_parallel_util", "obtain_optimizer_parameters_list"),
    ("distributed.fleet.utils.log_util", "logger"),
    ("distributed.fleet.utils.sequence_parallel_utils", "ColumnSequenceParallelLinear"),
    ("distributed.fleet.utils.sequence_parallel_utils", "mark_as_sequence_parallel_parameter"),
    ("io.dataloader.dataloader_iter", "_DataLoaderIterBase"), ("framework", "core"),
    ("amp.auto_cast", "amp_state"), ("nn.layer.layers", "in_declarative_mode"),
    ("nn.layer.transformer", "_convert_attention_mask"), ("nn.layer.transformer", "_convert_param_attr_to_list"),
    ("utils", "try_import"), ("utils.download", "get_path_from_url"), ("utils.download", "_decompress"),
    ("utils.download", "is_url"), ("utils.download", "_get_unique_endpoints"),
    ("utils.cpp_extension", "load_op_meta_info_and_register_op"), ("utils.cpp_extension.cpp_extension", "CUDA_HOME"),
    ("utils.cpp_extension.cpp_extension", "BuildExtension"), ("utils.cpp_extension.cpp_extension", "CppExtension"),
    ("utils.cpp_extension.extension_utils", "_jit_compile"), ("base.layer_helper", "LayerHelper"),
    ("base.dygraph.base", "in_to_static_mode"),
]


@differential(expected=[True] * len(PADDLENLP_IMPORTS))
def test_the_names_paddlenlp_imports_exist(paddle):
    return [hasattr(_module(paddle, path), name) for path, name in PADDLENLP_IMPORTS]


def _hybrid_topology_of_one_rank(paddle):
    """Paddle's hybrid layers need the topology fleet.init builds (every degree 1 here); paddlelite's have no other."""
    if paddle.__name__ == "paddle":
        fleet = _module(paddle, "distributed.fleet")
        strategy = fleet.DistributedStrategy()
        strategy.hybrid_configs = {"dp_degree": 1, "mp_degree": 1, "pp_degree": 1}
        fleet.init(is_collective=True, strategy=strategy)


@differential()
def test_model_parallel_layers_at_degree_one_are_embedding_and_linear(paddle):
    mp = _module(paddle, "distributed.fleet.meta_parallel")
    _hybrid_topology_of_one_rank(paddle)
    rng = np.random.RandomState(0)
    embedding = mp.VocabParallelEmbedding(10, 4)
    column = mp.ColumnParallelLinear(4, 6, has_bias=True, gather_output=True)
    row = mp.RowParallelLinear(6, 3, has_bias=True, input_is_parallel=False)
    layers = [embedding, column, row]
    for layer in layers:
        for param in layer.parameters():
            param.set_value(rng.uniform(-1, 1, param.shape).astype("float32"))
    ids = paddle.to_tensor([[1, 2, 3], [4, 0, 9]])
    out = row(column(embedding(ids)))
    out.sum().backward()
    return {"names": [p.name for layer in layers for p in layer.parameters()],
            "distributed": [p.is_distributed for layer in layers for p in layer.parameters()],
            "no_bias": mp.ColumnParallelLinear(4, 6).bias is None,
            "out": out, "grad": column.weight.grad}


def test_parallel_cross_entropy_at_degree_one_is_softmax_with_cross_entropy():
    # Paddle's returns None on a one-rank model-parallel group (its one-rank groups are not "members"); here the loss
    import paddlelite as paddle
    from paddlelite.distributed.fleet.meta_parallel import ParallelCrossEntropy
    logits = paddle.to_tensor(np.random.RandomState(1).rand(2, 3, 5).astype("float32"))
    label = paddle.to_tensor([[1, 2, 0], [3, 4, 1]])
    expected = paddle.nn.functional.softmax_with_cross_entropy(logits, label.unsqueeze(-1))
    np.testing.assert_allclose(ParallelCrossEntropy()(logits, label).numpy(), expected.numpy())
    np.testing.assert_allclose(ParallelCrossEntropy()(logits, label.unsqueeze(-1)).numpy(), expected.numpy())


def test_a_multi_rank_model_parallel_group_is_not_implemented():
    from paddlelite.distributed.fleet.meta_parallel import ColumnParallelLinear

    class Group:
        nranks = 2

    with pytest.raises(NotImplementedError, match="ColumnParallelLinear over 2 ranks.*hybrid parallelism"):
        ColumnParallelLinear(4, 6, mp_group=Group())


@pytest.mark.parametrize("path, name, feature", [
    ("distributed.fleet.model", "PipelineParallel", "pipeline parallelism"),
    ("distributed.fleet.meta_optimizers.dygraph_optimizer", "HybridParallelOptimizer", "hybrid parallelism"),
    ("distributed.fleet.meta_parallel.sharding.group_sharded_optimizer_stage2", "GroupShardedOptimizerStage2",
     "sharded data parallelism"),
    ("distributed.fleet.utils.sequence_parallel_utils", "ColumnSequenceParallelLinear", "hybrid parallelism"),
    ("distributed.fleet.base.topology", "HybridCommunicateGroup", "hybrid parallelism"),
])
def test_multi_process_classes_raise_when_created_and_can_be_subclassed(path, name, feature):
    cls = getattr(importlib.import_module(f"paddlelite.{path}"), name)
    sub = type("Sub", (cls,), {})
    assert not isinstance(object(), cls)
    for make in (cls, sub):
        with pytest.raises(NotImplementedError, match=rf"paddle\.distributed\.[\w.]*\.{name} belongs to {feature}"):
            make(1, key=2)


@pytest.mark.parametrize("call", ["load", "setup", "CppExtension", "BuildExtension"])
def test_custom_operators_are_not_implemented(call):
    from paddlelite.utils import cpp_extension
    with pytest.raises(NotImplementedError, match=f"cpp_extension.{call}: custom C\\+\\+/CUDA operators"):
        getattr(cpp_extension, call)()


@differential(expected={"inside_is_fresh_seed": True, "outside_untouched": True, "states": ["a", "b"],
                        "seed_again": "ValueError", "name_again": "ValueError", "unknown": "ValueError"})
def test_rng_states_tracker(paddle):
    tracker_module = _module(paddle, "distributed.fleet.meta_parallel")
    tracker = tracker_module.RNGStatesTracker()
    paddle.seed(7)
    plain = paddle.rand([4]).numpy()
    paddle.seed(7)
    tracker.add("a", 123)
    tracker.add("b", 456)
    with tracker.rng_state("a"):
        inside = paddle.rand([4]).numpy()
    after = paddle.rand([4]).numpy()
    paddle.seed(123)
    fresh = paddle.rand([4]).numpy()

    def enter_unknown():
        with tracker.rng_state("c"):
            pass

    return {"inside_is_fresh_seed": bool(np.array_equal(inside, fresh)),
            "outside_untouched": bool(np.array_equal(after, plain)),
            "states": sorted(tracker.get_states_tracker()),
            "seed_again": _error(lambda: tracker.add("c", 123)), "name_again": _error(lambda: tracker.add("a", 9)),
            "unknown": _error(enter_unknown)}


@differential()
def test_recompute_gives_the_values_and_gradients_of_the_function(paddle):
    recompute = _module(paddle, "distributed.fleet.utils").recompute
    rng = np.random.RandomState(2)
    linear = paddle.nn.Linear(4, 3)
    linear.weight.set_value(rng.uniform(-1, 1, (4, 3)).astype("float32"))
    x = paddle.to_tensor(rng.rand(5, 4).astype("float32"), stop_gradient=False)

    def block(x, scale):
        return paddle.tanh(linear(x)) * scale

    out = recompute(block, x, 2.0)
    (out * out).sum().backward()
    return {"out": out, "x_grad": x.grad, "w_grad": linear.weight.grad, "b_grad": linear.bias.grad}


def test_recompute_repeats_the_dropout_mask_and_frees_the_activations():
    import paddlelite as paddle
    from paddlelite.distributed.fleet.utils import recompute
    x = paddle.to_tensor(np.random.RandomState(3).rand(6, 8).astype("float32"), stop_gradient=False)

    def block(x):
        return paddle.nn.functional.dropout(paddle.exp(x), 0.5)

    paddle.seed(11)
    direct = block(x)
    direct.sum().backward()
    expected = x.grad.numpy().copy()
    x.clear_gradient()
    paddle.seed(11)
    out = recompute(block, x)
    out.sum().backward()
    np.testing.assert_array_equal(out.numpy(), direct.numpy())
    np.testing.assert_array_equal(x.grad.numpy(), expected)


@differential(expected={"inside": ["custom_black_list", "custom_white_list", "dtype", "enable", "level",
                                    "use_promote"], "level": "O2", "enable": True, "restored": True})
def test_amp_state(paddle):
    # (what it is outside any block depends, in Paddle, on the blocks other code left: here None, tested below)
    amp_state = _module(paddle, "amp.auto_cast").amp_state
    outside = amp_state()
    with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
        state = amp_state()
    return {"inside": sorted(state), "level": state["level"], "enable": state["enable"],
            "restored": amp_state() is outside}


def test_amp_state_is_none_outside_auto_cast():
    from paddlelite.amp.auto_cast import amp_state
    assert amp_state() is None


@differential(expected=[False, True, False])
def test_in_declarative_mode_is_true_while_to_static_traces(paddle):
    layers = _module(paddle, "nn.layer.layers")
    seen = []

    def double(x):
        seen.append(layers.in_declarative_mode())
        return x * 2

    paddle.jit.to_static(double, full_graph=True)(paddle.ones([2]))
    paddle.enable_static()
    in_static = layers.in_declarative_mode()
    paddle.disable_static()
    return [layers.in_declarative_mode(), seen[0], in_static]


@differential()
def test_convert_attention_mask(paddle):
    convert = _module(paddle, "nn.layer.transformer")._convert_attention_mask
    keep = [[1, 0], [1, 1]]
    return {"int": convert(paddle.to_tensor(keep, dtype="int32"), "float32"),
            "bool": convert(paddle.to_tensor(keep, dtype="bool"), "float32"),
            "float64": convert(paddle.to_tensor([[0.0, -1.0]], dtype="float64"), "float32"),
            "same": convert(paddle.to_tensor([[0.5, -1.0]]), "float32"), "none": convert(None, "float32")}


def _error(call):
    """The class name of what `call()` raises (None when it returns)."""
    try:
        call()
    except Exception as e:  # noqa: BLE001 -- the class is the answer
        return type(e).__name__
    return None


@differential(expected={"named": ["w_0", "w_1", "w_2"], "unnamed": [None, None], "bools": [False, False],
                        "list": ["ParamAttr", False, "ParamAttr"], "bad": "AssertionError"})
def test_convert_param_attr_to_list(paddle):
    convert = _module(paddle, "nn.layer.transformer")._convert_param_attr_to_list
    return {"named": [a.name for a in convert(paddle.ParamAttr(name="w"), 3)],
            "unnamed": [a.name for a in convert(None, 2)], "bools": convert(False, 2),
            "list": [type(a).__name__ if a is not False else False for a in convert([None, False, True], 3)],
            "bad": _error(lambda: convert([None], 2))}


def _zip(path, names):
    with zipfile.ZipFile(path, "w") as archive:
        for name in names:
            archive.writestr(name, "" if name.endswith("/") else f"content of {name}\n")


@differential(expected={"dir": "spa-eng", "text": "content of spa-eng/spa.txt\n", "single": "one.txt",
                        "several": "several", "several_files": ["a.txt", "b.txt"], "not_url": "AssertionError",
                        "endpoints": ["10.0.0.1:6170", "10.0.0.2:6170"], "is_url": [True, False]})
def test_get_path_from_url_unpacks_an_archive_already_there(paddle):
    download = _module(paddle, "utils.download")
    with tempfile.TemporaryDirectory() as root:
        _zip(os.path.join(root, "spa-eng.zip"), ["spa-eng/", "spa-eng/spa.txt"])
        _zip(os.path.join(root, "one.zip"), ["one.txt"])
        _zip(os.path.join(root, "several.zip"), ["a.txt", "b.txt"])
        url = "http://example.invalid/data/"
        unpacked = download.get_path_from_url(url + "spa-eng.zip", root)
        with open(os.path.join(root, "spa-eng", "spa.txt")) as f:
            text = f.read()
        single = download.get_path_from_url(url + "one.zip", root)
        several = download.get_path_from_url(url + "several.zip", root)
        result = {"dir": os.path.relpath(unpacked, root), "text": text, "single": os.path.relpath(single, root),
                  "several": os.path.relpath(several, root), "several_files": sorted(os.listdir(several)),
                  "not_url": _error(lambda: download.get_path_from_url(os.path.join(root, "one.zip"), root))}
    result["endpoints"] = sorted(download._get_unique_endpoints(["10.0.0.2:6170", "10.0.0.1:6170",
                                                                  "10.0.0.1:6171"]))
    result["is_url"] = [download.is_url("https://a/b.zip"), download.is_url("/a/b.zip")]
    return result


def test_get_path_from_url_does_not_download(tmp_path):
    from paddlelite.utils.download import get_path_from_url
    with pytest.raises(RuntimeError, match="does not exist, and paddlelite does not download.*fetch "
                                           "https://example.invalid/x.zip yourself into"):
        get_path_from_url("https://example.invalid/x.zip", str(tmp_path))
    (tmp_path / "x.zip").write_bytes(b"not an archive")
    with pytest.raises(RuntimeError, match="has a different MD5 than 0123"):
        get_path_from_url("https://example.invalid/x.zip", str(tmp_path), md5sum="0123")
    assert get_path_from_url("https://example.invalid/x.zip", str(tmp_path)) == str(tmp_path / "x.zip")


def test_get_path_from_url_keeps_archive_members_inside_the_directory(tmp_path):
    import io
    import tarfile

    from paddlelite.utils.download import get_path_from_url
    with tarfile.open(tmp_path / "evil.tar", "w") as tar:
        for name in ("../outside.txt", "evil/../../outside2.txt"):
            info = tarfile.TarInfo(name)
            info.size = 1
            tar.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(tarfile.TarError):
        get_path_from_url("https://example.invalid/evil.tar", str(tmp_path))
    assert not (tmp_path.parent / "outside.txt").exists() and not (tmp_path.parent / "outside2.txt").exists()


@differential(expected={"module": "json", "missing": "ImportError"})
def test_try_import(paddle):
    try_import = paddle.utils.try_import
    return {"module": try_import("json").__name__, "missing": _error(lambda: try_import("surely_not_a_module_name"))}


@differential()
def test_layer_helper_appends_ops_to_the_current_program(paddle):
    LayerHelper = _module(paddle, "common_ops_import").LayerHelper
    paddle.enable_static()
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 3], "float32")
        helper = LayerHelper("scale", name=None)
        out = helper.create_variable_for_type_inference("float32")
        helper.append_op(type="scale", inputs={"X": [x]}, outputs={"Out": [out]},
                         attrs={"scale": 3.0, "bias": 1.0})
    (value,) = paddle.static.Executor().run(main, feed={"x": np.arange(6, dtype="float32").reshape(2, 3)},
                                             fetch_list=[out])
    return {"name": out.name, "value": value, "op": main.global_block().ops[-1].type,
            "input": helper.input_dtype("missing")}


@differential(expected=[True, True, 64, 2])
def test_dataloader_iterators_share_paddles_base_class(paddle):
    base = _module(paddle, "io.dataloader.dataloader_iter")._DataLoaderIterBase
    loader = paddle.io.DataLoader(paddle.io.TensorDataset([paddle.arange(128, dtype="float32")]), batch_size=64)
    iterator = iter(loader)
    return [isinstance(iterator, base), iterator._dataset is loader.dataset, iterator._batch_sampler.batch_size,
            len(loader)]


@differential(expected=raises(ValueError))
def test_get_reduce_op_refuses_an_unknown_op(paddle):
    _module(paddle, "distributed.communication.reduce")._get_reduce_op(17)


@differential()
def test_obtain_optimizer_parameters_list(paddle):
    util = _module(paddle, "distributed.fleet.utils.hybrid_parallel_util")
    a, b = paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 1)
    plain = paddle.optimizer.SGD(parameters=a.parameters())
    groups = paddle.optimizer.SGD(parameters=[{"params": a.parameters()}, {"params": b.parameters()}])
    return [[p.shape for p in util.obtain_optimizer_parameters_list(plain)],
            [p.shape for p in util.obtain_optimizer_parameters_list(groups)]]


def test_fused_allreduce_gradients_on_one_rank_keeps_the_gradients():
    import paddlelite as paddle
    from paddlelite.distributed.fleet.utils.hybrid_parallel_util import fused_allreduce_gradients
    linear = paddle.nn.Linear(3, 2)
    linear(paddle.ones([4, 3])).sum().backward()
    before = linear.weight.grad.numpy().copy()
    fused_allreduce_gradients(linear.parameters(), None)
    np.testing.assert_array_equal(linear.weight.grad.numpy(), before)
    with pytest.raises(NotImplementedError, match="hybrid communicate group"):
        fused_allreduce_gradients(linear.parameters(), object())


TUTORIAL_IMPORTS = textwrap.dedent("""
    import paddle
    import paddlenlp
    from paddlenlp.data import Vocab
    from paddlenlp.metrics import BLEU
    from paddle.utils.download import get_path_from_url
    vocab = Vocab.build_vocab([["a", "b", "a"], ["c", "a"]], unk_token="<unk>", pad_token="<pad>")
    bleu = BLEU()
    bleu.add_inst(["the", "cat", "sat", "on", "the", "mat"], [["the", "cat", "sat", "on", "a", "mat"]])
    print(vocab.to_indices(["a", "c", "z"]), round(bleu.score(), 6), paddle.callbacks.VisualDL.__name__,
          paddlenlp.transformers.BertModel.__name__)
""")


def test_paddlenlp_imports_and_runs_under_paddlelite():
    """`import paddlenlp` and the tutorial's imports under `python -m paddlelite` (PaddleNLP installed: see
    tests/paddle_suite/README.md), printing what real Paddle prints."""
    pytest.importorskip("paddlenlp")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               PADDLELITE_AS_PADDLE="0")
    with tempfile.TemporaryDirectory() as scratch:
        script = os.path.join(scratch, "imports.py")
        with open(script, "w") as f:
            f.write(TUTORIAL_IMPORTS)
        ours = subprocess.run([sys.executable, "-m", "paddlelite", script], cwd=scratch, env=env, capture_output=True,
                              text=True, timeout=300)
        assert ours.returncode == 0, ours.stderr[-3000:]
        assert ours.stdout.splitlines()[-1] == "[2, 4, 1] 0.537285 VisualDL BertModel"


def test_pipeline_layer_with_one_stage_runs_its_layers_in_order():
    """Paddle's CPU build cannot build one (its ParallelEnv has no device id there): the model is checked against the
    same layers called by hand, and the parameter names against those Paddle's code gives (sublayer str(index),
    shared layers under shared_layers.<key>)."""
    import paddlelite as paddle
    from paddlelite.distributed.fleet import meta_parallel as mp
    nn = paddle.nn

    def tied_output(embedding, x):
        return paddle.matmul(x, embedding.weight, transpose_y=True)

    model = mp.PipelineLayer([mp.SharedLayerDesc("embed", nn.Embedding, None, "weight", 10, 4),
                              mp.LayerDesc(nn.Linear, 4, 4), nn.functional.relu, nn.Linear(4, 4),
                              mp.SharedLayerDesc("embed", nn.Embedding, tied_output, "weight", 10, 4)],
                             num_stages=1, loss_fn=nn.CrossEntropyLoss())
    assert {k: v.shape for k, v in model.state_dict().items()} == {
        "shared_layers.embed.weight": [10, 4], "1.weight": [4, 4], "1.bias": [4], "3.weight": [4, 4], "3.bias": [4]}
    assert model.get_stage_from_index(3) == 0 and isinstance(model._loss_fn[0], nn.CrossEntropyLoss)
    ids = paddle.to_tensor([[1, 2, 7]])
    out = model(ids)
    embedding, first, second = model.shared_layers["embed"], getattr(model, "1"), getattr(model, "3")
    expected = tied_output(embedding, second(nn.functional.relu(first(embedding(ids)))))
    np.testing.assert_allclose(out.numpy(), expected.numpy(), rtol=1e-6)


def test_pipeline_layer_over_several_stages_is_not_implemented():
    import paddlelite as paddle
    from paddlelite.distributed.fleet.meta_parallel import LayerDesc, PipelineLayer
    with pytest.raises(ValueError, match="should provide num_stages or topology"):
        PipelineLayer([LayerDesc(paddle.nn.Linear, 2, 2)])
    with pytest.raises(NotImplementedError, match="PipelineLayer with num_stages=2 belongs to pipeline parallelism"):
        PipelineLayer([LayerDesc(paddle.nn.Linear, 2, 2)], num_stages=2)


def test_pipeline_layer_recomputes_each_interval():
    import paddlelite as paddle
    from paddlelite.distributed.fleet.meta_parallel import LayerDesc, PipelineLayer
    layers = [LayerDesc(paddle.nn.Linear, 3, 3), paddle.nn.functional.tanh, LayerDesc(paddle.nn.Linear, 3, 2)]
    plain = PipelineLayer(layers, num_stages=1)
    again = PipelineLayer(layers, num_stages=1, recompute_interval=2, recompute_ctx={})
    again.set_state_dict(plain.state_dict())
    x = paddle.to_tensor(np.random.RandomState(5).rand(4, 3).astype("float32"), stop_gradient=False)
    outs = []
    for model in (plain, again):
        out = model(x)
        out.sum().backward()
        outs.append((out.numpy(), x.grad.numpy().copy(), model.parameters()[0].grad.numpy()))
        x.clear_gradient()
    for ours, expected in zip(outs[1], outs[0]):
        np.testing.assert_allclose(ours, expected, rtol=1e-6)
