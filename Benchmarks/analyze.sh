#!/usr/bin/env bash
# Log analysis benchmark: `fetcher analyze` on a deterministic synthetic ~1 GB access log,
# against `wc -l` (the memory-bandwidth floor) and a straightforward reference implementation
# (Benchmarks/reference_analyze.py). Reports the median MB/s and lines/s of each, the ratios,
# and fetcher's peak RSS. Targets: >= 500 MB/s (reach for 1 GB/s), peak RSS < 1 GB.
# Then the slower paths, against the default one: `--session-gap 30m --status 2xx
# --exclude-bots` on the same log (target >= 60% of its MB/s), and `--log-format json` on the
# log rewritten as nginx JSON lines by Benchmarks/to_json_log.py (target >= 40%), each
# checked to give the same top 10 as the default path on the same visits. And the log that no
# cache holds (generate_log.py's `clients`: 1 M clients in 1 GB, 200 k pages, 4,096 sessions
# interleaved; issue 72), against the default log's MB/s (target >= 100%).
#
# Usage: Benchmarks/analyze.sh [SIZE_MB (default 1000)] [RUNS (default 5)]
# Not a test: run it by hand. The log is generated once into $TMPDIR and reused.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-1000}
runs=${2:-5}
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }

log="${TMPDIR:-/tmp}/fetcher-bench-${size_mb}MB.log"
[ -f "$log" ] || python3 Benchmarks/generate_log.py "$log" "$size_mb" 1
bytes=$(stat -c %s "$log")
lines=$(wc -l <"$log")

swift build -c release --product fetcher >/dev/null
fetcher=$(swift build -c release --show-bin-path)/fetcher

seconds() { # command... -> elapsed seconds on stdout, peak RSS (KB) in $work_rss
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o /tmp/fetcher-bench-rss "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}

wc_times=() fetcher_times=() peak=0
for run in $(seq "$runs"); do
  wc_times+=("$(seconds wc -l "$log")")
  fetcher_times+=("$(seconds "$fetcher" analyze "$log" --top 10)")
  rss=$(cat /tmp/fetcher-bench-rss)
  [ "$rss" -gt "$peak" ] && peak=$rss
  printf 'run %d: wc -l %.2f s, fetcher %.2f s (RSS %d MB)\n' "$run" "${wc_times[-1]}" \
    "${fetcher_times[-1]}" "$((rss / 1024))"
done
json_log="${log%.log}.json.log"
[ -f "$json_log" ] || python3 Benchmarks/to_json_log.py "$log" "$json_log"
json_bytes=$(stat -c %s "$json_log")
filters=(--session-gap 30m --status 2xx --exclude-bots)
filtered_times=() json_times=()
for run in $(seq "$runs"); do
  filtered_times+=("$(seconds "$fetcher" analyze "$log" --top 10 "${filters[@]}")")
  json_times+=("$(seconds "$fetcher" analyze "$json_log" --top 10 --log-format json)")
  printf 'run %d: with %s %.2f s, JSON %.2f s\n' "$run" "${filters[*]}" \
    "${filtered_times[-1]}" "${json_times[-1]}"
done
clients_log="${log%.log}.clients.log"
[ -f "$clients_log" ] || python3 Benchmarks/generate_log.py "$clients_log" "$size_mb" 1 clients
clients_bytes=$(stat -c %s "$clients_log")
clients_times=()
for run in $(seq "$runs"); do
  clients_times+=("$(seconds "$fetcher" analyze "$clients_log" --top 10)")
  printf 'run %d: many clients %.2f s\n' "$run" "${clients_times[-1]}"
done
"$fetcher" analyze "$json_log" --top 10 --csv >/tmp/fetcher-bench-json.csv 2>/dev/null
"$fetcher" analyze "$log" --top 10 --csv >/tmp/fetcher-bench-plain.csv 2>/dev/null
if cmp -s /tmp/fetcher-bench-json.csv /tmp/fetcher-bench-plain.csv; then
  echo "results: the JSON log gives the same top 10 as the combined one"
else
  echo "results DIFFER between the JSON and the combined log" >&2
  exit 1
fi

reference=$(seconds python3 Benchmarks/reference_analyze.py "$log")
printf 'reference (one run): %.2f s\n' "$reference"

"$fetcher" analyze "$log" --top 10 --csv >/tmp/fetcher-bench-ours.csv 2>/dev/null
python3 Benchmarks/reference_analyze.py "$log" >/tmp/fetcher-bench-reference.csv
if cmp -s /tmp/fetcher-bench-ours.csv /tmp/fetcher-bench-reference.csv; then
  echo "results: fetcher and the reference agree on the top 10"
else
  echo "results DIFFER from the reference" >&2
  exit 1
fi

python3 - "$bytes" "$lines" "$peak" "$reference" "${wc_times[*]}" "${fetcher_times[*]}" \
  "${filtered_times[*]}" "$json_bytes" "${json_times[*]}" "$clients_bytes" "${clients_times[*]}" <<'PY'
import statistics, sys
size, lines, peak, reference = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
wc = statistics.median(float(x) for x in sys.argv[5].split())
ours = statistics.median(float(x) for x in sys.argv[6].split())
filtered = statistics.median(float(x) for x in sys.argv[7].split())
json_size = int(sys.argv[8])
json = statistics.median(float(x) for x in sys.argv[9].split())
clients_size = int(sys.argv[10])
clients = statistics.median(float(x) for x in sys.argv[11].split())
print(f"log: {size / 1e6:.0f} MB, {lines} lines")
print(f"wc -l:     {size / wc / 1e6:7.0f} MB/s  {lines / wc / 1e6:6.1f} M lines/s")
print(f"fetcher:   {size / ours / 1e6:7.0f} MB/s  {lines / ours / 1e6:6.1f} M lines/s  (target >= 500 MB/s)")
print(f"reference: {size / reference / 1e6:7.0f} MB/s  {lines / reference / 1e6:6.1f} M lines/s")
print(f"fetcher takes {ours / wc:.1f}x the time of wc -l and is {reference / ours:.1f}x faster than the reference")
print(f"fetcher peak RSS: {peak / 1024:.0f} MB (target < 1024 MB)")
default = size / ours
print(f"--session-gap 30m --status 2xx --exclude-bots: {size / filtered / 1e6:5.0f} MB/s, "
      f"{size / filtered / default:.0%} of the default path (target >= 60%)")
print(f"--log-format json ({json_size / 1e6:.0f} MB): {json_size / json / 1e6:5.0f} MB/s, "
      f"{json_size / json / default:.0%} of the default path (target >= 40%)")
print(f"many clients ({clients_size / 1e6:.0f} MB): {clients_size / clients / 1e6:5.0f} MB/s, "
      f"{clients_size / clients / default:.0%} of the default log (target >= 100%)")
PY
