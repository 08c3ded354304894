"""paddle.vision.datasets: the standard image datasets, read from local files (paddlelite never downloads).

data/ holds a 100 + 100 image MNIST-format sample (scripts/make_mnist_sample.py) for examples and tests."""
from .cifar import Cifar10, Cifar100
from .flowers import Flowers
from .folder import DatasetFolder, ImageFolder
from .mnist import MNIST, FashionMNIST
from .voc2012 import VOC2012

__all__ = ["DatasetFolder", "ImageFolder", "MNIST", "FashionMNIST", "Flowers", "Cifar10", "Cifar100", "VOC2012"]
