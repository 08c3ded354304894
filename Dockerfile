# paddlelite on an NVIDIA GPU: CUDA 12 runtime + CuPy wheel; the default command prints the device
# and runs the GPU test suite.
#   docker build -t paddlelite-gpu .
#   docker run --rm --gpus all paddlelite-gpu
# The devel image is not needed: CuPy compiles the fused kernels with NVRTC, which the
# cuda12 extra (cupy-cuda12x[ctk]) brings as a wheel.
FROM nvidia/cuda:12.6.3-runtime-ubuntu22.04

ENV DEBIAN_FRONTEND=noninteractive PIP_NO_CACHE_DIR=1 PYTHONUNBUFFERED=1 \
    CUPY_CACHE_DIR=/root/.cupy/kernel_cache
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-pip python3-venv g++ \
 && rm -rf /var/lib/apt/lists/*
RUN python3 -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH

WORKDIR /opt/paddlelite
COPY . .
# Editable install: the kernel sources (kernels/*.cu) are read from the source tree at run time.
RUN pip install --upgrade pip \
 && pip install -e ".[cuda12,test,bench]"

CMD ["sh", "-c", "python3 -c 'import paddlelite as p, cupy; p.set_device(\"gpu\"); print(\"device:\", p.get_device(), cupy.cuda.runtime.getDeviceProperties(0)[\"name\"].decode())' && python3 -m pytest -m gpu -q tests"]
