"""paddle.inference: Config, create_predictor and the Predictor's named handles serving saved inference models --
ours, and real Paddle's, against real Paddle's own predictor on the same files."""
import numpy as np
import pytest

import paddlelite as paddle
from paddlelite import inference
from tests.deploy_zoo import build
from tests.differential import differential, raises, reference_paddle


def _save(tmp_path, name):
    layer, spec, inputs = build(paddle, name)
    prefix = str(tmp_path / name)
    paddle.jit.save(layer, prefix, input_spec=spec)
    return prefix, inputs, layer(*[paddle.to_tensor(a) for a in inputs]).numpy()


def _serve(lib, prefix, inputs):
    """What `lib`'s predictor computes from the files at `prefix` through its handles."""
    config = lib.inference.Config(prefix + ".pdmodel", prefix + ".pdiparams")
    config.disable_glog_info()
    predictor = lib.inference.create_predictor(config)
    for name, a in zip(predictor.get_input_names(), inputs):
        handle = predictor.get_input_handle(name)
        handle.reshape(list(a.shape))
        handle.copy_from_cpu(a)
    predictor.run()
    out = predictor.get_output_handle(predictor.get_output_names()[0])
    return out.copy_to_cpu(), out.shape(), out.type()


@pytest.mark.parametrize("name", ["mlp", "control_flow", "lstm_classifier"])
def test_the_predictor_serves_what_jit_save_wrote(tmp_path, name):
    prefix, inputs, expected = _save(tmp_path, name)
    got, shape, dtype = _serve(paddle, prefix, inputs)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    assert shape == list(expected.shape) and dtype == inference.DataType.FLOAT32


def test_run_on_tensors_clone_and_a_new_batch_size(tmp_path):
    prefix, inputs, _ = _save(tmp_path, "dynamic_batch")
    predictor = inference.create_predictor(inference.Config(prefix + ".pdmodel", prefix + ".pdiparams"))
    outs = predictor.run([paddle.to_tensor(inputs[0][:2])])
    assert isinstance(outs[0], paddle.Tensor) and outs[0].shape == [2, 6]
    twin = predictor.clone()
    (again,) = twin.run([paddle.to_tensor(inputs[0])])
    np.testing.assert_allclose(again.numpy()[:2], outs[0].numpy(), rtol=1e-5, atol=1e-6)


def test_bad_use_is_a_clear_error(tmp_path):
    prefix, inputs, _ = _save(tmp_path, "mlp")
    with pytest.raises(RuntimeError, match="nowhere.pdmodel"):
        inference.Config(str(tmp_path / "nowhere.pdmodel"), str(tmp_path / "nowhere.pdiparams"))
    with pytest.raises(TypeError, match="Config"):
        inference.create_predictor(prefix)
    predictor = inference.create_predictor(inference.Config(prefix + ".pdmodel", prefix + ".pdiparams"))
    with pytest.raises(RuntimeError, match="no input 'nope'.*\\['x'\\]"):
        predictor.get_input_handle("nope")
    with pytest.raises(TypeError, match="copy_from_cpu.*numpy.ndarray.*list"):
        predictor.get_input_handle("x").copy_from_cpu([1.0, 2.0])
    with pytest.raises(RuntimeError, match=r"\['x'\] have no value"):
        predictor.run()
    with pytest.raises(TypeError, match="list of 1 Tensors"):
        predictor.run([inputs[0]])


def test_the_enums_are_paddles():
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    for ours, theirs in ((inference.DataType, ref.inference.DataType), (inference.PlaceType, ref.inference.PlaceType),
                         (inference.PrecisionType, ref.inference.PrecisionType)):
        assert {m.name: int(m) for m in ours} == {n: int(getattr(theirs, n)) for n in dir(theirs)
                                                 if n[0].isupper() and n not in ("name", "value")}
    assert inference.get_num_bytes_of_data_type(inference.DataType.INT64) == \
        ref.inference.get_num_bytes_of_data_type(ref.inference.DataType.INT64)


@pytest.mark.parametrize("name", ["resnet18", "dynamic_batch"])
def test_both_predictors_agree_on_what_real_paddle_wrote(tmp_path, name):
    ref = reference_paddle()
    if ref is None:
        pytest.skip("real Paddle is not installed")
    layer, spec, inputs = build(ref, name)
    prefix = str(tmp_path / name)
    ref.jit.save(layer, prefix, input_spec=spec)
    theirs, their_shape, _ = _serve(ref, prefix, inputs)
    ours, our_shape, _ = _serve(paddle, prefix, inputs)
    np.testing.assert_allclose(ours, theirs, rtol=1e-4, atol=1e-5)
    assert our_shape == their_shape


@differential(expected={"names": ["add", "matmul", "sum", "full", "reshape_with_xshape", "reshape_grad",
                                  "multiply_double_grad", "relu", "not_an_op"]})
def test_phi_kernel_names_are_paddles(paddle):
    names = ["elementwise_add", "matmul_v2", "reduce_sum", "fill_constant", "reshape2", "reshape2_grad",
             "elementwise_mul_grad_grad", "relu", "not_an_op"]
    return {"names": [paddle.inference._get_phi_kernel_name(n) for n in names]}


def test_every_phi_kernel_name_is_paddles():
    real = pytest.importorskip("paddle")
    from paddlelite.inference.phi_kernel_names import PHI_KERNEL_NAMES
    from paddlelite.ops.registry import _REGISTRY
    for name in {*PHI_KERNEL_NAMES, *_REGISTRY}:
        assert inference._get_phi_kernel_name(name) == real.inference._get_phi_kernel_name(name), name


@differential(expected={"defaults": [0, 0, -1, None, 1, True, 10.0, []], "set": [1048576, 20.0, ["conv2d"]],
                        "use_xpu": False, "device": 0})
def test_xpu_config_holds_paddles_settings(paddle):
    config = paddle.inference.XpuConfig()
    names = ["device_id", "l3_size", "context_gm_size", "stream", "gemm_compute_precision",
             "transformer_encoder_adaptive_seqlen", "quant_post_static_gelu_out_threshold", "quant_post_dynamic_op_types"]
    defaults = [getattr(config, n) for n in names]
    config.l3_size, config.quant_post_static_gelu_out_threshold = 1 << 20, 20
    config.quant_post_dynamic_op_types = ["conv2d"]
    predictor_config = paddle.inference.Config()
    return {"defaults": defaults, "use_xpu": predictor_config.use_xpu(), "device": predictor_config.xpu_device_id(),
            "set": [config.l3_size, config.quant_post_static_gelu_out_threshold, config.quant_post_dynamic_op_types]}


@pytest.mark.parametrize("bad", ["unknown_attribute", "wrong_type", "set_before_enable", "enable"])
def test_xpu_misuse_raises_as_paddle(bad):
    @differential(expected=raises({"unknown_attribute": AttributeError, "wrong_type": TypeError}.get(bad, RuntimeError)))
    def body(paddle):
        config = paddle.inference.XpuConfig()
        {"unknown_attribute": lambda: setattr(config, "l3", 1),
         "wrong_type": lambda: setattr(config, "l3_size", "big"),
         "set_before_enable": lambda: paddle.inference.Config().set_xpu_config(config),
         "enable": lambda: paddle.inference.Config().enable_xpu()}[bad]()
    body()
