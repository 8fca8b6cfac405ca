#!/usr/bin/env bash
# `analyze --follow` benchmark: a writer appends a synthetic combined log at 200,000 lines a
# second for 10 s (in 10 ms slices, as a busy server's buffered log would grow) while
# `fetcher analyze --follow --json --refresh-every 1` reads it on a tmpfs. Reports the lag
# (from the writer's last line until a refresh counts every line) and fetcher's CPU time over
# the watch, in cores. Targets: it keeps up (the lag stays within a refresh or two) with one
# core or less.
#
# Usage: Benchmarks/follow.sh [LINES_PER_SECOND (default 200000)] [SECONDS (default 10)]
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-200000}
seconds=${2:-10}

swift build -c release --product fetcher >/dev/null
fetcher=$(swift build -c release --show-bin-path)/fetcher
work=$(mktemp -d /dev/shm/fetcher-follow.XXXXXX)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
total=$((rate * seconds))
python3 Benchmarks/generate_log.py "$work/source.log" $((total * 125 / 1000000 + 10)) 3
head -n "$total" "$work/source.log" >"$work/lines.log"
: >"$work/live.log"

"$fetcher" analyze --follow "$work/live.log" --json --refresh-every 1 >"$work/out.jsonl" \
  2>"$work/err.txt" &
pid=$!
ticks=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
cpu_start=$(cpu)
start=$(date +%s.%N)
python3 - "$work/lines.log" "$work/live.log" "$rate" <<'PY'
import sys, time
source, live, rate = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(source, "rb").read().splitlines(keepends=True)
per_slice = rate // 100
with open(live, "ab", buffering=0) as out:
    begin = time.monotonic()
    for index in range(0, len(lines), per_slice):
        out.write(b"".join(lines[index:index + per_slice]))
        due = begin + (index // per_slice + 1) / 100
        time.sleep(max(0, due - time.monotonic()))
    print(f"wrote {len(lines)} lines in {time.monotonic() - begin:.2f} s", file=sys.stderr)
PY
written=$(date +%s.%N)
# Waits for a refresh that counts every line (a bench may wait; a test may not).
until grep -q "\"lines\":$total[,}]" "$work/out.jsonl"; do sleep 0.05; done
caught=$(date +%s.%N)
cpu_end=$(cpu)
kill -INT "$pid"
wait "$pid"
python3 - "$start" "$written" "$caught" "$cpu_start" "$cpu_end" "$ticks" "$rate" <<'PY'
import sys
start, written, caught, cpu_start, cpu_end, ticks, rate = map(float, sys.argv[1:8])
print(f"{rate:.0f} lines/s for {written - start:.1f} s: every line counted "
      f"{caught - written:.2f} s after the last was written (refreshes every 1 s); "
      f"fetcher used {(cpu_end - cpu_start) / ticks / (caught - start):.2f} cores")
PY
