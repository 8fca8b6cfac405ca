#!/usr/bin/env bash
# Paired comparison of two `fetcher` builds on `analyze`: the same generated access log (on a
# tmpfs, /dev/shm, so the disk stays out), the two binaries run alternately RUNS times each
# with the same options, and the medians reported with their ratio. For a change to the log
# reader: build the commit before into one binary and the change into another.
#
# Usage: Benchmarks/compare_analyze.sh BEFORE AFTER [SIZE_MB (default 1000)] [RUNS (default 5)]
#        [-- ANALYZE OPTIONS...]
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$1
after=$2
size_mb=${3:-1000}
runs=${4:-5}
shift $(($# < 4 ? $# : 4))
[ "${1:-}" = "--" ] && shift
options=("$@")

log="/dev/shm/fetcher-compare-${size_mb}MB.log"
[ -f "$log" ] || python3 Benchmarks/generate_log.py "$log" "$size_mb" 1
bytes=$(stat -c %s "$log")

seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# One unmeasured run each, so that both start with the log in the page cache.
"$before" analyze "$log" "${options[@]}" >/dev/null 2>&1
"$after" analyze "$log" "${options[@]}" >/dev/null 2>&1
declare -a first=() second=()
for _ in $(seq "$runs"); do
  first+=("$(seconds "$before" analyze "$log" "${options[@]}")")
  second+=("$(seconds "$after" analyze "$log" "${options[@]}")")
done
b=$(printf '%s\n' "${first[@]}" | median)
a=$(printf '%s\n' "${second[@]}" | median)
printf 'log %s MB, options: %s\n' "$((bytes / 1000000))" "${options[*]:-(none)}"
printf '%-7s median %6.3f s  %7.0f MB/s   runs: %s\n' before "$b" \
  "$(echo "$bytes / $b / 1000000" | bc -l)" "${first[*]}"
printf '%-7s median %6.3f s  %7.0f MB/s   runs: %s\n' after "$a" \
  "$(echo "$bytes / $a / 1000000" | bc -l)" "${second[*]}"
printf 'after / before: %.3f\n' "$(echo "$a / $b" | bc -l)"
