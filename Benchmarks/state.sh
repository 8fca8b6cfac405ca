#!/usr/bin/env bash
# `analyze --state` benchmark: a day of new lines (1 M) after a week of old ones (7 M), as a
# nightly cron run reads them, against analysing the day's lines alone. Both in release, on a
# tmpfs, alternating; medians.
#   alone:  fetcher analyze day1.log
#   state:  fetcher analyze --state week.state access.log   (access.log = week + day; the
#           state files, restored before each run, stopped at the end of the week)
# Target: the state run at most 1.2x the day alone. Also reports the state's size, the first
# run's time (the week, read once), and seven nights in a row (each with its own new day),
# which shows the nights on which the base is written anew.
#
# Usage: Benchmarks/state.sh [RUNS (default 5)]
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}

source Benchmarks/lib.sh
build_fetcher
make_work state

# About 121 bytes a line: a week of 7 M lines, and seven days of 1 M lines of another seed.
python3 Benchmarks/generate_log.py "$work/week.log" 850 1
python3 Benchmarks/generate_log.py "$work/days.log" 850 2
head -n 7000000 "$work/week.log" >"$work/access.log"
rm "$work/week.log"
for day in 1 2 3 4 5 6 7; do
  sed -n "$(((day - 1) * 1000000 + 1)),$((day * 1000000))p" "$work/days.log" >"$work/day$day.log"
done
rm "$work/days.log"
echo "week: $(wc -l <"$work/access.log") lines; a day: $(wc -l <"$work/day1.log") lines"

state="$work/state/week.state"
mkdir -p "$work/state" "$work/saved"
first=$(seconds "$fetcher" analyze --state "$state" "$work/access.log")
echo "first run (the week): $(printf '%.2f' "$first") s; state $(du -shc "$work/state" | tail -1 | cut -f1)"
cp "$work/state/"* "$work/saved/"
restore() {
  rm -f "$work/state/"*
  cp "$work/saved/"* "$work/state/"
}
cat "$work/day1.log" >>"$work/access.log"

alone="" layered=""
for run in $(seq "$runs"); do
  alone+=" $(seconds "$fetcher" analyze "$work/day1.log")"
  restore
  layered+=" $(seconds "$fetcher" analyze --state "$state" "$work/access.log")"
  printf 'run %d done\n' "$run"
done
python3 - "$alone" "$layered" <<'PY'
import statistics, sys
alone, state = (statistics.median(float(x) for x in arg.split()) for arg in sys.argv[1:3])
print(f"the day alone: {alone:.3f} s; --state after the week: {state:.3f} s, "
      f"{state / alone:.2f}x (target <= 1.2)")
PY

# Seven nights in a row, each with a new day appended; a night whose base changed wrote it.
restore
truncate -s "$(($(stat -c %s "$work/access.log") - $(stat -c %s "$work/day1.log")))" \
  "$work/access.log"
for day in 1 2 3 4 5 6 7; do
  cat "$work/day$day.log" >>"$work/access.log"
  before=$(ls "$work/state" | grep base- || true)
  took=$(seconds "$fetcher" analyze --state "$state" "$work/access.log")
  after=$(ls "$work/state" | grep base- || true)
  note=$([ "$before" = "$after" ] && echo "" || echo " (base written anew)")
  echo "night $day: $(printf '%.3f' "$took") s$note"
done
