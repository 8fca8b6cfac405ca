#!/usr/bin/env bash
# `analyze --state` benchmark: a day of new lines (1 M) after a week of old ones (7 M), as a
# nightly cron run reads them, against analysing the day's lines alone. Both in release, on a
# tmpfs, alternating; medians.
#   alone:  fetcher analyze day.log
#   state:  fetcher analyze --state week.state access.log   (access.log = week + day; the
#           state, restored before each run, stopped at the end of the week)
# Target: the state run at most 1.2x the day alone. Also reports the state file's size and the
# first run's time (the week, read once).
#
# Usage: Benchmarks/state.sh [RUNS (default 5)]
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}

swift build -c release --product fetcher >/dev/null
fetcher=$(swift build -c release --show-bin-path)/fetcher
work=$(mktemp -d /dev/shm/fetcher-state.XXXXXX)
trap 'rm -rf "$work"' EXIT

# About 121 bytes a line: 7 M lines and 1 M lines, different seeds.
python3 Benchmarks/generate_log.py "$work/week.log" 850 1
python3 Benchmarks/generate_log.py "$work/day.log" 121 2
head -n 7000000 "$work/week.log" >"$work/access.log"
head -n 1000000 "$work/day.log" >"$work/day1.log"
echo "week: $(wc -l <"$work/access.log") lines; day: $(wc -l <"$work/day1.log") lines"
start=$(date +%s.%N)
"$fetcher" analyze --state "$work/week.state" "$work/access.log" >/dev/null 2>&1
end=$(date +%s.%N)
echo "first run (the week): $(python3 -c "print(f'{$end - $start:.2f}')") s; state $(du -h "$work/week.state" | cut -f1)"
cp "$work/week.state" "$work/saved.state"
cat "$work/day1.log" >>"$work/access.log"

seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}
alone="" state=""
for run in $(seq "$runs"); do
  alone+=" $(seconds "$fetcher" analyze "$work/day1.log")"
  cp "$work/saved.state" "$work/week.state"
  state+=" $(seconds "$fetcher" analyze --state "$work/week.state" "$work/access.log")"
  printf 'run %d done\n' "$run"
done
python3 - "$alone" "$state" <<'PY'
import statistics, sys
alone, state = (statistics.median(float(x) for x in arg.split()) for arg in sys.argv[1:3])
print(f"the day alone: {alone:.2f} s; --state after the week: {state:.2f} s, "
      f"{state / alone:.2f}x (target <= 1.2)")
PY
