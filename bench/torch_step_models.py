"""PyTorch twins of tests/step_models.py's models and training steps (the same layers, sizes, optimizers and
batches), for comparing launches and step times on one GPU (bench/profile_steps.py)."""
import math

import numpy as np

from tests.step_models import CHAR_BLOCK, CHAR_VOCAB, GPT_BLOCK, GPT_D, GPT_HEADS, GPT_VOCAB, MODELS


def _mlp(torch):
    nn = torch.nn
    return nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))


def _cnn(torch):
    nn = torch.nn
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1),
                         nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16 * 7 * 7, 10))


def _encoder(torch):
    nn = torch.nn

    class Encoder(nn.Module):
        def __init__(self):
            super().__init__()
            layer = nn.TransformerEncoderLayer(256, 4, 512, dropout=0.0, batch_first=True)
            self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.head = nn.Linear(256, 10)

        def forward(self, x):
            return self.head(self.enc(x).mean(dim=1))
    return Encoder()


def _char_transformer(torch, d_model=64):
    nn = torch.nn

    class CharTransformer(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok, self.pos = nn.Embedding(CHAR_VOCAB, d_model), nn.Embedding(CHAR_BLOCK, d_model)
            layer = nn.TransformerEncoderLayer(d_model, 4, 4 * d_model, dropout=0.0, activation="gelu",
                                               batch_first=True, norm_first=True)
            self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.norm, self.head = nn.LayerNorm(d_model), nn.Linear(d_model, CHAR_VOCAB)
            self.register_buffer("causal_mask", torch.triu(torch.full((CHAR_BLOCK, CHAR_BLOCK), -1e9), 1))

        def forward(self, idx):
            t = idx.shape[1]
            h = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
            return self.head(self.norm(self.encoder(h, mask=self.causal_mask[:t, :t])))
    return CharTransformer()


def _resnet18(torch):
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1, self.bn1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout)
            self.conv2, self.bn2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout)
            self.down = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                         if stride != 1 or cin != cout else None)

        def forward(self, x):
            out = torch.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return torch.relu(out + (x if self.down is None else self.down(x)))

    layers = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        layers += [Block(cin, cout, stride), Block(cout, cout, 1)]
        cin = cout
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10))


def _gpt(torch):
    nn, F = torch.nn, torch.nn.functional

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(GPT_D), nn.LayerNorm(GPT_D)
            self.qkv, self.proj = nn.Linear(GPT_D, 3 * GPT_D), nn.Linear(GPT_D, GPT_D)
            self.fc, self.out = nn.Linear(GPT_D, 4 * GPT_D), nn.Linear(4 * GPT_D, GPT_D)

        def forward(self, h):
            b, t, _ = h.shape
            qkv = self.qkv(self.ln1(h)).reshape(b, t, 3 * GPT_HEADS, GPT_D // GPT_HEADS).transpose(1, 2)
            q, k, v = qkv.split(GPT_HEADS, dim=1)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, t, GPT_D)
            h = h + self.proj(a)
            return h + self.out(F.gelu(self.fc(self.ln2(h))))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok, self.pos = nn.Embedding(GPT_VOCAB, GPT_D), nn.Embedding(GPT_BLOCK, GPT_D)
            self.blocks = nn.ModuleList([Block() for _ in range(2)])
            self.ln, self.head = nn.LayerNorm(GPT_D), nn.Linear(GPT_D, GPT_VOCAB)

        def forward(self, idx):
            h = self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
            for block in self.blocks:
                h = block(h)
            return self.head(self.ln(h))
    return GPT()


TORCH_MODELS = {"mlp": _mlp, "cnn": _cnn, "encoder": _encoder, "char_transformer": _char_transformer,
           "resnet18": _resnet18, "gpt": _gpt}


def _optimizer(torch, name, params):
    if name == "char_transformer":
        opt = torch.optim.Adam(params, 3e-3)
        warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=30)
        return opt, warm, 1.0
    if name == "gpt":
        return torch.optim.AdamW(params, 1e-3, weight_decay=0.01), None, None
    if name == "resnet18":
        return torch.optim.SGD(params, 0.01, momentum=0.9), None, None
    return torch.optim.SGD(params, 0.01), None, None


def torch_train_step(torch, name, device="cuda", seed=0):
    """A function running one PyTorch training step of model `name` on a new host batch each call."""
    torch.manual_seed(seed)
    spec, rng = MODELS[name], np.random.default_rng(seed)
    model = TORCH_MODELS[name](torch).to(device)
    opt, sched, clip = _optimizer(torch, name, model.parameters())
    params = list(model.parameters())

    def step():
        x, y = spec.batch(rng)
        logits = model(torch.from_numpy(x).to(device))
        y = torch.from_numpy(y).to(device)
        if spec.flat_logits:
            logits, y = logits.reshape(-1, logits.shape[-1]), y.reshape(-1)
        loss = torch.nn.functional.cross_entropy(logits, y)
        loss.backward()
        if clip is not None:
            torch.nn.utils.clip_grad_norm_(params, clip)
        opt.step()
        opt.zero_grad()
        if sched is not None:
            sched.step()
        return loss
    assert math.isfinite(step().item())  # builds the optimizer state; a broken twin fails here, not in a profile
    return step
