# paddlelite on NVIDIA GPUs: the GPU test suite by default, or any paddlelite program, one GPU or several.
#   docker build -t paddlelite-gpu .
#   docker run --rm --gpus all -v paddlelite-kernels:/var/cache/paddlelite paddlelite-gpu
# (README.md, "Docker image": what it prints, its size, multi-GPU runs.)
#
# The CUDA libraries come once, as the wheels CuPy's [ctk] extra pins (cuBLAS, cuFFT, cuRAND, cuSOLVER,
# cuSPARSE, NVRTC, the runtime), on a slim Python base: the same files `pip install "paddlelite-numpy[cuda12]"`
# gives outside Docker, and none of the CUDA images' second copy. The driver comes from the host
# (`--gpus`, the NVIDIA Container Toolkit). CUDA_MAJOR=13 builds for CUDA 13 (driver >= 580).
ARG PYTHON_VERSION=3.12

# ---- the wheel, built from the sources alone ----------------------------------------------------------
FROM python:${PYTHON_VERSION}-slim-bookworm AS wheel
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE paddlelite-as-paddle.pth ./
COPY kernels/ kernels/
COPY paddlelite/ paddlelite/
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

# ---- the image ----------------------------------------------------------------------------------------
FROM python:${PYTHON_VERSION}-slim-bookworm
ARG CUDA_MAJOR=12
ARG CUPY_VERSION=14.2.0
ARG NCCL_VERSION=2.28.9
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONUNBUFFERED=1 \
    NVIDIA_VISIBLE_DEVICES=all \
    NVIDIA_DRIVER_CAPABILITIES=compute,utility \
    CUPY_CACHE_DIR=/var/cache/paddlelite/cupy

# ssh: MPICH's launcher starts the ranks on other machines through it. Debian's security updates replace
# package versions, so the base image's release pins them rather than a version here.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends openssh-client \
 && rm -rf /var/lib/apt/lists/*

# Dependencies first, in a layer of their own: a source edit rebuilds only the layers below.
# CuPy with the CUDA runtime wheels, NCCL (GPU collectives), MPI (mpi4py + the MPICH runtime and its
# mpiexec), and the test runner of the default command, all pinned.
COPY docker/requirements.txt /tmp/requirements.txt
RUN pip install "cupy-cuda${CUDA_MAJOR}x[ctk]==${CUPY_VERSION}" "nvidia-nccl-cu${CUDA_MAJOR}==${NCCL_VERSION}" \
        -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt

# paddlelite itself, a regular install of the wheel; pip check: the pins above satisfy what it requires.
COPY --from=wheel /wheels/ /tmp/wheels/
RUN pip install --no-deps /tmp/wheels/*.whl \
 && pip check \
 && rm -rf /tmp/wheels

# A user of its own; the compiled-kernel cache (CuPy's, CUPY_CACHE_DIR) is a volume that outlives the
# container, so kernels compile once, not on every `docker run`.
RUN groupadd --gid 1000 paddle \
 && useradd --create-home --uid 1000 --gid 1000 paddle \
 && mkdir -p /var/cache/paddlelite/cupy \
 && chown -R 1000:1000 /var/cache/paddlelite
VOLUME /var/cache/paddlelite
USER 1000:1000
WORKDIR /home/paddle

# The tests import the installed package (this folder holds no paddlelite/ sources); pytest's settings, and
# the two documents test modules read when they are collected, come along.
COPY --chown=1000:1000 pyproject.toml README.md ./
COPY --chown=1000:1000 docs/CONTRIBUTING.md docs/
COPY --chown=1000:1000 tests/ tests/

CMD ["sh", "-c", "python -c 'import paddlelite as p, cupy; p.set_device(\"gpu\"); print(\"paddlelite\", p.__version__, \"device:\", p.get_device(), cupy.cuda.runtime.getDeviceProperties(0)[\"name\"].decode())' && python -m pytest -m gpu -n 4 tests"]
