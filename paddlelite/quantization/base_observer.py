"""paddle.quantization.base_observer: BaseObserver lives beside BaseQuanter, its base."""
from .base_quanter import BaseObserver

__all__ = ["BaseObserver"]
