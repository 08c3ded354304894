"""What the example jobs share as command-line tools: --help lists every option with its default, a user
error (an option's value, an output directory that cannot be written) is one line on stderr and exit status 2
before any training (no traceback), progress bars only on a terminal."""
import argparse
import os
import sys
import tempfile


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


def check_output_dir(parser, path, option="--out"):
    """Create `path` and write a file there now, so an output directory that cannot be written is a user error
    before training rather than a traceback after it."""
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        parser.error(f"argument {option}: cannot write to {path!r}: {e.strerror or e}")


def progress_bars_wanted(quiet):
    """Bars redraw in place, which only makes sense on a terminal (not in a log file or a pipe)."""
    return not quiet and sys.stderr.isatty()


class Progress:
    """A loop of `total` steps: a tqdm bar when it is installed and stderr is a terminal, and the lines given to
    `log` (above the bar when there is one); nothing when quiet."""

    def __init__(self, total, desc, quiet):
        self.quiet = quiet
        self.desc = desc
        self.bar = None
        if progress_bars_wanted(quiet):
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                self.bar = tqdm(total=total, desc=desc, unit="step", leave=False)

    def update(self, loss):
        if self.bar is not None:
            self.bar.set_postfix(loss=f"{loss:.4f}")
            self.bar.update(1)

    def log(self, line):
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.write(line)
        else:
            print(line, flush=True)

    def close(self, msg=None):
        """End the bar; `msg` becomes a line `<desc>: <msg>`."""
        if self.bar is not None:
            self.bar.close()
        if msg is not None:
            self.log(f"{self.desc}: {msg}")
