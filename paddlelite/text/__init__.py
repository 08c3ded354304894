"""paddle.text: Viterbi decoding of linear-chain CRF scores (op viterbi_decode) and the classic NLP datasets,
read from local files (paddlelite never downloads)."""
from .datasets import WMT14, WMT16, Conll05st, Imdb, Imikolov, Movielens, UCIHousing
from .viterbi_decode import ViterbiDecoder, viterbi_decode

__all__ = ["Conll05st", "Imdb", "Imikolov", "Movielens", "UCIHousing", "WMT14", "WMT16", "ViterbiDecoder",
           "viterbi_decode"]
