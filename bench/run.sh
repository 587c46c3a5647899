#!/bin/sh
# Benchmarks opgen's public API against Eigen, numpy, oneDNN, XNNPACK, SLEEF
# and OpenBLAS on the same inputs in one run, and prints one table (see
# docs/benchmarks.md). Installs the peers from Debian when it can (apt-get,
# as root); a peer that is missing is left out of the table.
#
#   bench/run.sh [--quick] [--float64]
#
# --quick: fewer and shorter repetitions. --float64: the op table on float64
# tensors against the float64 peers (Eigen, SLEEF, plain loops, numpy), with
# errors against a long double reference; no STREAM, overhead, FMA, matmul or
# 2-thread rows.
#
# Environment: OPGEN_BENCH_OPS (comma-separated op names, default all; a
# restricted list also leaves out the STREAM, overhead, FMA and matmul rows),
# OPGEN_BENCH_SIZES (default 1024,65536,1048576,16777216),
# BENCH_REPS (repetitions, run as that many rounds, default 5),
# BENCH_MIN_TIME (seconds per repetition, default 0.1), BENCH_CPU (core to
# pin to, default the last one),
# BENCH_BUILD (build folder, default build-bench), BENCH_THREAD_CPUS (the
# two cores of the 2-thread rows, default 0,1), OPGEN_BENCH_THREAD_SIZES
# (default 262144,1048576,16777216), OPENBLAS_CORETYPE (OpenBLAS's kernels;
# by default its own choice, unless it falls back to SSE3: see below),
# BENCH_KEEP (a folder to keep the raw results in, for bench/table.py),
# BENCH_PAIRED_ROUNDS (rounds of the paired table, default 15; 0 leaves
# it out).
set -eu
cd "$(dirname "$0")/.."

quick=false
dtype_flag=""
for arg in "$@"; do
  case $arg in
    --quick) quick=true ;;
    --float64) dtype_flag=--float64 ;;
    *) echo "usage: bench/run.sh [--quick] [--float64]" >&2; exit 2 ;;
  esac
done

pkgs="libbenchmark-dev libeigen3-dev libopenblas-dev libdnnl-dev libxnnpack-dev libpthreadpool-dev libsleef-dev python3-numpy"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    for p in $missing; do
      if apt-cache show "$p" >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$p" >/dev/null || echo "run.sh: could not install $p" >&2
      else
        echo "run.sh: no package $p here; its peer is left out" >&2
      fi
    done
  else
    echo "run.sh: missing$missing (not root: install them to compare against those peers)" >&2
  fi
fi

build=${BENCH_BUILD:-build-bench}
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --wrap-mode=nodownload -Dbenchmarks=enabled -Dbuildtype=release \
    -Dtests=disabled -Ddocs=disabled >/dev/null
fi
ninja -C "$build" bench/ops_bench >/dev/null

sizes=${OPGEN_BENCH_SIZES:-1024,65536,1048576,16777216}
reps=${BENCH_REPS:-5}
min_time=${BENCH_MIN_TIME:-0.1}
if $quick; then reps=3; min_time=0.02; fi
paired_rounds=${BENCH_PAIRED_ROUNDS:-15}
if $quick && [ "$paired_rounds" != 0 ]; then paired_rounds=5; fi
case $reps in
  '' | *[!0-9]* | 0) echo "run.sh: BENCH_REPS must be a positive integer, not '$reps'" >&2; exit 2 ;;
esac
case $paired_rounds in
  '' | *[!0-9]*) echo "run.sh: BENCH_PAIRED_ROUNDS must be a number, not '$paired_rounds'" >&2; exit 2 ;;
