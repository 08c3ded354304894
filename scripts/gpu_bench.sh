#!/bin/bash
# Benchmarks on a lent GPU machine, in one call: the fused kernels against a device copy, unfused CuPy and
# PyTorch (bench/test_bench_kernels.py), and training steps / per-op overhead against PyTorch on the same GPU
# (BENCH_DEVICE=gpu), and ResNet-50 / GPT-2-small training steps against PyTorch (bench/test_bench_models.py). JSON
# and logs go to $OUT. Usage: bash scripts/gpu_bench.sh [kernels] [train] [models]   (default: all three)
set -u
OUT=${OUT:-/tmp/gpu_out}; B=/tmp/gpu_bench_logs; rm -rf $B; mkdir -p $OUT $B
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
PT="python3 -m pytest -p no:cacheprovider -W ignore -q --benchmark-only --benchmark-group-by=group --benchmark-columns=min,median,mean,rounds"
SECTIONS=${*:-kernels train models}
for section in $SECTIONS; do case $section in
  kernels) timeout 240 $PT -s bench/test_bench_kernels.py --benchmark-json=$B/kernels.json > $B/kernels.log 2>&1 ;;
  train) BENCH_DEVICE=gpu timeout 240 $PT bench/test_bench_eager.py bench/test_bench_train.py \
           --benchmark-json=$B/train.json > $B/train.log 2>&1 ;;
  # issue 25: ResNet-50 (bf16 AMP, fp32) and GPT-2 small (bf16) training steps against PyTorch, ~4 minutes
  models) timeout 300 $PT -s bench/test_bench_models.py --benchmark-json=$B/models.json > $B/models.log 2>&1 ;;
esac; done
tar czf $OUT/bench.tgz -C $B .
for f in $B/*.log; do echo "== $f"; grep -E "GB/s|TFLOP|step s|passed|failed|Error" $f | tail -30; done
