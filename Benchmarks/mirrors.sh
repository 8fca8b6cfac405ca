#!/usr/bin/env bash
# Mirrors benchmark: one 400 MB file served by three nginx mirrors on loopback, each sending a
# connection at most 40 MB/s (limit_rate 40m). nginx limits connections, not servers, so each
# tool opens at most 2 connections to a mirror (aria2c's -x2): one mirror is then worth
# 80 MB/s, and three 240 MB/s. Runs, alternating, on the same file:
#   one mirror:  fetcher download -s 2 URL1
#   three:       fetcher download -s 6 URL1 --mirror URL2 --mirror URL3
#   aria2c:      aria2c -s6 -x2 with the three URLs (TAB-separated in an input file)
# Targets: three mirrors at least 2.7x one, and within 10% of aria2c. Reports medians (MB/s).
#
# Usage: Benchmarks/mirrors.sh [RUNS (default 5)]
# The copies go to a tmpfs (/dev/shm) so that the disk stays out of the figures.
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}

missing=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v aria2c >/dev/null || missing+=(aria2)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi

swift build -c release --product fetcher >/dev/null
fetcher=$(swift build -c release --show-bin-path)/fetcher

work=$(mktemp -d)
out=$(mktemp -d /dev/shm/fetcher-mirrors.XXXXXX)
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work" "$out"' EXIT
mkdir -p "$work/www" "$work/home" "$work/nginx"
head -c 400000000 /dev/urandom >"$work/www/file.bin"
chmod -R a+rX "$work"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ports=("$(free_port)" "$(free_port)" "$(free_port)")
{
  echo "worker_processes 2; pid $work/nginx.pid; error_log $work/nginx/error.log;"
  echo "events { worker_connections 64; }"
  echo "http { access_log off; sendfile on; client_body_temp_path $work/nginx;"
  echo "  proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx;"
  echo "  uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;"
  for i in 0 1 2; do
    echo "  server { listen 127.0.0.$((i + 1)):${ports[$i]}; root $work/www; limit_rate 40m; }"
  done
  echo "}"
} >"$work/nginx.conf"
nginx -c "$work/nginx.conf"
# Three hosts (127.0.0.1 to .3, all loopback): aria2c's -x counts connections per host.
urls=()
for i in 0 1 2; do urls+=("http://127.0.0.$((i + 1)):${ports[$i]}/file.bin"); done
printf '%s\t%s\t%s\n' "${urls[@]}" >"$work/list.txt"

# The MB/s of one run of a command that writes $out/file.bin.
timed() {
  local start end
  rm -rf "$out/"* "$work/home/"*
  sync
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  cmp -s "$work/www/file.bin" "$out/file.bin" || { echo "$1's copy differs" >&2; exit 1; }
  python3 -c "print(400000000 / ($end - $start) / 1e6)"
}
fetch() { FETCHER_HOME="$work/home" "$fetcher" download -q -d "$out" "$@"; }

one="" three="" aria=""
for run in $(seq "$runs"); do
  one+=" $(timed fetch -s 2 "${urls[0]}")"
  three+=" $(timed fetch -s 6 "${urls[0]}" --mirror "${urls[1]}" --mirror "${urls[2]}")"
  aria+=" $(timed aria2c -q -s6 -x2 --file-allocation=none -d "$out" -i "$work/list.txt")"
  printf 'run %d done\n' "$run"
done
python3 - "$one" "$three" "$aria" <<'PY'
import statistics, sys
one, three, aria = (statistics.median(float(x) for x in arg.split()) for arg in sys.argv[1:4])
print(f"one mirror (-s 2): {one:.0f} MB/s")
print(f"three mirrors (-s 6): {three:.0f} MB/s, {three / one:.2f}x one mirror (target >= 2.7)")
print(f"aria2c -s6 -x2, three mirrors: {aria:.0f} MB/s; fetcher {three / aria:.2f}x it "
      f"(target >= 0.90)")
PY
