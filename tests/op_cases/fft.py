from . import OpCase, crand, rand

CASES = [
    OpCase("fft_c2c", {"X": crand(3, 4)}, attrs={"axes": [1], "normalization": "backward", "forward": True},
           id="fft_c2c-1d"),
    OpCase("fft_c2c", {"X": crand(3, 4)}, attrs={"axes": [0, 1], "normalization": "ortho", "forward": False},
           id="fft_c2c-2d-inverse-ortho"),
    OpCase("fft_r2c", {"X": rand(3, 6)}, attrs={"axes": [1], "normalization": "backward", "forward": True,
                                                "onesided": True}, id="fft_r2c-rfft"),
    OpCase("fft_r2c", {"X": rand(3, 5)}, attrs={"axes": [0, 1], "normalization": "forward", "forward": False,
                                                "onesided": True}, id="fft_r2c-ihfft2-odd"),
    OpCase("fft_r2c", {"X": rand(3, 4)}, attrs={"axes": [0], "normalization": "ortho", "forward": True,
                                                "onesided": False}, id="fft_r2c-full"),
    OpCase("fft_c2r", {"X": crand(3, 4)}, attrs={"axes": [1], "normalization": "backward", "forward": False,
                                                 "last_dim_size": 0}, id="fft_c2r-irfft-even"),
    OpCase("fft_c2r", {"X": crand(2, 4)}, attrs={"axes": [0, 1], "normalization": "ortho", "forward": True,
                                                 "last_dim_size": 7}, id="fft_c2r-hfft2-odd"),
    OpCase("fft_c2r", {"X": crand(3, 2)}, attrs={"axes": [1], "normalization": "forward", "forward": False,
                                                 "last_dim_size": 2}, id="fft_c2r-n2"),
]
