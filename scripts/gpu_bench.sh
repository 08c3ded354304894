#!/bin/bash
# Benchmarks on a lent GPU machine; logs and JSON go to one tarball, $OUT/bench.tgz. Parts (all by default; the
# arguments pick some -- a device command runs at most 10 minutes, so pick what fits, e.g. `launches train`):
#   launches  launches per training step (bench/profile_steps.py): CUDA's profiler (CUPTI, through torch.profiler)
#             counts the kernels, copies and memsets of one step of each model of tests/step_models.py --
#             paddlelite eager, static Executor and to_static, and PyTorch eager -- beside paddlelite's CPU count
#             (device.count_launches) and each step's time; then the generated and fused elementwise kernels and
#             the batched optimizer updates on the GPU (tests/test_fusion.py, test_batching.py -m gpu)   (~5 min)
#   train     training steps (with CUDA-graph replay: to_static, the Executor, eager CUDAGraph, PyTorch's
#             torch.cuda.graphs) and per-op host cost against PyTorch on the same GPU (BENCH_DEVICE=gpu)  (~4 min)
#   kernels   the fused and generated kernels against a device copy, unfused CuPy and PyTorch
#             (bench/test_bench_kernels.py)                                                          (~5 min)
#   gemm      GEMMs in every precision and an AMP step against PyTorch (bench/test_bench_gemm.py)     (~2.5 min)
#   models    issue 25: ResNet-50 (batch 64, bf16 AMP and fp32) and GPT-2-small (seq 1024, batch 8, bf16)
#             training steps against PyTorch (bench/test_bench_models.py); not in the default set   (~4 min)
# Usage: bash scripts/gpu_bench.sh [launches] [train] [kernels] [gemm] [models]   (wheels the machine lacks: .whl/)
set -u
PARTS=${*:-launches train kernels gemm}
OUT=${OUT:-/tmp/gpu_out}; B=/tmp/gpu_bench_logs; rm -rf $B; mkdir -p $OUT $B
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
if ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=$PYTHONPATH:/tmp/site
fi
if ls .whl/cuda/*.whl >/dev/null 2>&1 && ! python3 -c "import cuda.bindings.driver, cuda.pathfinder" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/cuda/*.whl  # for cuDNN Frontend
fi
{ nvidia-smi -L; git log -1 --format='commit %H %cd' 2>/dev/null; python3 -c "import numpy, cupy, torch;
print('numpy', numpy.__version__, 'cupy', cupy.__version__, 'torch', torch.__version__, 'cuda', cupy.cuda.runtime.runtimeGetVersion())"
} > $B/env.txt 2>&1
PT="python3 -m pytest -p no:cacheprovider -W ignore -q --benchmark-only --benchmark-group-by=group --benchmark-columns=min,median,mean,rounds"
has() { [[ " $PARTS " == *" $1 "* ]]; }
if has launches; then
  timeout 200 python3 bench/profile_steps.py --out $B/launches.json > $B/launches.log 2>&1; echo "rc=$?" >> $B/launches.log
  timeout 90 python3 -m pytest -p no:cacheprovider -W ignore -q -rfE -m gpu tests/test_fusion.py tests/test_launch_count.py \
    tests/test_batching.py "tests/test_kernels_gpu.py::test_merged_momentum_and_sgd_many_params" \
    "tests/test_kernels_gpu.py::test_layer_norm_forward" \
    > $B/fusion_gpu.log 2>&1; echo "rc=$?" >> $B/fusion_gpu.log
fi
if has train; then
  BENCH_DEVICE=gpu timeout 240 $PT bench/test_bench_eager.py bench/test_bench_train.py --benchmark-json=$B/train.json > $B/train.log 2>&1
fi
if has kernels; then
  timeout 330 $PT -s bench/test_bench_kernels.py --benchmark-json=$B/kernels.json > $B/kernels.log 2>&1
fi
if has gemm; then  # GEMMs per precision (TF32, float16, bfloat16) and an AMP training step: TFLOP/s in extra_info
  BENCH_DEVICE=gpu timeout 150 $PT bench/test_bench_gemm.py --benchmark-json=$B/gemm.json > $B/gemm.log 2>&1
fi
if has models; then
  timeout 300 $PT -s bench/test_bench_models.py --benchmark-json=$B/models.json > $B/models.log 2>&1
fi
tar czf $OUT/bench.tgz -C $B .
cat $B/env.txt
if has launches; then cut -c1-400 $B/launches.log; tail -5 $B/fusion_gpu.log; fi
if has train; then grep -E "^test_|passed|failed" $B/train.log | tail -40; fi
if has kernels; then grep -E "GB/s|passed|failed|Error" $B/kernels.log | tail -30; fi
if has gemm; then
  grep -E "^test_|passed|failed" $B/gemm.log | tail -40
  python3 -c "import json; [print(b['name'], b['extra_info'].get('TFLOP/s')) for b in json.load(open('$B/gemm.json'))['benchmarks'] if b['group'].startswith('matmul')]" 2>/dev/null
fi
if has models; then grep -E "step s|passed|failed|Error" $B/models.log | tail -20; fi
