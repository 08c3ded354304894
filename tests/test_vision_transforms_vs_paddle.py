"""paddle.vision.transforms against real Paddle 3.3.1: Tensor (CHW) and PIL images, functional forms and
classes; random transforms with Python's `random` and NumPy's generator seeded alike in both libraries.

Paddle's NumPy-image backend needs OpenCV (not installed here), so NumPy images are checked against the
Tensor path's results and against OpenCV's recorded conventions."""
import random

import numpy as np
import pytest

from tests.differential import differential, raises


def _image(seed=0, shape=(3, 7, 9)):
    return np.random.RandomState(seed).uniform(0, 1, shape).astype("float32")


def _uint8_hwc(seed=0, shape=(7, 9, 3)):
    return np.random.RandomState(seed).randint(0, 256, shape).astype("uint8")


@differential(atol=1e-5)
def test_geometry_on_tensors(paddle):
    F = paddle.vision.transforms.functional
    x = paddle.to_tensor(_image())
    return {"hflip": F.hflip(x), "vflip": F.vflip(x), "crop": F.crop(x, 1, 2, 4, 5),
            "center_crop": F.center_crop(x, 4), "center_crop_hw": F.center_crop(x, (3, 6)),
            "pad": F.pad(x, 2, fill=0.5), "pad2": F.pad(x, (1, 2)), "pad_reflect": F.pad(x, [1, 2, 3, 1], padding_mode="reflect"),
            "pad_edge": F.pad(x, 1, padding_mode="edge"),
            "resize": F.resize(x, (5, 4)), "resize_short": F.resize(x, 4), "resize_nearest": F.resize(x, (11, 13), "nearest"),
            "to_tensor": F.to_tensor(x), "to_tensor_hwc": F.to_tensor(x, "HWC")}


@differential(atol=1e-5)
def test_samplers_on_tensors(paddle):
    F = paddle.vision.transforms.functional
    x = paddle.to_tensor(_image(1, (3, 8, 10)))
    return {"rotate": F.rotate(x, 30), "rotate90": F.rotate(x, 90),
            "rotate_bilinear_expand": F.rotate(x, 37, interpolation="bilinear", expand=True),
            "rotate_center_fill": F.rotate(x, -20, center=(2, 3), fill=[0.1, 0.2, 0.3]),
            "affine": F.affine(x, 15, (1, -2), 1.2, 10.0),
            "affine_shear2": F.affine(x, -5, [0, 1], 0.9, [5, 8], interpolation="bilinear", center=(3, 4)),
            "perspective": F.perspective(x, [[0, 0], [9, 0], [9, 7], [0, 7]], [[1, 1], [8, 0], [9, 6], [0, 7]]),
            "perspective_bilinear": F.perspective(x, [[0, 0], [9, 0], [9, 7], [0, 7]], [[2, 1], [8, 1], [9, 6], [1, 7]],
                                                  interpolation="bilinear", fill=0)}


@differential(atol=1e-5)
def test_color_on_tensors(paddle):
    F = paddle.vision.transforms.functional
    x = paddle.to_tensor(_image(2))
    gray = paddle.to_tensor(_image(3, (1, 7, 9)))
    return {"brightness": F.adjust_brightness(x, 1.4), "contrast": F.adjust_contrast(x, 0.6),
            "contrast_gray": F.adjust_contrast(gray, 1.7), "hue": F.adjust_hue(x, 0.2), "hue_neg": F.adjust_hue(x, -0.45),
            "saturation": paddle.vision.transforms.functional.adjust_saturation(x, 0.3),
            "grayscale": F.to_grayscale(x), "grayscale3": F.to_grayscale(x, 3),
            "normalize": F.normalize(x, [0.5, 0.4, 0.3], [0.2, 0.3, 0.4]),
            "normalize_hwc": F.normalize(x.transpose([1, 2, 0]), [0.5, 0.4, 0.3], [0.2, 0.3, 0.4], data_format="HWC"),
            "erase": F.erase(x, 1, 2, 3, 4, paddle.to_tensor([0.0, 0.5, 1.0]).reshape([3, 1, 1]))}


@differential(atol=1e-5)
def test_uint8_tensor_geometry(paddle):
    F = paddle.vision.transforms.functional
    x = paddle.to_tensor(_uint8_hwc().transpose(2, 0, 1).copy())
    return {"crop": F.crop(x, 0, 1, 5, 5), "to_tensor_np": F.to_tensor(_uint8_hwc()),
            "to_tensor_np_hwc": F.to_tensor(_uint8_hwc(1, (4, 5)), "HWC")}


def _pil(seed=0, shape=(7, 9, 3)):
    Image = pytest.importorskip("PIL.Image")
    return Image.fromarray(_uint8_hwc(seed, shape))


