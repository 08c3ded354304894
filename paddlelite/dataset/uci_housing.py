"""paddle.dataset.uci_housing: the Boston housing rows as (13 normalised float64 features, [price])."""
from ..text.datasets.uci_housing import URL, load_rows
from ..utils import deprecated
from . import common

__all__ = []

MD5 = "d4accdce7a25600298819f8e28e8d593"
feature_names = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD", "TAX", "PTRATIO", "B", "LSTAT"]
UCI_TRAIN_DATA = None
UCI_TEST_DATA = None


def load_data(filename, feature_num=14, ratio=0.8):
    """Reads the file once into UCI_TRAIN_DATA / UCI_TEST_DATA (later calls keep what the first read)."""
    global UCI_TRAIN_DATA, UCI_TEST_DATA
    if UCI_TRAIN_DATA is None or UCI_TEST_DATA is None:
        UCI_TRAIN_DATA, UCI_TEST_DATA = load_rows(filename, "paddle.dataset.uci_housing", feature_num, ratio)


def _rows_reader(rows):
    def reader():
        for row in rows():
            yield row[:-1], row[-1:]

    return reader


@deprecated(since="2.0.0", update_to="paddle.text.datasets.UCIHousing", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def train():
    load_data(common.download(URL, "uci_housing", MD5))
    return _rows_reader(lambda: UCI_TRAIN_DATA)


@deprecated(since="2.0.0", update_to="paddle.text.datasets.UCIHousing", level=1,
            reason="Please use new dataset API which supports paddle.io.DataLoader")
def test():
    load_data(common.download(URL, "uci_housing", MD5))
    return _rows_reader(lambda: UCI_TEST_DATA)


def fetch():
    common.download(URL, "uci_housing", MD5)
