#!/usr/bin/env bash
# Runs the generator's libFuzzer target for a given time.
#
#   tests/fuzz/run_fuzzer.sh BUILD_DIR SECONDS [libFuzzer options...]
#
# BUILD_DIR is a clang build configured with -Dfuzzing=enabled; the target
# is built if needed. The corpus lives in BUILD_DIR/fuzz/corpus and grows
# from run to run; it is seeded with opdefs/ (each namespace file followed
# by its includes, as "#@file NAME" sections: see opgen_fuzz.cpp) and the
# bad-spec corpus tests/bad_specs/. A finding (crash, sanitizer report,
# timeout, out-of-memory, leak) is written to BUILD_DIR/fuzz/artifacts/ and
# makes the script exit non-zero; turn it into a regression test in
# tests/bad_specs/ (or a golden test when the spec is valid). The last
# line is "fuzz: N executions in S s, N findings".
set -euo pipefail
if (($# < 2)); then
  echo "usage: $0 BUILD_DIR SECONDS [libFuzzer options...]" >&2
  exit 2
fi
build=$1
seconds=$2
shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
ninja -C "$build" tests/fuzz/opgen_fuzz >/dev/null

work="$build/fuzz"
mkdir -p "$work/corpus" "$work/seeds" "$work/artifacts"
rm -f "$work/seeds/"*
for f in "$src"/opdefs/*.toml "$src"/tests/bad_specs/*.toml; do
  seed="$work/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"
  cp "$f" "$seed"
  # The files it includes, as sections of the same input.
  { grep -o '^include = \[.*\]' "$f" || true; } | { grep -o '"[^"]*"' || true; } | tr -d '"' | while read -r inc; do
    if [ -f "$(dirname "$f")/$inc" ]; then
      printf '\n#@file %s\n' "$inc" >>"$seed"
      cat "$(dirname "$f")/$inc" >>"$seed"
    fi
  done
done

log="$work/last-run.log"
before=$(find "$work/artifacts" -type f | wc -l)
status=0
# One process, one core; -timeout and -rss_limit_mb bound each input.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  "$build/tests/fuzz/opgen_fuzz" "$work/corpus" "$work/seeds" \
  -dict="$src/tests/fuzz/opgen.dict" \
  -artifact_prefix="$work/artifacts/" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -print_final_stats=1 "$@" >"$log" 2>&1 || status=$?
after=$(find "$work/artifacts" -type f | wc -l)
execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1)
took=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -n 1)
findings=$((after - before))
if ((status != 0)); then
  tail -n 60 "$log"
  ((findings > 0)) || findings=1
fi
echo "fuzz: ${execs:-0} executions in $seconds s (${took:-0}/s), $findings findings"
((findings == 0))
