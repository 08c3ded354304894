"""Copies kernels/*.cu into the wheel as paddlelite/_kernels, and paddlelite-as-paddle.pth (the opt-in
PADDLELITE_AS_PADDLE=1 startup hook: paddlelite/import_alias.py) to the wheel's root, which is site-packages
(everything else is in pyproject.toml)."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithKernels(build_py):
    def run(self):
        super().run()
        here = os.path.dirname(os.path.abspath(__file__))
        target = os.path.join(self.build_lib, "paddlelite", "_kernels")
        os.makedirs(target, exist_ok=True)
        for name in os.listdir(os.path.join(here, "kernels")):
            if name.endswith((".cu", ".cuh")):
                shutil.copy2(os.path.join(here, "kernels", name), target)
        shutil.copy2(os.path.join(here, "paddlelite-as-paddle.pth"), self.build_lib)


setup(cmdclass={"build_py": BuildWithKernels})
