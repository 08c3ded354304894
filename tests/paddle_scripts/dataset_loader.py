"""A custom Dataset, a DataLoader with worker processes and a hand-written training loop."""
import numpy as np
import paddle
from paddle import nn
from paddle.io import DataLoader, Dataset


class LineDataset(Dataset):
    def __init__(self, n=128):
        rng = np.random.default_rng(0)
        self.x = rng.standard_normal((n, 4)).astype("float32")
        self.y = (self.x @ np.array([[1.0], [-2.0], [0.5], [3.0]], dtype="float32")).astype("float32")

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]

    def __len__(self):
        return len(self.x)


paddle.seed(0)
net = nn.Linear(4, 1)
opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
loader = DataLoader(LineDataset(), batch_size=16, shuffle=True, num_workers=2, drop_last=True)
for epoch in range(5):
    for x, y in loader():
        loss = paddle.nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
    print(f"epoch {epoch} loss {float(loss):.5f}")
assert isinstance(x, paddle.Tensor) and x.shape == [16, 4], (type(x), x.shape)
