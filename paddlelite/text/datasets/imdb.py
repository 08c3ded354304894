"""Imdb: the IMDB movie reviews (aclImdb_v1.tar.gz) as word ids, label 0 for positive, 1 for negative."""
import collections
import re
import string
import tarfile

import numpy as np

from ...io import Dataset
from ._common import check_mode, local_file, ranked_words

URL = "https://dataset.bj.bcebos.com/imdb%2FaclImdb_v1.tar.gz"
_PUNCTUATION = string.punctuation.encode("latin-1")


class Imdb(Dataset):
    """(word ids int64 [n], label int64 [1]); the dictionary holds the words of every review seen more than `cutoff`
    times."""

    def __init__(self, data_file=None, mode="train", cutoff=150, download=True):
        self.mode = check_mode(mode, ("train", "test"))
        self.data_file = local_file(data_file, URL, "Imdb", "data_file", download)
        self.word_idx = self._build_work_dict(cutoff)
        self._load_anno()

    def _build_work_dict(self, cutoff):
        word_freq = collections.Counter()
        for doc in self._tokenize(re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$")):
            word_freq.update(doc)
        return ranked_words(word_freq, cutoff)

    def _tokenize(self, pattern):
        """The reviews whose member names match `pattern`, in archive order: lower-cased byte words, punctuation
        removed."""
        docs = []
        with tarfile.open(self.data_file) as archive:
            for member in archive:
                if pattern.match(member.name):
                    text = archive.extractfile(member).read().rstrip(b"\n\r")
                    docs.append(text.translate(None, _PUNCTUATION).lower().split())
        return docs

    def _load_anno(self):
        unk = self.word_idx["<unk>"]
        self.docs, self.labels = [], []
        for label, kind in enumerate(("pos", "neg")):
            for doc in self._tokenize(re.compile(rf"aclImdb/{self.mode}/{kind}/.*\.txt$")):
                self.docs.append([self.word_idx.get(w, unk) for w in doc])
                self.labels.append(label)

    def __getitem__(self, idx):
        return np.array(self.docs[idx]), np.array([self.labels[idx]])

    def __len__(self):
        return len(self.docs)
