"""Optimizers and learning-rate schedulers."""
from . import lr  # noqa: F401
from . import regularizer  # noqa: F401
from .adadelta import Adadelta  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adam import Adam, AdamW  # noqa: F401
from .asgd import ASGD  # noqa: F401
from .adamax import Adamax  # noqa: F401
from .lamb import Lamb  # noqa: F401
from .lbfgs import LBFGS  # noqa: F401
from .momentum import Momentum  # noqa: F401
from .nadam import NAdam  # noqa: F401
from .optimizer import Optimizer  # noqa: F401
from .radam import RAdam  # noqa: F401
from .rmsprop import RMSProp  # noqa: F401
from .rprop import Rprop  # noqa: F401
from .sgd import SGD  # noqa: F401

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamW", "Adagrad", "RMSProp", "Adamax", "Adadelta", "Lamb", "NAdam", "RAdam", "Rprop", "ASGD", "LBFGS",
           "lr", "regularizer"]