esac
cpu=${BENCH_CPU:-$(($(nproc) - 1))}
out=$(mktemp -d)
# BENCH_KEEP: the raw results (Google Benchmark and numpy JSON of each
# round, the accuracy file) are copied there, for `bench/table.py <folder>`.
# A kept folder's results of an earlier run go first: table.py would merge
# every ops.<round>.json it finds.
trap '[ -z "${BENCH_KEEP:-}" ] || { mkdir -p "$BENCH_KEEP" &&
  rm -f "$BENCH_KEEP"/ops.*.json "$BENCH_KEEP"/numpy.*.json "$BENCH_KEEP"/ops.json \
    "$BENCH_KEEP"/numpy.json "$BENCH_KEEP"/threads.json "$BENCH_KEEP"/accuracy.json \
    "$BENCH_KEEP"/paired.json &&
  cp "$out"/* "$BENCH_KEEP"/; }; rm -rf "$out"' EXIT

# One thread everywhere: oneDNN is an OpenMP build, numpy uses OpenBLAS.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OPGEN_BENCH_SIZES="$sizes"
# OpenBLAS (the matmul peer, and numpy's BLAS on Debian) picks its kernels
# by the CPU's family and model. On a CPU newer than it knows it falls back
# to "Prescott" (SSE3): Debian's 0.3.21 did so on an Emerald Rapids Xeon
# (family 6, model 207), where its sgemm at 1024 ran at 16-21 GFLOP/s
# against 96-124 with its AVX-512 kernels. A peer is measured at its best:
# on that fallback, choose the kernels by the CPU's flags (OPENBLAS_CORETYPE,
# read when the library loads) and say so in the table. A value the caller
# set is kept.
openblas_note=""
if [ -z "${OPENBLAS_CORETYPE+set}" ]; then
  core=$("$build/bench/ops_bench" --openblas_core 2>/dev/null || true)
  if [ "$core" = Prescott ]; then
    flags=$(grep -m 1 '^flags' /proc/cpuinfo 2>/dev/null || true)
    has() { case " $flags " in *" $1 "*) return 0 ;; esac; return 1; }
    pick=""
    if has avx512f && has avx512bw && has avx512dq && has avx512vl; then
      if has avx512_bf16; then pick=Cooperlake; else pick=SkylakeX; fi
    elif has avx2 && has fma; then
      pick=Haswell
    fi
    if [ -n "$pick" ] &&
       [ "$(OPENBLAS_CORETYPE=$pick "$build/bench/ops_bench" --openblas_core 2>/dev/null)" = "$pick" ]; then
      export OPENBLAS_CORETYPE=$pick
      openblas_note="OpenBLAS kernels: $pick (OPENBLAS_CORETYPE; it detected $core, its fallback for CPUs it does not know)"
    fi
  fi
  [ -n "$openblas_note" ] || [ -z "$core" ] || openblas_note="OpenBLAS kernels: $core (its own choice)"
else
  # The caller's choice is kept, but it may leave the peer short of its
  # best (an environment that sets OPENBLAS_CORETYPE=Haswell on an AVX-512
  # core): say what OpenBLAS would choose without it, unless that is its
  # SSE3 fallback for CPUs it does not know.
  core=$("$build/bench/ops_bench" --openblas_core 2>/dev/null || true)
  own=$( (unset OPENBLAS_CORETYPE; "$build/bench/ops_bench" --openblas_core) 2>/dev/null || true)
  openblas_note=""
  if [ -n "$core" ]; then
    openblas_note="OpenBLAS kernels: $core (OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE, set by the caller)"
    case $own in
      '' | "$core" | Prescott) ;;
      *) openblas_note="$openblas_note; unset, it would choose $own" ;;
    esac
  fi
fi
export BENCH_OPENBLAS_NOTE="$openblas_note"
# The op table (names and input domains), which numpy_bench.py follows.
"$build/bench/ops_bench" --list_ops >"$out/ops_list.json"  # the same in both dtypes
# Rounds of one repetition each, ops_bench (opgen and the C++ peers) and
# numpy_bench.py alternately, the first of the pair switching every round,
# so that numpy's repetitions are spread over the run like everyone else's
# (a busy neighbour moves the machine's speed over minutes, and numpy in a
# phase of its own once read 0.75-0.85 of opgen on rows where, timed
# alternately, the two were level). Google Benchmark calibrates again in
# each process: about a fifth more time than one process with every
# repetition. The errors are measured in the first round only.
ops_round() {
  acc=""
  [ "$1" != 1 ] || acc="--accuracy_out=$out/accuracy.json"
  taskset -c "$cpu" "$build/bench/ops_bench" $dtype_flag ${acc:+"$acc"} --benchmark_repetitions=1 \
    --benchmark_min_time="$min_time" --benchmark_enable_random_interleaving=true \
    --benchmark_out="$out/ops.$1.json" --benchmark_out_format=json >/dev/null 2>"$out/ops.log" \
    || { cat "$out/ops.log" >&2; exit 1; }
}
numpy_round() {
  timing=""
  [ "$1" = 1 ] || timing="--timing-only"
  taskset -c "$cpu" /usr/bin/python3 bench/numpy_bench.py "$sizes" "$out/ops_list.json" \
    "$min_time" 1 ${timing:+"$timing"} $dtype_flag >"$out/numpy.$1.json"
}
round=1
while [ "$round" -le "$reps" ]; do
  if [ $((round % 2)) = 1 ]; then
    ops_round "$round"
    numpy_round "$round"
  else
    numpy_round "$round"
    ops_round "$round"
  fi
  round=$((round + 1))
done
# The paired table: opgen and each C++ peer of a row timed alternately in
# batches of a few milliseconds, round by round, so that the ratio compares
# the two at the same moments (the rows above run minutes apart in a round,
# and a busy neighbour moves the machine's speed over that time).
if [ "$paired_rounds" -gt 0 ]; then
  taskset -c "$cpu" "$build/bench/ops_bench" $dtype_flag --paired_out="$out/paired.json" \
    --paired_rounds="$paired_rounds" 2>"$out/paired.log" || { cat "$out/paired.log" >&2; exit 1; }
fi
# The 2-thread rows (float32 only): two cores (BENCH_THREAD_CPUS), wall-clock
# time.
if [ -z "$dtype_flag" ]; then
  tcpus=${BENCH_THREAD_CPUS:-0,1}
  taskset -c "$tcpus" "$build/bench/ops_bench" --threads_rows \
    --benchmark_repetitions="$reps" --benchmark_min_time="$min_time" \
    --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/threads.json" --benchmark_out_format=json >/dev/null 2>"$out/threads.log" \
    || { cat "$out/threads.log" >&2; exit 1; }
fi
# The threads file is empty when OPGEN_BENCH_OPS names none of add, exp,
# tanh, sigmoid, softmax; table.py then leaves its rows out.
/usr/bin/python3 bench/table.py "$out"
