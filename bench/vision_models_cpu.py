"""The forward time of every paddle.vision.models constructor on one image (224x224; inception_v3 299x299), eval
mode under no_grad, paddlelite beside real Paddle 3.3.1 in the same process (issue 26 item 8: each within 3x of
Paddle's CPU time). Best of two timed forwards after one warm-up, default threads for both; one line per model.

Run: python bench/vision_models_cpu.py [resnet18 vgg11 ...]
"""
import os
import sys
import time

import numpy as np

os.environ.setdefault("FLAGS_enable_pir_api", "0")


def _timed(lib, name, image):
    size = 299 if name == "inception_v3" else 224
    net = getattr(lib.vision.models, name)()
    net.eval()
    x = lib.to_tensor(np.resize(image, (1, 3, size, size)))
    with lib.no_grad():
        net(x)
        best = float("inf")
        for _ in range(2):
            start = time.perf_counter()
            net(x)
            best = min(best, time.perf_counter() - start)
    return best


def main(names):
    import paddle

    import paddlelite
    paddle.set_device("cpu")
    names = names or [n for n in paddlelite.vision.models.__all__ if n[0].islower()]
    image = np.random.RandomState(0).normal(size=(1, 3, 224, 224)).astype("float32")
    for name in names:
        ref, ours = _timed(paddle, name, image), _timed(paddlelite, name, image)
        print(f"{name:24s} paddle {ref * 1000:8.1f} ms  paddlelite {ours * 1000:8.1f} ms  ratio {ours / ref:5.2f}",
              flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
