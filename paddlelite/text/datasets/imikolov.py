"""Imikolov: the Penn Treebank of Mikolov's simple-examples.tgz, as n-grams or as (source, target) sequences."""
import collections
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file, ranked_words

URL = "https://dataset.bj.bcebos.com/imikolov%2Fsimple-examples.tgz"
_DATA = "./simple-examples/data/ptb.{}.txt"


def word_count(f, word_freq=None):
    """Word counts of the lines of `f` (each line also counts one '<s>' and one '<e>')."""
    word_freq = collections.defaultdict(int) if word_freq is None else word_freq
    for line in f:
        for w in line.strip().split():
            word_freq[w] += 1
        word_freq["<s>"] += 1
        word_freq["<e>"] += 1
    return word_freq


def build_dict(path, min_word_freq):
    """{word: id} of the words of ptb.train and ptb.valid seen more than min_word_freq times, most frequent first."""
    with tarfile.open(path) as archive:
        word_freq = word_count(archive.extractfile(_DATA.format("valid")),
                               word_count(archive.extractfile(_DATA.format("train"))))
    # As Paddle's: the words are bytes, the marks str, so the corpus's own b'<unk>' stays a word and the str
    # '<unk>' (the id of words not in the dictionary) comes last
    word_freq.pop("<unk>", None)
    return ranked_words(word_freq, min_word_freq)


def samples(path, member, word_idx, n, data_type):
    """The samples of the archive's file `member`: n-grams (tuples of n ids) or (source, target) id sequences (see
    Imikolov)."""
    unk = word_idx["<unk>"]
    with tarfile.open(path) as archive:
        for line in archive.extractfile(member):
            words = line.strip().split()
            if data_type == "NGRAM":
                assert n > -1, "Invalid gram length"
                ids = [word_idx.get(w, unk) for w in ["<s>", *words, "<e>"]]
                if len(ids) >= n:
                    yield from (tuple(ids[i - n:i]) for i in range(n, len(ids) + 1))
            elif data_type == "SEQ":
                ids = [word_idx.get(w, unk) for w in words]
                source, target = [word_idx["<s>"], *ids], [*ids, word_idx["<e>"]]
                if n > 0 and len(source) > n:
                    continue
                yield source, target
            else:
                raise AssertionError("Unknown data type")


class Imikolov(Dataset):
    """data_type 'NGRAM': tuples of `window_size` word ids of '<s>' + sentence + '<e>'; 'SEQ': ('<s>' + sentence,
    sentence + '<e>') id sequences (sentences longer than window_size, when positive, left out). The dictionary
    holds the words of ptb.train and ptb.valid seen more than min_word_freq times."""

    def __init__(self, data_file=None, data_type="NGRAM", window_size=-1, mode="train", min_word_freq=50,
                 download=True):
        assert data_type.upper() in ["NGRAM", "SEQ"], f"data type should be 'NGRAM', 'SEQ', but got {data_type}"
        self.data_type = data_type.upper()
        self.mode = check_mode(mode, ("train", "test"))
        self.window_size = window_size
        self.min_word_freq = min_word_freq
        self.data_file = local_file(data_file, URL, "Imikolov", "data_file", download)
        self.word_idx = self._build_work_dict(min_word_freq)
        self._load_anno()

    def word_count(self, f, word_freq=None):
        return word_count(f, word_freq)

    def _build_work_dict(self, cutoff):
        return build_dict(self.data_file, self.min_word_freq)

    def _load_anno(self):
        self.data = list(samples(self.data_file, _DATA.format(self.mode), self.word_idx, self.window_size,
                                 self.data_type))

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self):
        return len(self.data)