@differential()
def test_pil_images(paddle):
    F = paddle.vision.transforms.functional
    img = _pil()
    as_array = np.asarray
    return {"to_tensor": F.to_tensor(img), "hflip": as_array(F.hflip(img)), "vflip": as_array(F.vflip(img)),
            "resize": as_array(F.resize(img, (5, 4))), "resize_short": as_array(F.resize(img, 4, "nearest")),
            "pad": as_array(F.pad(img, (1, 2), fill=(9, 8, 7))), "pad_sym": as_array(F.pad(img, 2, padding_mode="symmetric")),
            "crop": as_array(F.crop(img, 1, 2, 4, 5)), "center_crop": as_array(F.center_crop(img, 5)),
            "brightness": as_array(F.adjust_brightness(img, 1.3)), "contrast": as_array(F.adjust_contrast(img, 0.7)),
            "hue": as_array(F.adjust_hue(img, 0.1)), "rotate": as_array(F.rotate(img, 25, expand=True)),
            "affine": as_array(F.affine(img, 10, (1, 1), 1.1, 5)),
            "perspective": as_array(F.perspective(img, [[0, 0], [8, 0], [8, 6], [0, 6]], [[1, 0], [8, 1], [7, 6], [0, 5]])),
            "gray": as_array(F.to_grayscale(img, 3)), "normalize": F.normalize(img, [127.0] * 3, [50.0] * 3, "HWC"),
            "erase": as_array(F.erase(img, 1, 1, 2, 3, 7))}


def _seeded(paddle, make, image):
    random.seed(7)
    np.random.seed(7)
    out = make(paddle.vision.transforms)
    return [out(image(paddle)) for _ in range(4)]


def _tensor_image(paddle):
    return paddle.to_tensor(_image(4, (3, 12, 10)))


@pytest.mark.parametrize("make", [
    lambda T: T.Compose([T.RandomHorizontalFlip(0.5), T.RandomVerticalFlip(0.5)]),
    lambda T: T.RandomCrop(6, padding=2),
    lambda T: T.RandomCrop((14, 13), pad_if_needed=True, fill=0.25),
    lambda T: T.RandomResizedCrop(5),
    lambda T: T.RandomRotation(40, expand=True),
    lambda T: T.RandomAffine(20, translate=(0.2, 0.1), scale=(0.8, 1.2), shear=(-5, 5, -3, 3)),
    lambda T: T.RandomPerspective(0.7, 0.4),
    lambda T: T.ColorJitter(0.4, 0.4, 0.4, 0.2),
    lambda T: T.RandomErasing(0.8, value=(0.1, 0.2, 0.3)),
    lambda T: T.Compose([T.Resize((6, 5)), T.CenterCrop(4), T.Normalize(0.5, 0.5), T.Pad(1), T.Transpose((1, 2, 0))]),
    lambda T: T.Compose([T.BrightnessTransform(0.3), T.ContrastTransform(0.3), T.SaturationTransform(0.5),
                         T.HueTransform(0.1), T.Grayscale(3), T.ToTensor()]),
], ids=["flips", "crop_pad", "crop_pad_if_needed", "resized_crop", "rotation", "affine", "perspective", "color_jitter",
        "erasing", "pipeline", "color_pipeline"])
def test_random_transforms_on_tensors(make):
    differential(atol=1e-5)(lambda paddle: _seeded(paddle, make, _tensor_image))()


@pytest.mark.parametrize("make", [
    lambda T: T.RandomResizedCrop((4, 6)),
    lambda T: T.RandomRotation((-30, 30), interpolation="bilinear"),
    lambda T: T.ColorJitter(0.3, 0.3, 0.3, 0.1),
    lambda T: T.Compose([T.RandomCrop(5), T.ToTensor(), T.Normalize([0.5] * 3, [0.2] * 3)]),
], ids=["resized_crop", "rotation", "color_jitter", "pipeline"])
def test_random_transforms_on_pil(make):
    pytest.importorskip("PIL")

    def body(paddle):
        return [np.asarray(x) if not hasattr(x, "numpy") else x for x in _seeded(paddle, make, lambda p: _pil(3))]
    differential(atol=1e-5)(body)()


@differential(expected=raises(TypeError))
def test_not_an_image(paddle):
    paddle.vision.transforms.functional.hflip([1, 2, 3])


@differential(expected=raises(ValueError))
def test_bad_padding(paddle):
    paddle.vision.transforms.functional.pad(paddle.ones([3, 4, 4]), (1, 2, 3))


@differential(expected=raises(ValueError))
def test_bad_grayscale_channels(paddle):
    paddle.vision.transforms.functional.to_grayscale(paddle.ones([3, 4, 4]), 2)


# ---- NumPy HWC images (Paddle's OpenCV backend: not importable here, so its conventions are recorded) ----

