#!/usr/bin/env bash
# Log analysis benchmark: `fetcher analyze` on a deterministic synthetic ~1 GB access log,
# against `wc -l` (the memory-bandwidth floor), a one-thread C pass (Benchmarks/top_sequences.c:
# mmap, open addressing) and a straightforward reference implementation
# (Benchmarks/reference_analyze.py), checking that all give the same top 10. Reports the
# median MB/s and lines/s of each, the ratios, and fetcher's peak RSS. Targets: >= 500 MB/s
# (reach for 1 GB/s), peak RSS < 1 GB.
# Then the slower paths, against the default one: `--session-gap 30m --status 2xx
# --exclude-bots` on the same log (target >= 60% of its MB/s), and `--log-format json` on the
# log rewritten as nginx JSON lines by Benchmarks/to_json_log.py (target >= 40%), each
# checked to give the same top 10 as the default path on the same visits. And the log that no
# cache holds (generate_log.py's `clients`: 1 M clients in 1 GB, 200 k pages, 4,096 sessions
# interleaved; issue 72), beside the C pass on it, against the default log's MB/s (target
# >= 100%). Every command runs once per round, in turn, so each figure is paired with the
# others of its round; the medians are over the rounds.
#
# Usage: Benchmarks/analyze.sh [SIZE_MB (default 1000)] [RUNS (default 5)]
# Not a test: run it by hand. The logs are generated once into $TMPDIR (default /dev/shm, a
# tmpfs, so that the disk stays out of the figures) and reused.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-1000}
runs=${2:-5}
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }

folder=${TMPDIR:-/dev/shm}
log="$folder/fetcher-bench-${size_mb}MB.log"
[ -f "$log" ] || python3 Benchmarks/generate_log.py "$log" "$size_mb" 1
bytes=$(stat -c %s "$log")
lines=$(wc -l <"$log")
json_log="${log%.log}.json.log"
[ -f "$json_log" ] || python3 Benchmarks/to_json_log.py "$log" "$json_log"
json_bytes=$(stat -c %s "$json_log")
clients_log="${log%.log}.clients.log"
[ -f "$clients_log" ] || python3 Benchmarks/generate_log.py "$clients_log" "$size_mb" 1 clients
clients_bytes=$(stat -c %s "$clients_log")

swift build -c release --product fetcher >/dev/null
fetcher=$(swift build -c release --show-bin-path)/fetcher
c_pass="$folder/fetcher-bench-top-sequences"
cc -O2 -o "$c_pass" Benchmarks/top_sequences.c

