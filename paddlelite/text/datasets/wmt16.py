"""WMT16: the English-German Multi30k corpus of wmt16.tar.gz, dictionaries built from its training pairs."""
import collections
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file

URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"
TOTAL_EN_WORDS = 11250
TOTAL_DE_WORDS = 19220
START_MARK, END_MARK, UNK_MARK = "<s>", "<e>", "<unk>"


class WMT16(Dataset):
    """(source ids '<s>' + words + '<e>', target ids '<s>' + words, target ids words + '<e>') of the pairs of
    wmt16/<mode>, `lang` the source language ('en' or 'de').

    The dictionaries are Paddle's: '<s>', '<e>', '<unk>', then the most frequent words of the training pairs'
    `lang` column (both dictionaries count that column, as Paddle's builder does), dict_size entries in all. Paddle
    caches them as files under ~/.cache/paddle/dataset; paddlelite builds them in memory from the archive given."""

    def __init__(self, data_file=None, mode="train", src_dict_size=-1, trg_dict_size=-1, lang="en", download=True):
        self.mode = check_mode(mode, ("train", "test", "val"))
        self.data_file = local_file(data_file, URL, "WMT16", "data_file", download)
        self.lang = lang
        assert src_dict_size > 0, "dict_size should be set as positive number"
        assert trg_dict_size > 0, "dict_size should be set as positive number"
        self.src_dict_size = min(src_dict_size, TOTAL_EN_WORDS if lang == "en" else TOTAL_DE_WORDS)
        self.trg_dict_size = min(trg_dict_size, TOTAL_DE_WORDS if lang == "en" else TOTAL_EN_WORDS)
        self.src_dict = self._load_dict(lang, src_dict_size)
        self.trg_dict = self._load_dict("de" if lang == "en" else "en", trg_dict_size)
        self._load_data()

    def _load_dict(self, lang, dict_size, reverse=False):
        words = [START_MARK, END_MARK, UNK_MARK] + self._ranked_words(dict_size)
        return dict(enumerate(words)) if reverse else {w: i for i, w in enumerate(words)}

    def _ranked_words(self, dict_size):
        """The training pairs' words of column `self.lang`, most frequent first (ties in order of appearance), as
        many as fill a dictionary of dict_size with the three marks."""
        counts = collections.defaultdict(int)
        with tarfile.open(self.data_file, mode="r") as archive:
            for line in archive.extractfile("wmt16/train"):
                pair = line.decode().strip().split("\t")
                if len(pair) != 2:
                    continue
                for w in pair[0 if self.lang == "en" else 1].split():
                    counts[w] += 1
        ranked = [w for w, _ in sorted(counts.items(), key=lambda x: x[1], reverse=True)]
        return ranked[:dict_size - 3] if dict_size >= 3 else ranked  # Paddle's builder stops at dict_size only

    def _load_data(self):
        start_id, end_id, unk_id = self.src_dict[START_MARK], self.src_dict[END_MARK], self.src_dict[UNK_MARK]
        src_col = 0 if self.lang == "en" else 1
        self.src_ids, self.trg_ids, self.trg_ids_next = [], [], []
        with tarfile.open(self.data_file, mode="r") as archive:
            for line in archive.extractfile(f"wmt16/{self.mode}"):
                pair = line.decode().strip().split("\t")
                if len(pair) != 2:
                    continue
                src = [self.src_dict.get(w, unk_id) for w in pair[src_col].split()]
                trg = [self.trg_dict.get(w, unk_id) for w in pair[1 - src_col].split()]
                self.src_ids.append([start_id, *src, end_id])
                self.trg_ids.append([start_id, *trg])
                self.trg_ids_next.append([*trg, end_id])

    def __getitem__(self, idx):
        return np.array(self.src_ids[idx]), np.array(self.trg_ids[idx]), np.array(self.trg_ids_next[idx])

    def __len__(self):
        return len(self.src_ids)

    def get_dict(self, lang, reverse=False):
        """The dictionary of language `lang` ('en' or 'de'); with reverse, id -> word."""
        return self._load_dict(lang, self.src_dict_size if lang == self.lang else self.trg_dict_size, reverse)
