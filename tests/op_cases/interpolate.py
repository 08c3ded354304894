"""Gradient cases for the resampling ops (ops/interpolate.py): sizes from out_* or from scale, both layouts,
align_corners and align_mode, and each grad op (linear in DOut: its gradient resamples again)."""
from . import OpCase, rand

_ATTRS = {"out_d": -1, "out_h": -1, "out_w": -1, "scale": [], "align_corners": False, "align_mode": 0,
          "data_layout": "NCHW"}


def _case(method, x, id, **attrs):
    return OpCase(f"{method}_interp_v2", {"X": x}, {**_ATTRS, "interp_method": method, **attrs}, id=id)


def _grad_case(method, x, dout, id, **attrs):
    return OpCase(f"{method}_interp_v2_grad", {"X": x, "DOut": dout}, {**_ATTRS, "interp_method": method, **attrs},
                  id=id)


CASES = [
    _case("nearest", rand(1, 2, 3, 4, seed=1), "nearest-scale", scale=[2.0, 1.5]),
    _case("nearest", rand(1, 3, 4, 2, 2, seed=2), "nearest-5d-nhwc", out_d=3, out_h=5, out_w=3, data_layout="NHWC"),
    _case("linear", rand(2, 2, 5, seed=3), "linear", out_w=8),
    _case("linear", rand(2, 5, 2, seed=4), "linear-mode1-nwc", scale=[1.7], align_mode=1, data_layout="NHWC"),
    _case("linear", rand(1, 2, 5, seed=15), "linear-single", out_w=1),  # the centre, not the first position
    _case("bilinear", rand(1, 2, 3, 4, seed=5), "bilinear", out_h=5, out_w=7),
    _case("bilinear", rand(1, 2, 4, 3, seed=6), "bilinear-corners", out_h=6, out_w=2, align_corners=True),
    _case("bicubic", rand(1, 2, 4, 4, seed=7), "bicubic", scale=[1.5, 2.0]),
    _case("bicubic", rand(1, 3, 3, 2, seed=8), "bicubic-corners-nhwc", out_h=5, out_w=4, align_corners=True,
          data_layout="NHWC"),
    _case("trilinear", rand(1, 2, 2, 3, 3, seed=9), "trilinear", out_d=3, out_h=4, out_w=2),
    _grad_case("nearest", rand(1, 2, 3, 4), rand(1, 2, 6, 6, seed=10), "nearest-grad", scale=[2.0, 1.5]),
    _grad_case("linear", rand(2, 2, 5), rand(2, 2, 8, seed=11), "linear-grad", out_w=8),
    _grad_case("bilinear", rand(1, 2, 3, 4), rand(1, 2, 5, 7, seed=12), "bilinear-grad", out_h=5, out_w=7),
    _grad_case("bicubic", rand(1, 2, 4, 4), rand(1, 2, 6, 8, seed=13), "bicubic-grad", scale=[1.5, 2.0]),
    _grad_case("trilinear", rand(1, 2, 2, 3, 3), rand(1, 2, 3, 4, 2, seed=14), "trilinear-grad", out_d=3, out_h=4,
               out_w=2),
]
