"""UCIHousing: the Boston housing prices, 13 features (centred, scaled by their range) and the price."""
import numpy as np

from ...framework.dtype import get_default_dtype
from ...io import Dataset
from ._common import check_mode, local_file

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
FEATURES = 14  # 13 features and the price


def load_rows(path, api, feature_num=FEATURES, ratio=0.8):
    """The file's rows (float64) with each feature centred and scaled by its range, split into the first `ratio`
    (train) and the rest (test)."""
    data = np.fromfile(path, sep=" ")
    if data.size % feature_num:
        raise ValueError(f"{api}: {path!r} holds {data.size} numbers, not rows of {feature_num}")
    data = data.reshape(-1, feature_num)
    maximums, minimums, avgs = data.max(axis=0), data.min(axis=0), data.sum(axis=0) / data.shape[0]
    for i in range(feature_num - 1):
        data[:, i] = (data[:, i] - avgs[i]) / (maximums[i] - minimums[i])
    offset = int(data.shape[0] * ratio)
    return data[:offset], data[offset:]


class UCIHousing(Dataset):
    """(features float [13], price float [1]); the first 80% of the rows are 'train', the rest 'test'."""

    def __init__(self, data_file=None, mode="train", download=True):
        self.mode = check_mode(mode, ("train", "test"))
        self.data_file = local_file(data_file, URL, "UCIHousing", "data_file", download)
        self._load_data()
        self.dtype = get_default_dtype()

    def _load_data(self, feature_num=FEATURES, ratio=0.8):
        train, test = load_rows(self.data_file, "paddle.text.datasets.UCIHousing", feature_num, ratio)
        self.data = train if self.mode == "train" else test

    def __getitem__(self, idx):
        row = self.data[idx]
        return np.array(row[:-1]).astype(self.dtype), np.array(row[-1:]).astype(self.dtype)

    def __len__(self):
        return len(self.data)
