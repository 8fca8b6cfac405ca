#!/usr/bin/env bash
# Paired comparison of two `fetcher` builds on `analyze --state`: the nightly run of
# Benchmarks/state.sh (a day of 1 M new lines after a week of 7 M, the state restored before
# each run) and the first run (the week read whole and its state written), the two binaries
# alternating RUNS times each, on a tmpfs; medians and their ratios. For a change to how the
# state is read or written: build the commit before into one binary and the change into
# another. The state files are those of BEFORE, which AFTER must read (same format).
#
# Usage: Benchmarks/compare_state.sh BEFORE AFTER [RUNS (default 5)]
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$1
after=$2
runs=${3:-5}

source Benchmarks/lib.sh
make_work compare-state

python3 Benchmarks/generate_log.py "$work/week.log" 850 1
python3 Benchmarks/generate_log.py "$work/day.log" 122 2
head -n 7000000 "$work/week.log" >"$work/access.log"
head -n 1000000 "$work/day.log" >"$work/day1.log"
rm "$work/week.log" "$work/day.log"

state="$work/state/week.state"
mkdir -p "$work/state" "$work/saved"
"$before" analyze --state "$state" "$work/access.log" >/dev/null 2>&1
cp "$work/state/"* "$work/saved/"
restore() {
  rm -f "$work/state/"*
  cp "$work/saved/"* "$work/state/"
}
cp "$work/access.log" "$work/week.log"
cat "$work/day1.log" >>"$work/access.log"

declare -A nightly=([before]="" [after]="") first=([before]="" [after]="")
for _ in $(seq "$runs"); do
  for which in before after; do
    binary=${!which}
    restore
    nightly[$which]+=" $(seconds "$binary" analyze --state "$state" "$work/access.log")"
    rm -f "$work/state/"*
    first[$which]+=" $(seconds "$binary" analyze --state "$state" "$work/week.log")"
  done
done
python3 - "${nightly[before]}" "${nightly[after]}" "${first[before]}" "${first[after]}" <<'PY'
import statistics, sys
b, a, fb, fa = (statistics.median(float(x) for x in arg.split()) for arg in sys.argv[1:5])
print(f"nightly (a day after the week): before {b:.3f} s, after {a:.3f} s, after/before {a / b:.3f}")
print(f"first run (the week, state written): before {fb:.3f} s, after {fa:.3f} s, after/before {fa / fb:.3f}")
PY
