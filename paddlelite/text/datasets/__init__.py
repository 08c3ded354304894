"""paddle.text.datasets: the classic NLP datasets, read from the archives Paddle downloads (given as local paths:
paddlelite never downloads), item for item as Paddle reads them."""
from .conll05 import Conll05st
from .imdb import Imdb
from .imikolov import Imikolov
from .movielens import Movielens
from .uci_housing import UCIHousing
from .wmt14 import WMT14
from .wmt16 import WMT16

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16"]
