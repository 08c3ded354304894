"""Paddle's LeNet quick-start, on synthetic digits: paddle.Model fit/evaluate, then jit.save and paddle.save.
Usage: lenet_model.py OUT_DIR"""
import sys

import numpy as np
import paddle
import paddle.nn.functional as F
from paddle.io import Dataset
from paddle.metric import Accuracy
from paddle.nn import Conv2D, Linear, MaxPool2D
from paddle.static import InputSpec


class LeNet(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv1 = Conv2D(in_channels=1, out_channels=6, kernel_size=5, padding=2)
        self.pool1 = MaxPool2D(kernel_size=2, stride=2)
        self.conv2 = Conv2D(in_channels=6, out_channels=16, kernel_size=5)
        self.pool2 = MaxPool2D(kernel_size=2, stride=2)
        self.fc1 = Linear(in_features=16 * 5 * 5, out_features=32)
        self.fc2 = Linear(in_features=32, out_features=2)

    def forward(self, x):
        x = self.pool1(F.relu(self.conv1(x)))
        x = self.pool2(F.relu(self.conv2(x)))
        x = paddle.flatten(x, start_axis=1, stop_axis=-1)
        return self.fc2(F.relu(self.fc1(x)))


class BrightHalf(Dataset):
    """Label 1 when the image's left half is the bright one."""

    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, 2, n).astype("int64")
        self.images = rng.random((n, 1, 28, 28)).astype("float32") * 0.5
        for i, label in enumerate(self.labels):
            self.images[i, :, :, :14] += label
            self.images[i, :, :, 14:] += 1 - label

    def __getitem__(self, idx):
        return self.images[idx], self.labels[idx:idx + 1]

    def __len__(self):
        return len(self.labels)


paddle.seed(0)
model = paddle.Model(LeNet(), inputs=[InputSpec([None, 1, 28, 28], "float32", "image")],
                     labels=[InputSpec([None, 1], "int64", "label")])
model.prepare(paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters()),
              paddle.nn.CrossEntropyLoss(), Accuracy())
model.fit(BrightHalf(64, 0), epochs=2, batch_size=16, verbose=0)
result = model.evaluate(BrightHalf(32, 1), batch_size=16, verbose=0)
print("accuracy", result["acc"])

out = sys.argv[1]
paddle.jit.save(model.network, out + "/lenet", input_spec=[InputSpec([None, 1, 28, 28], "float32")])
paddle.save(model.network.state_dict(), out + "/lenet.pdparams")
