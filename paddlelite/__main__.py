"""`python -m paddlelite script.py [args]` (or `-m module [args]`): runs a Paddle program unchanged, as
`python script.py [args]` would, with `import paddle` giving paddlelite (`install_as_paddle`). Child Python
processes inherit PADDLELITE_AS_PADDLE=1, which a regular install's paddlelite-as-paddle.pth honours."""
import os
import runpy
import sys

from .import_alias import install_as_paddle

USAGE = ("usage: python -m paddlelite script.py [args ...]\n"
         "       python -m paddlelite -m module [args ...]\n"
         "Runs a Paddle program with `import paddle` (and paddle.<sub>) giving paddlelite.")


def main(argv):
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if not argv or argv == ["-m"]:
        print(USAGE, file=sys.stderr)
        return 2
    install_as_paddle()
    os.environ["PADDLELITE_AS_PADDLE"] = "1"
    if argv[0] == "-m":
        sys.argv = argv[1:]  # run_module puts the module's file in argv[0], as `python -m` does
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        return 0
    script = argv[0]
    if not os.path.isfile(script):
        print(f"python -m paddlelite: can't open file {os.path.abspath(script)!r}: no such file", file=sys.stderr)
        return 2
    sys.argv = argv
    sys.path[0] = os.path.dirname(os.path.abspath(script))  # what `python script.py` puts first on the path
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
