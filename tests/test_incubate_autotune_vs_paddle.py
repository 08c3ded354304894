"""paddle.incubate.autotune.set_config (issue 28, item 2: Paddle's test_dataloader_autotune): the kernel, layout and
dataloader switches read from a dict or a JSON file, wrong types warned about. (Which num_workers a tuned DataLoader
picks depends on the machine's timing, so only an untuned one's is compared.)"""
import json
import os
import tempfile
import warnings

import numpy as np

from tests.differential import differential


def _dataset(paddle):
    class Data(paddle.io.Dataset):
        def __getitem__(self, idx):
            return np.full([4], idx, "float32"), np.array([idx % 3], "int64")

        def __len__(self):
            return 8
    return Data()


@differential(expected={"warnings": 2, "use_autotune": [True, False], "layout": [False, False],
                        "untuned_workers": 2, "tuned_batches": 8})
def test_set_config(paddle):
    # Paddle's layout autotune turns its stride kernels off for the process (views would stop sharing memory in
    # the tests that follow in this process): the flag is put back
    stride = paddle.get_flags(["FLAGS_use_stride_kernel"])
    try:
        return _set_config(paddle)
    finally:
        paddle.set_flags(stride)


def _set_config(paddle):
    autotune, core = paddle.incubate.autotune, paddle.base.core
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "config.json")
        with open(path, "w") as f:
            json.dump({"kernel": {"enable": 1, "tuning_range": True}}, f)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            autotune.set_config(path)
    use_autotune, layout = [], []
    for on in (True, False):
        autotune.set_config({"kernel": {"enable": on, "tuning_range": [1, 3]}, "layout": {"enable": on}})
        use_autotune.append(paddle.get_flags(["FLAGS_use_autotune"])["FLAGS_use_autotune"])
        layout.append(core.use_layout_autotune())
    autotune.set_config({"dataloader": {"enable": False, "tuning_steps": 1}})
    untuned = paddle.io.DataLoader(_dataset(paddle), batch_size=1, num_workers=2)
    autotune.set_config({"dataloader": {"enable": True, "tuning_steps": 1}})
    tuned = paddle.io.DataLoader(_dataset(paddle), batch_size=1, num_workers=0)
    batches = sum(1 for _ in tuned)
    autotune.set_config({"dataloader": {"enable": False, "tuning_steps": 1}})
    return {"warnings": len([w for w in caught if "auto-tuning" in str(w.message)]), "use_autotune": use_autotune,
            "layout": layout, "untuned_workers": untuned.num_workers, "tuned_batches": batches}
