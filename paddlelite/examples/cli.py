"""What the example jobs share as command-line tools: --help lists every option with its default, a user
error is one line on stderr and exit status 2 (no traceback), progress bars only on a terminal."""
import argparse
import sys


class ArgumentParser(argparse.ArgumentParser):
    """argparse with defaults shown in --help and errors as a single line; `module` names the job in both."""

    def __init__(self, module, **kwargs):
        super().__init__(prog=f"python -m {module}", formatter_class=argparse.ArgumentDefaultsHelpFormatter, **kwargs)

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


_KIND_NAMES = {int: "an integer", float: "a number"}


def positive(kind):
    """An argparse type: a number of `kind` (int or float) greater than zero."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {_KIND_NAMES[kind]}, received {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be greater than 0, received {text}")
        return value
    parse.__name__ = f"positive {kind.__name__}"
    return parse


def non_negative_int(text):
    """An argparse type: an int >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, received {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, received {text}")
    return value


def add_device(parser):
    parser.add_argument("--device", choices=["cpu", "gpu"], default="cpu",
                        help="where to train: 'gpu' needs an NVIDIA GPU with CuPy (pip install -e \".[cuda12]\")")


def set_device(parser, paddle, device):
    """paddle.set_device, with a missing GPU reported as a user error."""
    try:
        paddle.set_device(device)
    except (RuntimeError, ValueError) as e:
        parser.error(str(e))
    if device == "gpu" and not paddle.device.cuda.is_available():
        parser.error("--device gpu: no CUDA GPU is visible; use --device cpu")


def progress_bars_wanted(quiet):
    """Bars redraw in place, which only makes sense on a terminal (not in a log file or a pipe)."""
    return not quiet and sys.stderr.isatty()
