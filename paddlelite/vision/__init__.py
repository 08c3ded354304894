"""paddle.vision: image transforms, the classification models, the standard datasets and the image backend.
As Paddle's, the package also shows the models, the datasets and (but for the affine/perspective/erasing ones)
the transforms by their short paths (`from paddle.vision import DatasetFolder`), outside its __all__."""
from . import datasets, models, ops, transforms  # noqa: F401
from .datasets import *  # noqa: F401,F403
from .image import get_image_backend, image_load, set_image_backend
from .models import *  # noqa: F401,F403
from .transforms import *  # noqa: F401,F403

del RandomAffine, RandomErasing, RandomPerspective, affine, erase, perspective  # noqa: F821  (not shown in Paddle's)

__all__ = ["set_image_backend", "get_image_backend", "image_load"]
