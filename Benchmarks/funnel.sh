#!/usr/bin/env bash
# What `--funnel` costs: `fetcher analyze` of a 1 GB log (Benchmarks/generate_log.py's one)
# with a four-step funnel, against the default run, and with a session gap against the same
# gap alone (a funnel reads every visit's time, as a gap does); alternating on a tmpfs,
# medians. The issue sets no target; the figures are for the README.
#
# Usage: Benchmarks/funnel.sh [RUNS (default 5)] [SIZE_MB (default 1000)]
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
size_mb=${2:-1000}
source Benchmarks/lib.sh
build_fetcher
make_work funnel
python3 Benchmarks/generate_log.py "$work/access.log" "$size_mb" 5
echo "log: $(du -h "$work/access.log" | cut -f1), $(wc -l <"$work/access.log") lines"

# `fetcher analyze` of the log with the options given: its seconds.
run() { seconds "$fetcher" analyze "$@" "$work/access.log"; }
funnel=(--funnel '/,/section1/*,/section2/*,/index.html')
gap=(--session-gap 30m)
declare -A times=([default]="" [funnel]="" [gap]="" [gap+funnel]="")
for round in $(seq "$runs"); do
  times[default]+=" $(run)"
  times[funnel]+=" $(run "${funnel[@]}")"
  times[gap]+=" $(run "${gap[@]}")"
  times[gap+funnel]+=" $(run "${gap[@]}" "${funnel[@]}")"
  echo "run $round done"
done
python3 - "${times[default]}" "${times[funnel]}" "${times[gap]}" "${times[gap+funnel]}" <<'PY'
import statistics, sys
default, funnel, gap, both = (statistics.median(float(x) for x in arg.split()) for arg in sys.argv[1:5])
print(f"default: {default:.3f} s; --funnel: {funnel:.3f} s, {funnel / default:.2f}x")
print(f"--session-gap 30m: {gap:.3f} s; with --funnel: {both:.3f} s, {both / gap:.2f}x")
PY
