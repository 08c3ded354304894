"""The models deployment tests carry across the border (issue 27): each builder takes the library (paddlelite or real
Paddle) and returns (layer in eval mode, input_spec, sample inputs as NumPy arrays). The layers are small so a
round trip through files runs in a second, but each uses the ops its family deploys with: matmuls and
activations, convolutions and pools, batch norms and residual adds, hard-swish and squeeze-excitation, an LSTM,
attention with layer norms, tensor-dependent `if`/`while` (cond and while_loop), a dynamic batch dimension."""
import numpy as np

RNG_SEED = 2024


def _images(n, c, h, w):
    return np.random.default_rng(RNG_SEED).standard_normal((n, c, h, w)).astype(np.float32)


def mlp(paddle):
    nn = paddle.nn
    layer = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10), nn.Softmax())
    x = np.random.default_rng(RNG_SEED).standard_normal((4, 16)).astype(np.float32)
    return layer, [paddle.static.InputSpec([None, 16], "float32", "x")], [x]


def lenet(paddle):
    return (paddle.vision.models.LeNet(num_classes=10), [paddle.static.InputSpec([None, 1, 28, 28], "float32", "img")],
            [_images(2, 1, 28, 28)])


def resnet18(paddle):
    return (paddle.vision.models.resnet18(num_classes=10), [paddle.static.InputSpec([None, 3, 32, 32], "float32", "img")],
            [_images(2, 3, 32, 32)])


def mobilenet_v3(paddle):
    return (paddle.vision.models.mobilenet_v3_small(num_classes=10, scale=0.5),
            [paddle.static.InputSpec([None, 3, 32, 32], "float32", "img")], [_images(2, 3, 32, 32)])


def lstm_classifier(paddle):
    nn = paddle.nn

    class LSTMClassifier(nn.Layer):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(50, 16)
            self.lstm = nn.LSTM(16, 24, num_layers=1)
            self.head = nn.Linear(24, 4)

        def forward(self, ids):
            out, (h, c) = self.lstm(self.embedding(ids))
            return self.head(h[-1])

    ids = np.random.default_rng(RNG_SEED).integers(0, 50, (3, 7)).astype(np.int64)
    return LSTMClassifier(), [paddle.static.InputSpec([None, 7], "int64", "ids")], [ids]


def transformer_encoder(paddle):
    nn = paddle.nn

    class Encoder(nn.Layer):
        def __init__(self):
            super().__init__()
            self.embedding = nn.Embedding(40, 32)
            layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1)
            self.encoder = nn.TransformerEncoder(layer, 2)
            self.head = nn.Linear(32, 5)

        def forward(self, ids):
            h = self.encoder(self.embedding(ids))
            return self.head(paddle.mean(h, axis=1))

    ids = np.random.default_rng(RNG_SEED).integers(0, 40, (2, 9)).astype(np.int64)
    return Encoder(), [paddle.static.InputSpec([None, 9], "int64", "ids")], [ids]


def control_flow(paddle):
    """A tensor-dependent `if` (cond) and `while` (while_loop), converted by to_static."""
    nn = paddle.nn

    class Gated(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(8, 8)

        def forward(self, x):
            h = self.fc(x)
            if paddle.mean(h) > 0:
                h = paddle.tanh(h)
            else:
                h = h * 0.5
            i = paddle.zeros([1], dtype="int64")
            while i < 3:
                h = self.fc(h)
                i = i + 1
            return h

    x = np.random.default_rng(RNG_SEED).standard_normal((3, 8)).astype(np.float32)
    return Gated(), [paddle.static.InputSpec([None, 8], "float32", "x")], [x]


def dynamic_batch(paddle):
    """Shapes computed from the batch size at run time: a reshape by `paddle.shape` and a flatten."""
    nn = paddle.nn

    class Pooled(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(3, 4, 3, padding=1)
            self.fc = nn.Linear(4 * 8 * 8, 6)

        def forward(self, x):
            h = nn.functional.relu(self.conv(x))
            h = paddle.reshape(h, [paddle.shape(h)[0], -1])
            return self.fc(h)

    return Pooled(), [paddle.static.InputSpec([None, 3, 8, 8], "float32", "x")], [_images(5, 3, 8, 8)]


ZOO = {"mlp": mlp, "lenet": lenet, "resnet18": resnet18, "mobilenet_v3": mobilenet_v3,
       "lstm_classifier": lstm_classifier, "transformer_encoder": transformer_encoder, "control_flow": control_flow,
       "dynamic_batch": dynamic_batch}


def build(paddle, name, seed=0):
    """(layer in eval mode, input_spec, inputs) of zoo model `name`, its parameters drawn from `seed`."""
    paddle.seed(seed)
    layer, spec, inputs = ZOO[name](paddle)
    layer.eval()
    return layer, spec, inputs
