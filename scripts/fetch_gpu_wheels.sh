#!/bin/bash
# Run where the package index is reachable, before a GPU run: the GPU machine has none. Downloads into .whl/ (which
# scripts/gpu_check.sh installs) the wheels the GPU machine lacks, for its Python (3.12, x86-64): cuDNN Frontend
# (the `cudnn` extra) and, into .whl/cuda/, the cuda-python packages it lowers graphs through (installed there only
# when missing). Carry .whl to the machine (device tool: carry=[".whl"]; ~20 MB).
set -eu
cd "$(dirname "$0")/.."
get() { python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --platform manylinux_2_28_x86_64 -q -d "$@"; }
get .whl "nvidia-cudnn-frontend==1.32.0"
get .whl/cuda "cuda-bindings==13.5.0" "cuda-pathfinder==1.9.1"
ls -l .whl .whl/cuda
