"""Conll05st: the semantic role labelling test set of CoNLL 2005 (WSJ part), with its dictionaries and embedding."""
import gzip
import tarfile

import numpy as np

from ...io import Dataset
from ._common import local_file

DATA_URL = "http://paddlemodels.bj.bcebos.com/conll05st/conll05st-tests.tar.gz"
WORDDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FwordDict.txt"
VERBDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FverbDict.txt"
TRGDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FtargetDict.txt"
EMB_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2Femb"
UNK_IDX = 0
_WORDS = "conll05st-release/test.wsj/words/test.wsj.words.gz"
_PROPS = "conll05st-release/test.wsj/props/test.wsj.props.gz"


def _bracket_labels(column):
    """One predicate's column of the props file ('(A0*', '*', '*)', '(V*)') as B-/I-/O tags."""
    tags, tag, inside = [], "O", False
    for mark in column:
        if mark == "*":
            tags.append("I-" + tag if inside else "O")
        elif mark == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in mark:
            tag = mark[1:mark.find("*")]
            tags.append("B-" + tag)
            inside = ")" not in mark
        else:
            raise RuntimeError(f"Unexpected label: {mark}")
    return tags


class Conll05st(Dataset):
    """One item per (sentence, predicate): word ids, the ids of the words two before to two after the predicate
    (each repeated over the sentence), the predicate's id, the mark of that 5-word window and the label ids."""

    def __init__(self, data_file=None, word_dict_file=None, verb_dict_file=None, target_dict_file=None,
                 emb_file=None, download=True):
        self.data_file = local_file(data_file, DATA_URL, "Conll05st", "data_file", download)
        self.word_dict_file = local_file(word_dict_file, WORDDICT_URL, "Conll05st", "word_dict_file", download)
        self.verb_dict_file = local_file(verb_dict_file, VERBDICT_URL, "Conll05st", "verb_dict_file", download)
        self.target_dict_file = local_file(target_dict_file, TRGDICT_URL, "Conll05st", "target_dict_file", download)
        self.emb_file = local_file(emb_file, EMB_URL, "Conll05st", "emb_file", download)
        self.word_dict = self._load_dict(self.word_dict_file)
        self.predicate_dict = self._load_dict(self.verb_dict_file)
        self.label_dict = self._load_label_dict(self.target_dict_file)
        self._load_anno()

    def _load_label_dict(self, filename):
        """B-<tag>, I-<tag> for each tag of the file (numbered in set order, as Paddle's: the same tags give the
        same numbers within one process), then O."""
        tags = set()
        with open(filename) as f:
            for line in f:
                line = line.strip()
                if line.startswith(("B-", "I-")):
                    tags.add(line[2:])
        d = {}
        for tag in tags:
            d["B-" + tag], d["I-" + tag] = len(d), len(d) + 1
        d["O"] = len(d)
        return d

    def _load_dict(self, filename):
        with open(filename) as f:
            return {line.strip(): i for i, line in enumerate(f)}

    def _load_anno(self):
        self.sentences, self.predicates, self.labels = [], [], []
        with tarfile.open(self.data_file) as archive, \
                gzip.GzipFile(fileobj=archive.extractfile(_WORDS)) as words, \
                gzip.GzipFile(fileobj=archive.extractfile(_PROPS)) as props:
            sentence, rows = [], []
            for word, marks in zip(words, props):
                marks = marks.strip().decode().split()
                if marks:
                    sentence.append(word.strip().decode())
                    rows.append(marks)
                    continue
                columns = [[row[i] for row in rows] for i in range(len(rows[0]))] if rows else []
                if columns:  # column 0 names the predicates, one more column per predicate
                    verbs = [x for x in columns[0] if x != "-"]
                    for i, column in enumerate(columns[1:]):
                        self.sentences.append(sentence)
                        self.predicates.append(verbs[i])
                        self.labels.append(_bracket_labels(column))
                sentence, rows = [], []

    def __getitem__(self, idx):
        sentence, predicate, labels = self.sentences[idx], self.predicates[idx], self.labels[idx]
        n = len(sentence)
        verb = labels.index("B-V")
        mark = [0] * len(labels)
        context = {}
        for offset, outside in ((-2, "bos"), (-1, "bos"), (0, None), (1, "eos"), (2, "eos")):
            k = verb + offset
            if 0 <= k < len(labels):
                mark[k] = 1
                context[offset] = sentence[k]
            else:
                context[offset] = outside
        word_ids = [self.word_dict.get(w, UNK_IDX) for w in sentence]
        contexts = [[self.word_dict.get(context[o], UNK_IDX)] * n for o in (-2, -1, 0, 1, 2)]
        return (np.array(word_ids), *(np.array(c) for c in contexts), np.array([self.predicate_dict.get(predicate)] * n),
                np.array(mark), np.array([self.label_dict.get(w) for w in labels]))

    def __len__(self):
        return len(self.sentences)

    def get_dict(self):
        """(word dictionary, predicate dictionary, label dictionary)."""
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self):
        """The path of the word embedding file."""
        return self.emb_file
