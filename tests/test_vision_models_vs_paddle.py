"""paddle.vision.models against real Paddle 3.3.1: the same parameters and buffers (names, shapes) for every
family, and the same outputs when Paddle's weights are copied into ours."""
import numpy as np
import pytest

import paddlelite
import paddlelite.vision.models as models

# one constructor per family and configuration branch (the deeper variants differ only in their tables)
STRUCTURES = [("LeNet", {}), ("resnet18", {}), ("resnet50", {"num_classes": 10}), ("resnext50_32x4d", {"num_classes": 0}),
              ("vgg11", {"batch_norm": True, "num_classes": 0}), ("mobilenet_v1", {"scale": 0.5}),
              ("mobilenet_v2", {}), ("mobilenet_v3_small", {}), ("mobilenet_v3_large", {"scale": 0.75}),
              ("densenet121", {"with_pool": False, "num_classes": 0}), ("alexnet", {"num_classes": 10}),
              ("inception_v3", {}), ("squeezenet1_0", {}), ("squeezenet1_1", {"num_classes": 10}),
              ("googlenet", {}), ("shufflenet_v2_x0_25", {}), ("shufflenet_v2_swish", {})]


def _shapes(model):
    return {k: list(v.shape) for k, v in model.state_dict().items()}


@pytest.mark.parametrize("name,kwargs", STRUCTURES, ids=[s[0] for s in STRUCTURES])
def test_same_state_dict_as_paddle(name, kwargs):
    paddle = pytest.importorskip("paddle")
    ours, theirs = getattr(models, name)(**kwargs), getattr(paddle.vision.models, name)(**kwargs)
    assert list(_shapes(ours).items()) == list(_shapes(theirs).items())


# (constructor, kwargs, input shape): small inputs, eval mode (BatchNorm uses the copied running statistics)
OUTPUTS = [("LeNet", {}, [2, 1, 28, 28]), ("resnet18", {"num_classes": 7}, [2, 3, 32, 32]),
           ("mobilenet_v2", {"scale": 0.5, "num_classes": 5}, [1, 3, 32, 32]),
           ("mobilenet_v3_small", {"num_classes": 5}, [1, 3, 32, 32]), ("squeezenet1_1", {"num_classes": 4}, [1, 3, 40, 40]),
           ("shufflenet_v2_x0_25", {"num_classes": 3}, [1, 3, 32, 32]), ("vgg11", {"with_pool": False, "num_classes": 0},
                                                                     [1, 3, 32, 32]),
           ("densenet121", {"num_classes": 5}, [1, 3, 32, 32]), ("mobilenet_v1", {"scale": 0.25, "num_classes": 5},
                                                                 [1, 3, 32, 32]),
           ("squeezenet1_0", {"num_classes": 5}, [1, 3, 64, 64]), ("shufflenet_v2_swish", {"num_classes": 5}, [1, 3, 32, 32])]


@pytest.mark.parametrize("name,kwargs,shape", OUTPUTS, ids=[o[0] for o in OUTPUTS])
def test_same_outputs_with_paddles_weights(name, kwargs, shape):
    paddle = pytest.importorskip("paddle")
    paddle.seed(3)
    theirs = getattr(paddle.vision.models, name)(**kwargs)
    theirs.eval()
    # nontrivial running statistics, so eval-mode BatchNorm is exercised
    state = {k: v.numpy() for k, v in theirs.state_dict().items()}
    rng = np.random.RandomState(0)
    for k, v in state.items():
        if k.endswith(("_mean", "_variance")):
            state[k] = (rng.uniform(0.5, 1.5, v.shape) if k.endswith("_variance") else rng.normal(0, 0.1, v.shape)
                        ).astype(v.dtype)
    theirs.set_state_dict({k: paddle.to_tensor(v) for k, v in state.items()})
    ours = getattr(models, name)(**kwargs)
    ours.set_state_dict({k: paddlelite.to_tensor(v) for k, v in state.items()})
    ours.eval()
    x = np.random.RandomState(1).normal(size=shape).astype("float32")
    np.testing.assert_allclose(ours(paddlelite.to_tensor(x)).numpy(), theirs(paddle.to_tensor(x)).numpy(),
                               rtol=2e-4, atol=2e-5)


def test_train_mode_runs_backward():
    model = models.mobilenet_v3_small(scale=0.5, num_classes=3)
    out = model(paddlelite.rand([2, 3, 32, 32]))
    out.sum().backward()
    assert out.shape == [2, 3] and all(p.grad is not None for p in model.parameters() if not p.stop_gradient)


def test_googlenet_returns_three_heads():
    outs = models.googlenet(num_classes=4)(paddlelite.rand([1, 3, 224, 224]))
    assert [list(o.shape) for o in outs] == [[1, 4]] * 3


def test_pretrained_needs_a_local_path(tmp_path):
    with pytest.raises(ValueError, match="resnet18.*pretrained='<path"):
        models.resnet18(pretrained=True)
    source = models.LeNet()
    path = str(tmp_path / "lenet.pdparams")
    paddlelite.save(source.state_dict(), path)
    from paddlelite.vision.models._utils import load_pretrained
    loaded = load_pretrained(models.LeNet(), "lenet", path)
    for k, v in source.state_dict().items():
        np.testing.assert_array_equal(loaded.state_dict()[k].numpy(), v.numpy())
    with pytest.raises(TypeError, match="pretrained must be a bool or a path"):
        models.squeezenet1_1(pretrained=3)