seconds() { # command... -> elapsed seconds on stdout, peak RSS (KB) in /tmp/fetcher-bench-rss
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o /tmp/fetcher-bench-rss "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}

filters=(--session-gap 30m --status 2xx --exclude-bots)
wc_times=() c_times=() fetcher_times=() filtered_times=() json_times=()
c_clients_times=() clients_times=() peak=0
for run in $(seq "$runs"); do
  wc_times+=("$(seconds wc -l "$log")")
  c_times+=("$(seconds "$c_pass" "$log")")
  fetcher_times+=("$(seconds "$fetcher" analyze "$log" --top 10)")
  rss=$(cat /tmp/fetcher-bench-rss)
  [ "$rss" -gt "$peak" ] && peak=$rss
  filtered_times+=("$(seconds "$fetcher" analyze "$log" --top 10 "${filters[@]}")")
  json_times+=("$(seconds "$fetcher" analyze "$json_log" --top 10 --log-format json)")
  c_clients_times+=("$(seconds "$c_pass" "$clients_log")")
  clients_times+=("$(seconds "$fetcher" analyze "$clients_log" --top 10)")
  rss=$(cat /tmp/fetcher-bench-rss)
  [ "$rss" -gt "$peak" ] && peak=$rss
  printf 'run %d: wc -l %.2f s, C pass %.2f s, fetcher %.2f s, with %s %.2f s, JSON %.2f s;\n' \
    "$run" "${wc_times[-1]}" "${c_times[-1]}" "${fetcher_times[-1]}" "${filters[*]}" \
    "${filtered_times[-1]}" "${json_times[-1]}"
  printf '       many clients: C pass %.2f s, fetcher %.2f s\n' "${c_clients_times[-1]}" \
    "${clients_times[-1]}"
done
"$fetcher" analyze "$json_log" --top 10 --csv >/tmp/fetcher-bench-json.csv 2>/dev/null
"$fetcher" analyze "$log" --top 10 --csv >/tmp/fetcher-bench-plain.csv 2>/dev/null
if cmp -s /tmp/fetcher-bench-json.csv /tmp/fetcher-bench-plain.csv; then
  echo "results: the JSON log gives the same top 10 as the combined one"
else
  echo "results DIFFER between the JSON and the combined log" >&2
  exit 1
fi
"$fetcher" analyze "$clients_log" --top 10 --csv >/tmp/fetcher-bench-clients.csv 2>/dev/null
check_c_pass() { # LOG FETCHER_CSV: the C pass prints fetcher's CSV without its rank and share
  tr -d '\r' <"$2" | tail -n +2 | cut -d, -f2,4- >/tmp/fetcher-bench-ours.txt
  "$c_pass" "$1" >/tmp/fetcher-bench-c.txt
  if cmp -s /tmp/fetcher-bench-ours.txt /tmp/fetcher-bench-c.txt; then
    echo "results: fetcher and the C pass agree on the top 10 of $(basename "$1")"
  else
    echo "results DIFFER from the C pass on $1" >&2
    exit 1
  fi
}
check_c_pass "$log" /tmp/fetcher-bench-plain.csv
check_c_pass "$clients_log" /tmp/fetcher-bench-clients.csv

reference=$(seconds python3 Benchmarks/reference_analyze.py "$log")
printf 'reference (one run): %.2f s\n' "$reference"

python3 Benchmarks/reference_analyze.py "$log" >/tmp/fetcher-bench-reference.csv
if cmp -s /tmp/fetcher-bench-plain.csv /tmp/fetcher-bench-reference.csv; then
  echo "results: fetcher and the reference agree on the top 10"
else
  echo "results DIFFER from the reference" >&2
  exit 1
fi

python3 - "$bytes" "$lines" "$peak" "$reference" "${wc_times[*]}" "${fetcher_times[*]}" \
  "${filtered_times[*]}" "$json_bytes" "${json_times[*]}" "$clients_bytes" "${clients_times[*]}" \
  "${c_times[*]}" "${c_clients_times[*]}" <<'PY'
import statistics, sys
size, lines, peak, reference = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
def median(argument):
    return statistics.median(float(x) for x in argument.split())
wc, ours, filtered = median(sys.argv[5]), median(sys.argv[6]), median(sys.argv[7])
json_size = int(sys.argv[8])
json = median(sys.argv[9])
clients_size = int(sys.argv[10])
clients, c_pass, c_clients = median(sys.argv[11]), median(sys.argv[12]), median(sys.argv[13])
print(f"log: {size / 1e6:.0f} MB, {lines} lines")
print(f"wc -l:     {size / wc / 1e6:7.0f} MB/s  {lines / wc / 1e6:6.1f} M lines/s")
print(f"fetcher:   {size / ours / 1e6:7.0f} MB/s  {lines / ours / 1e6:6.1f} M lines/s  (target >= 500 MB/s)")
print(f"C pass:    {size / c_pass / 1e6:7.0f} MB/s  {lines / c_pass / 1e6:6.1f} M lines/s  (one thread)")
print(f"reference: {size / reference / 1e6:7.0f} MB/s  {lines / reference / 1e6:6.1f} M lines/s")
print(f"fetcher takes {ours / wc:.1f}x the time of wc -l and is {reference / ours:.1f}x faster than the reference")
print(f"fetcher peak RSS: {peak / 1024:.0f} MB (target < 1024 MB)")
default = size / ours
print(f"--session-gap 30m --status 2xx --exclude-bots: {size / filtered / 1e6:5.0f} MB/s, "
      f"{size / filtered / default:.0%} of the default path (target >= 60%)")
print(f"--log-format json ({json_size / 1e6:.0f} MB): {json_size / json / 1e6:5.0f} MB/s, "
      f"{json_size / json / default:.0%} of the default path (target >= 40%)")
print(f"fetcher takes {ours / c_pass:.2f}x the C pass's time on the default log")
print(f"many clients ({clients_size / 1e6:.0f} MB): {clients_size / clients / 1e6:5.0f} MB/s, "
      f"{clients_size / clients / default:.0%} of the default log (target >= 100%); "
      f"{clients / c_clients:.2f}x the C pass's time on it ({clients_size / c_clients / 1e6:.0f} MB/s)")
PY
