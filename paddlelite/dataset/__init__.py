"""paddle.dataset: Paddle 1.x's dataset readers (reader creators over the files Paddle downloads into
common.DATA_HOME), for the book chapters and older scripts. paddlelite does not download: the files must be there
already (common.download says where). Paddle 2 replaced them with the Dataset classes of paddle.vision.datasets and
paddle.text.datasets, which read the same files."""
from . import cifar, common, mnist, uci_housing  # noqa: F401

__all__ = []
