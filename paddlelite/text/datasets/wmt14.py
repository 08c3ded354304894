"""WMT14: the shrunk English-French corpus of wmt14.tgz with its source and target dictionaries."""
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file

URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
START, END, UNK = "<s>", "<e>", "<unk>"
UNK_IDX = 2


def _first_words(lines, size):
    """{word: line number} of the first `size` lines."""
    out = {}
    for number, line in enumerate(lines):
        if number >= size:
            break
        out[line.strip().decode()] = number
    return out


class WMT14(Dataset):
    """(source ids '<s>' + words + '<e>', target ids '<s>' + words, target ids words + '<e>'); pairs with a side
    longer than 80 ids are left out; the dictionaries are the first dict_size words of src.dict and trg.dict."""

    def __init__(self, data_file=None, mode="train", dict_size=-1, download=True):
        self.mode = check_mode(mode, ("train", "test", "gen"))
        self.data_file = local_file(data_file, URL_TRAIN, "WMT14", "data_file", download)
        assert dict_size > 0, "dict_size should be set as positive number"
        self.dict_size = dict_size
        self._load_data()

    def _load_data(self):
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as archive:
            names = [m.name for m in archive]
            dicts = []
            for suffix in ("src.dict", "trg.dict"):
                found = [n for n in names if n.endswith(suffix)]
                assert len(found) == 1
                dicts.append(_first_words(archive.extractfile(found[0]), self.dict_size))
            self.src_dict, self.trg_dict = dicts
            for name in (n for n in names if n.endswith(f"{self.mode}/{self.mode}")):
                for line in archive.extractfile(name):
                    pair = line.decode().strip().split("\t")
                    if len(pair) != 2:
                        continue
                    src_ids = [self.src_dict.get(w, UNK_IDX) for w in [START, *pair[0].split(), END]]
                    trg_ids = [self.trg_dict.get(w, UNK_IDX) for w in pair[1].split()]
                    if len(src_ids) > 80 or len(trg_ids) > 80:
                        continue
                    self.src_ids.append(src_ids)
                    self.trg_ids.append([self.trg_dict[START], *trg_ids])
                    self.trg_ids_next.append([*trg_ids, self.trg_dict[END]])

    def __getitem__(self, idx):
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self):
        return len(self.src_ids)

    def get_dict(self, reverse=False):
        """(source dictionary, target dictionary); with reverse, id -> word."""
        if reverse:
            return {v: k for k, v in self.src_dict.items()}, {v: k for k, v in self.trg_dict.items()}
        return self.src_dict, self.trg_dict
