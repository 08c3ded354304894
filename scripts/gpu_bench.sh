#!/bin/bash
# Benchmarks on a lent GPU machine, in one call: the fused kernels against a device copy, unfused CuPy and
# PyTorch (bench/test_bench_kernels.py), training steps (with CUDA-graph replay: to_static, the Executor, eager
# CUDAGraph, PyTorch's torch.cuda.graphs) and per-op overhead against PyTorch on the same GPU (BENCH_DEVICE=gpu),
# then GEMMs in every precision and an AMP step (bench/test_bench_gemm.py). JSON and logs go to $OUT. Usage: bash scripts/gpu_bench.sh
set -u
OUT=${OUT:-/tmp/gpu_out}; B=/tmp/gpu_bench_logs; rm -rf $B; mkdir -p $OUT $B
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
PT="python3 -m pytest -p no:cacheprovider -W ignore -q --benchmark-only --benchmark-group-by=group --benchmark-columns=min,median,mean,rounds"
timeout 240 $PT -s bench/test_bench_kernels.py --benchmark-json=$B/kernels.json > $B/kernels.log 2>&1
BENCH_DEVICE=gpu timeout 240 $PT bench/test_bench_eager.py bench/test_bench_train.py --benchmark-json=$B/train.json > $B/train.log 2>&1
# GEMMs per precision (TF32, float16, bfloat16) and an AMP training step, against PyTorch: TFLOP/s in extra_info
BENCH_DEVICE=gpu timeout 150 $PT bench/test_bench_gemm.py --benchmark-json=$B/gemm.json > $B/gemm.log 2>&1
tar czf $OUT/bench.tgz -C $B .
grep -E "GB/s|passed|failed|Error" $B/kernels.log | tail -30; grep -E "^test_|passed|failed" $B/train.log | tail -40
grep -E "^test_|passed|failed" $B/gemm.log | tail -40
python3 -c "import json; [print(b['name'], b['extra_info'].get('TFLOP/s')) for b in json.load(open('$B/gemm.json'))['benchmarks'] if b['group'].startswith('matmul')]" 2>/dev/null
