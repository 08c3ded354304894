"""paddle.vision and paddle.Model, single-threaded on the CPU: paddlelite against real Paddle 3.3.1 in the same run.

* resnet18 (10 classes), one training step through paddle.Model.train_batch, batch 8 of 3x64x64
* mobilenet_v2 (scale 0.5) inference, batch 8 of 3x64x64
* a Tensor transform pipeline per image: Resize(40) -> RandomCrop(32) -> RandomHorizontalFlip -> ColorJitter ->
  Normalize, on a 3x48x48 float image

Run: pytest bench/test_bench_vision.py --benchmark-only --benchmark-group-by=group
"""
import random

import numpy as np
import pytest

from bench.references import LIBS

X = np.random.RandomState(0).normal(size=(8, 3, 64, 64)).astype("float32")
Y = np.random.RandomState(1).randint(0, 10, size=(8, 1)).astype("int64")
IMAGE = np.random.RandomState(2).uniform(size=(3, 48, 48)).astype("float32")

@pytest.mark.parametrize("lib", LIBS)
def test_resnet18_train_step(benchmark, lib):
    paddle = LIBS[lib]()
    benchmark.group = "resnet18 Model.train_batch, batch 8, 64x64"
    model = paddle.Model(paddle.vision.models.resnet18(num_classes=10))
    model.prepare(paddle.optimizer.Momentum(learning_rate=0.01, parameters=model.parameters()),
                  paddle.nn.CrossEntropyLoss())
    model.train_batch([X], [Y])
    benchmark(model.train_batch, [X], [Y])


@pytest.mark.parametrize("lib", LIBS)
def test_mobilenet_v2_inference(benchmark, lib):
    paddle = LIBS[lib]()
    benchmark.group = "mobilenet_v2(0.5) inference, batch 8, 64x64"
    net = paddle.vision.models.mobilenet_v2(scale=0.5, num_classes=10)
    net.eval()
    x = paddle.to_tensor(X)

    def infer():
        with paddle.no_grad():
            return net(x)
    infer()
    benchmark(infer)


@pytest.mark.parametrize("lib", LIBS)
def test_transform_pipeline(benchmark, lib):
    paddle = LIBS[lib]()
    benchmark.group = "Tensor transforms pipeline, 3x48x48"
    T = paddle.vision.transforms
    pipeline = T.Compose([T.Resize(40), T.RandomCrop(32), T.RandomHorizontalFlip(), T.ColorJitter(0.3, 0.3, 0.3, 0.1),
                          T.Normalize([0.5] * 3, [0.2] * 3)])
    image = paddle.to_tensor(IMAGE)
    random.seed(0)
    np.random.seed(0)
    benchmark(pipeline, image)
