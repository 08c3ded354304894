"""paddle.dataset.imikolov: the Penn Treebank of Mikolov's simple-examples.tgz as n-grams or (source, target)
sequences of word ids."""
from ..text.datasets import imikolov as _ptb
from ..text.datasets.imikolov import URL, word_count  # noqa: F401  (Paddle's module has both)
from ..utils import deprecated
from . import common

__all__ = []

MD5 = "30177ea32e27c525793142b6bf2c8e2d"


class DataType:
    NGRAM = 1
    SEQ = 2


def build_dict(min_word_freq=50):
    """{word: id} of the words of ptb.train and ptb.valid seen more than min_word_freq times ('<unk>' last)."""
    return _ptb.build_dict(common.download(URL, "imikolov", MD5), min_word_freq)


def reader_creator(filename, word_idx, n, data_type):
    """A reader of the samples of `filename`, a file in the archive ('./simple-examples/data/ptb.train.txt')."""
    kind = {DataType.NGRAM: "NGRAM", DataType.SEQ: "SEQ"}.get(data_type)

    def reader():
        if kind is None:
            raise AssertionError("Unknown data type")
        yield from _ptb.samples(common.download(URL, "imikolov", MD5), filename, word_idx, n, kind)

    return reader


@deprecated(since="2.0.0", update_to="paddle.text.datasets.Imikolov", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def train(word_idx, n, data_type=DataType.NGRAM):
    return reader_creator("./simple-examples/data/ptb.train.txt", word_idx, n, data_type)


@deprecated(since="2.0.0", update_to="paddle.text.datasets.Imikolov", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def test(word_idx, n, data_type=DataType.NGRAM):
    return reader_creator("./simple-examples/data/ptb.valid.txt", word_idx, n, data_type)


@deprecated(since="2.0.0", update_to="paddle.text.datasets.Imikolov", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def fetch():
    common.download(URL, "imikolov", MD5)
