#!/usr/bin/env bash
# What `--panels` costs: `fetcher analyze` of a 1 GB log (Benchmarks/generate_log.py's
# `varied` one: statuses, 404s, referers, sizes) with each panel alone and all of them,
# against the default run, alternating on a tmpfs; medians. Targets: all panels at most 40%
# over the default, each alone at most 15%.
#
# Usage: Benchmarks/panels.sh [RUNS (default 5)] [SIZE_MB (default 1000)]
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
size_mb=${2:-1000}
source Benchmarks/lib.sh
build_fetcher
make_work panels
python3 Benchmarks/generate_log.py "$work/access.log" "$size_mb" 5 varied
echo "log: $(du -h "$work/access.log" | cut -f1), $(wc -l <"$work/access.log") lines"

# `fetcher analyze` of the log with the options given: its seconds.
run() { seconds "$fetcher" analyze "$@" "$work/access.log"; }
panels=(pages status not-found referrers hours bandwidth clients all)
declare -A times
times[default]=""
for panel in "${panels[@]}"; do times[$panel]=""; done
for round in $(seq "$runs"); do
  for panel in "${panels[@]}"; do
    times[default]+=" $(run)"
    times[$panel]+=" $(run --panels "$panel")"
  done
  echo "run $round done"
done
python3 - "${times[default]}" "${panels[@]}" <<PY
import statistics, sys
default = statistics.median(float(x) for x in sys.argv[1].split())
print(f"default: {default:.3f} s")
PY
for panel in "${panels[@]}"; do
  python3 - "${times[default]}" "${times[$panel]}" "$panel" <<'PY'
import statistics, sys
default, panel = (statistics.median(float(x) for x in arg.split()) for arg in sys.argv[1:3])
target = 1.40 if sys.argv[3] == "all" else 1.15
print(f"--panels {sys.argv[3]}: {panel:.3f} s, {panel / default:.2f}x (target <= {target})")
PY
done