def test_numpy_images_geometry():
    import paddlelite as paddle
    F = paddle.vision.transforms.functional
    img = _uint8_hwc()
    np.testing.assert_array_equal(F.hflip(img), img[:, ::-1])
    np.testing.assert_array_equal(F.vflip(img), img[::-1])
    np.testing.assert_array_equal(F.crop(img, 1, 2, 3, 4), img[1:4, 2:6])
    np.testing.assert_array_equal(F.center_crop(img, 3), img[2:5, 3:6])
    np.testing.assert_array_equal(F.pad(img, 1, padding_mode="reflect"), np.pad(img, ((1, 1), (1, 1), (0, 0)), "reflect"))
    padded = F.pad(img, (1, 2), fill=(1, 2, 3))
    assert padded.shape == (11, 11, 3) and padded.dtype == np.uint8
    np.testing.assert_array_equal(padded[0, 0], [1, 2, 3])
    np.testing.assert_array_equal(padded[2:9, 1:10], img)
    # resampling goes through the Tensor path, rounded back to uint8
    as_tensor = paddle.to_tensor(img.transpose(2, 0, 1).astype("float32"))
    expected = F.rotate(as_tensor, 30).numpy().transpose(1, 2, 0)
    np.testing.assert_array_equal(F.rotate(img, 30), np.clip(np.round(expected), 0, 255).astype("uint8"))
    assert F.resize(img, (4, 5)).shape == (4, 5, 3) and F.resize(img[:, :, 0], 14).shape == (14, 18)


def test_numpy_images_color():
    import paddlelite as paddle
    F = paddle.vision.transforms.functional
    img = _uint8_hwc()
    np.testing.assert_array_equal(F.adjust_brightness(img, 1.5), np.clip(img * 1.5, 0, 255).astype("uint8"))
    np.testing.assert_array_equal(F.adjust_contrast(img, 2.0), np.clip((img.astype(int) - 74) * 2 + 74, 0, 255).astype("uint8"))
    gray = F.to_grayscale(img)
    assert gray.shape == (7, 9, 1)
    np.testing.assert_allclose(gray[..., 0], img @ np.array([0.299, 0.587, 0.114]), atol=0.51)
    assert F.to_grayscale(img, 3).shape == (7, 9, 3)
    out = F.normalize(img.astype("float32"), [1, 2, 3], [2, 2, 2], data_format="HWC", to_rgb=True)
    np.testing.assert_allclose(out, (img[..., ::-1] - np.array([1, 2, 3])) / 2, rtol=1e-6)
    assert F.adjust_hue(img, 0.0).dtype == np.uint8
    np.testing.assert_allclose(F.adjust_hue(img, 0.0).astype(int), img.astype(int), atol=1)
    tensor = F.to_tensor(img)
    assert tensor.shape == [3, 7, 9] and str(tensor.dtype) == "paddle.float32"


@differential(atol=1e-5)
def test_geometry_in_static_mode(paddle):
    from tests.differential import run_static
    F = paddle.vision.transforms.functional

    def build():
        x = paddle.static.data("x", [3, 7, 9], "float32")
        return [F.hflip(x), F.vflip(x), F.crop(x, 1, 2, 3, 4), F.center_crop(x, 4), F.pad(x, [1, 2]),
                F.resize(x, (5, 4)), F.to_tensor(x)]
    return run_static(paddle, build, {"x": _image()})


def test_uint8_tensors_compute_in_float32():
    # Paddle's CPU kernels reject uint8 for these; paddlelite computes the float path and truncates to uint8
    import paddlelite as paddle
    F = paddle.vision.transforms.functional
    arr = _uint8_hwc(3).transpose(2, 0, 1).copy()
    x = paddle.to_tensor(arr)
    as_float = arr.astype(np.float32)
    gray = (as_float * np.array([0.2989, 0.5870, 0.1140], np.float32).reshape(3, 1, 1)).sum(0, keepdims=True)
    np.testing.assert_array_equal(F.to_grayscale(x).numpy(), gray.astype(np.uint8))
    np.testing.assert_array_equal(F.adjust_brightness(x, 1.3).numpy(), np.clip(as_float * 1.3, 0, 255).astype(np.uint8))
    rotated = F.rotate(x, 30).numpy()
    assert rotated.dtype == np.uint8
    np.testing.assert_array_equal(rotated, F.rotate(paddle.to_tensor(as_float), 30).numpy().astype(np.uint8))


@pytest.mark.parametrize("prob", [0.0, 1.0])
def test_random_flips_in_static_mode(prob):
    # a cond on paddle.rand in the Program, as Paddle builds it (Paddle 3.3.1 builds it for PIR only: its
    # legacy-IR run raises, so this checks paddlelite alone); prob 0 and 1 make the branch certain
    import paddlelite as paddle
    from tests.differential import run_static
    T = paddle.vision.transforms

    def build():
        x = paddle.static.data("x", [3, 7, 9], "float32")
        return [T.RandomHorizontalFlip(prob)(x), T.RandomVerticalFlip(prob)(x)]
    image = _image()
    try:
        hflipped, vflipped = run_static(paddle, build, {"x": image})
    finally:
        paddle.disable_static()
    np.testing.assert_array_equal(hflipped, image[:, :, ::-1] if prob else image)
    np.testing.assert_array_equal(vflipped, image[:, ::-1] if prob else image)
