"""paddle.quantization: QAT and PTQ over a QuantConfig of quanter/observer factories (quanters: the fake-quantizing
FakeQuanterWithAbsMaxObserver; observers: AbsmaxObserver, GroupWiseWeightObserver), converting models into
nn.quant.format's LinearQuanter/LinearDequanter layers; `@quanter` makes factories of custom quanters."""
from . import observers, quanters
from .base_quanter import BaseObserver, BaseQuanter
from .config import QuantConfig
from .factory import quanter
from .quantize import PTQ, QAT

__all__ = ["QuantConfig", "BaseQuanter", "BaseObserver", "quanter", "QAT", "PTQ"]
