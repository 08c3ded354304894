"""paddle.vision.transforms: image transforms over Tensors (CHW), NumPy ndarrays (HWC) and PIL images."""
from . import functional  # noqa: F401
from .functional import (adjust_brightness, adjust_contrast, adjust_hue, affine, center_crop, crop,  # noqa: F401
                         erase, hflip, normalize, pad, perspective, resize, rotate, to_grayscale, to_tensor, vflip)
from .transforms import (BaseTransform, BrightnessTransform, CenterCrop, ColorJitter, Compose,  # noqa: F401
                         ContrastTransform, Grayscale, HueTransform, Normalize, Pad, RandomAffine, RandomCrop,
                         RandomErasing, RandomHorizontalFlip, RandomPerspective, RandomResizedCrop, RandomRotation,
                         RandomVerticalFlip, Resize, SaturationTransform, ToTensor, Transpose)
from .transforms import __all__ as _classes
from .functional import __all__ as _functions

__all__ = [*_classes, *_functions]
