#!/bin/bash
# One call on a lent GPU machine (see ../.library/device): environment, the GPU-marked tests, the whole
# suite with the GPU as the default device, the Docker image's command and the training example.
# Logs go to $OUT (one tarball, since few files come back). Usage: bash scripts/gpu_check.sh [SECONDS]
set -u
LIMIT=${1:-400}
OUT=${OUT:-/tmp/gpu_out}; L=/tmp/gpu_check_logs; rm -rf $L; mkdir -p $OUT $L
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=$PYTHONPATH:/tmp/site
fi
# cuDNN Frontend (.whl/nvidia_cudnn_frontend-*-cp312-*.whl, installed above; scripts/fetch_gpu_wheels.sh downloads it)
# lowers its graphs through cuda-python: .whl/cuda/ brings cuda-bindings / cuda-pathfinder, installed only when the
# machine has none (CuPy may ship its own, which must win)
if ls .whl/cuda/*.whl >/dev/null 2>&1 && ! python3 -c "import cuda.bindings.driver, cuda.pathfinder" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/cuda/*.whl
fi
{ nvidia-smi; python3 -c "import sys, numpy, cupy; print(sys.version); print('numpy', numpy.__version__, 'cupy', cupy.__version__, 'cuda runtime', cupy.cuda.runtime.runtimeGetVersion(), 'driver', cupy.cuda.runtime.driverGetVersion())";
  python3 -m pip list 2>/dev/null | grep -i -E "^(torch|pytest|hypothesis|ml.dtypes|mpi4py|cupy|numpy|pytest-benchmark|nvidia-nccl|cuda)" ;
  which mpiexec mpirun;
  python3 -c "from paddlelite.device import cudnn; m = cudnn.frontend(); print('cuDNN Frontend', m and m.__version__, 'cuDNN', m and m.backend_version())"; } > $L/env.txt 2>&1
cat $L/env.txt | head -40
N=$(nproc)
XD=""; python3 -c "import xdist" 2>/dev/null && XD="-p xdist -n"
PT="python3 -m pytest -p no:cacheprovider -W ignore -q -rfE --tb=short"
# CUDA-graph capture and the cuBLAS path first, on their own (their failures name why a step was not captured)
CAPTURE="tests/test_cuda_graph.py tests/test_cublas.py"
timeout 150 $PT -m gpu $CAPTURE -W always::RuntimeWarning -rw --junitxml=$L/capture.xml > $L/capture.log 2>&1; echo "rc=$?" >> $L/capture.log
# GPU_TESTS: the other GPU-marked tests to run (default: all of tests/); GPU_SUITE=0 skips the whole suite, the Docker
# command and the training example (issue 25's check: GPU_TESTS="tests/test_cudnn_gpu.py tests/test_attention_gpu.py
# tests/test_kernels_gpu.py" GPU_SUITE=0 bash scripts/gpu_check.sh 200)
( timeout $LIMIT $PT -m gpu ${GPU_TESTS:-tests $(printf -- "--ignore=%s " $CAPTURE)} ${XD:+$XD 4} --junitxml=$L/gpu.xml > $L/gpu.log 2>&1; echo "rc=$?" >> $L/gpu.log ) &
if [ "${GPU_SUITE:-1}" != 0 ]; then
( PADDLELITE_DEVICE=gpu timeout $LIMIT $PT -m "not gpu" tests ${XD:+$XD $((N-6))} --junitxml=$L/suite.xml > $L/suite.log 2>&1; echo "rc=$?" >> $L/suite.log ) &
( timeout 120 python3 -c 'import paddlelite as p, cupy; p.set_device("gpu"); print("device:", p.get_device(), cupy.cuda.runtime.getDeviceProperties(0)["name"].decode())' > $L/docker_cmd.log 2>&1;
  cd /tmp && for m in eager static; do timeout 150 python3 -m paddlelite.examples.train --device gpu --mode $m --epochs 5 --out /tmp/run_$m; echo "rc=$?"; done > $L/train.log 2>&1 ) &
fi
wait
tar czf $OUT/check.tgz -C $L .
for f in capture docker_cmd train gpu suite; do [ -f $L/$f.log ] && { echo "== $f"; tail -n 8 $L/$f.log; }; done
