"""paddle.Model in static mode: fit and evaluate a linear regression on a custom Dataset."""
import numpy as np
import paddle
from paddle.io import Dataset
from paddle.static import InputSpec


class Lines(Dataset):
    def __init__(self):
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal((64, 13)).astype("float32")
        self.y = (self.x @ rng.standard_normal((13, 1))).astype("float32")

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]

    def __len__(self):
        return len(self.x)


paddle.enable_static()
model = paddle.Model(paddle.nn.Linear(13, 1), inputs=[InputSpec([None, 13], "float32", "x")],
                     labels=[InputSpec([None, 1], "float32", "y")])
model.prepare(paddle.optimizer.SGD(learning_rate=0.05, parameters=model.parameters()), paddle.nn.MSELoss())
model.fit(Lines(), epochs=20, batch_size=16, verbose=0)
loss = model.evaluate(Lines(), batch_size=64, verbose=0)["loss"][0]
print("static fit loss", loss)
assert loss < 0.05, loss
