#!/bin/bash
# Benchmarks on a lent GPU machine, in one call: the fused kernels against a device copy, unfused CuPy and
# PyTorch (bench/test_bench_kernels.py), training steps (with CUDA-graph replay: to_static, the Executor, eager
# CUDAGraph, PyTorch's torch.cuda.graphs) and per-op overhead against PyTorch on the same GPU (BENCH_DEVICE=gpu),
# GEMMs in every precision and an AMP step (bench/test_bench_gemm.py), and ResNet-50 / GPT-2-small training steps
# against PyTorch (bench/test_bench_models.py). JSON and logs go to $OUT.
# Usage: bash scripts/gpu_bench.sh [kernels] [train] [gemm] [models]   (default: all four)
set -u
OUT=${OUT:-/tmp/gpu_out}; B=/tmp/gpu_bench_logs; rm -rf $B; mkdir -p $OUT $B
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
PT="python3 -m pytest -p no:cacheprovider -W ignore -q --benchmark-only --benchmark-group-by=group --benchmark-columns=min,median,mean,rounds"
for section in ${*:-kernels train gemm models}; do case $section in
  kernels) timeout 240 $PT -s bench/test_bench_kernels.py --benchmark-json=$B/kernels.json > $B/kernels.log 2>&1 ;;
  train) BENCH_DEVICE=gpu timeout 240 $PT bench/test_bench_eager.py bench/test_bench_train.py \
           --benchmark-json=$B/train.json > $B/train.log 2>&1 ;;
  # GEMMs per precision (TF32, float16, bfloat16) and an AMP training step, against PyTorch: TFLOP/s in extra_info
  gemm) BENCH_DEVICE=gpu timeout 150 $PT bench/test_bench_gemm.py --benchmark-json=$B/gemm.json > $B/gemm.log 2>&1 ;;
  # issue 25: ResNet-50 (bf16 AMP, fp32) and GPT-2 small (bf16) training steps against PyTorch, ~4 minutes
  models) timeout 300 $PT -s bench/test_bench_models.py --benchmark-json=$B/models.json > $B/models.log 2>&1 ;;
esac; done
tar czf $OUT/bench.tgz -C $B .
for f in $B/*.log; do echo "== $f"; grep -E "GB/s|TFLOP|step s|^test_|passed|failed|Error" $f | tail -40; done
[ -f $B/gemm.json ] && python3 -c "import json; [print(b['name'], b['extra_info'].get('TFLOP/s')) for b in json.load(open('$B/gemm.json'))['benchmarks'] if b['group'].startswith('matmul')]" 2>/dev/null
