"""What the device layer was built with and what it can see: device counts and types, GPU properties,
the cuDNN version, bfloat16 support. paddlelite's CUDA backend is CuPy: "compiled with CUDA" means
CuPy imports; without it the answers are those of Paddle's CPU build.
"""
from . import cuda
from .place import Place, current_place


def is_compiled_with_cuda():
    """True when the CUDA backend (CuPy) can be imported."""
    return cuda.cupy() is not None


def is_compiled_with_rocm():
    cp = cuda.cupy()
    return cp is not None and bool(cp.cuda.runtime.is_hip)


def is_compiled_with_xpu():
    return False


def is_compiled_with_ipu():
    return False


def is_compiled_with_cinn():
    return False


def is_compiled_with_custom_device(device_type):
    return False


def is_compiled_with_distribute():
    """paddle.distributed works (collectives over MPI, NCCL on GPUs)."""
    return True


def device_count():
    """The number of visible CUDA devices (0 without CuPy or a driver)."""
    return cuda.device_count()


def is_available():
    return device_count() >= 1


def get_all_device_type():
    """The device types besides the CPU: ['gpu'] with the CUDA backend, else []."""
    return ["gpu"] if is_compiled_with_cuda() else []


def get_all_custom_device_type():
    return []


def get_available_device():
    """The visible devices besides the CPU: ['gpu:0', 'gpu:1', ...]."""
    return [f"gpu:{i}" for i in range(device_count())]


def get_available_custom_device():
    return []


_NO_BACKEND = ("(InvalidArgument) use wrong place: paddlelite has no {} backend (its devices are the CPU through NumPy "
               "and NVIDIA GPUs through CuPy); use CPUPlace() or CUDAPlace(n)")


class XPUPlace(Place):
    """Kunlun's place: a class for isinstance checks; ValueError on construction, as Paddle's CPU build raises."""

    __slots__ = ()

    def __new__(cls, dev_id):
        raise ValueError(_NO_BACKEND.format("XPU"))


class IPUPlace(Place):
    """Graphcore's place: a class for isinstance checks; ValueError on construction, as Paddle's CPU build raises."""

    __slots__ = ()

    def __new__(cls):
        raise ValueError(_NO_BACKEND.format("IPU"))


class CustomPlace(Place):
    """A plug-in device's place: a class for isinstance checks; ValueError on construction (no device type is
    registered), as Paddle's CPU build raises."""

    __slots__ = ()

    def __new__(cls, device_type, dev_id=0):
        raise ValueError(_NO_BACKEND.format(f"custom device {device_type!r}"))


class DeviceProperties:
    """A CUDA device's name, compute capability, memory and multiprocessors (Paddle's _gpuDeviceProperties)."""

    __slots__ = ("name", "major", "minor", "total_memory", "multi_processor_count")

    def __init__(self, name, major, minor, total_memory, multi_processor_count):
        self.name, self.major, self.minor = name, major, minor
        self.total_memory, self.multi_processor_count = total_memory, multi_processor_count

    def __repr__(self):
        return (f"_gpuDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // (1024 * 1024)}MB, "
                f"multi_processor_count={self.multi_processor_count})")


def get_device_properties(device=None):
    """The properties of a CUDA device: None (the current one), an int, 'gpu' / 'gpu:N' or a CUDAPlace."""
    return properties(cuda.gpu_index(device, "paddle.device.get_device_properties"))


def properties(index):
    """The DeviceProperties of CUDA device `index`."""
    props = cuda.cupy().cuda.runtime.getDeviceProperties(index)
    name = props["name"]
    return DeviceProperties(name.decode() if isinstance(name, bytes) else name, props["major"], props["minor"],
                            props["totalGlobalMem"], props["multiProcessorCount"])


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    """(major, minor) compute capability of a CUDA device."""
    props = get_device_properties(device)
    return props.major, props.minor


def get_cudnn_version():
    """cuDNN's version as an int (e.g. 8907), or None without CUDA or without CuPy's cuDNN module."""
    cp = cuda.cupy()
    if cp is None:
        return None
    try:
        from cupy.cuda import cudnn
    except ImportError:
        return None
    return int(cudnn.getVersion())


def is_bf16_supported(including_emulation=True):
    """Whether bfloat16 tensors compute on the current device: always on the CPU (ml_dtypes); on a GPU
    when it has bfloat16 arithmetic (compute capability 8.0 or newer), paddlelite emulating none."""
    place = current_place()
    if place.kind == "cpu":
        return True
    return get_device_capability(place.index)[0] >= 8
