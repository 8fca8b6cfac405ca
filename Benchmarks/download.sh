#!/usr/bin/env bash
# Download benchmark: `fetcher download` against `curl -o`, both fetching the same file from
# nginx on loopback into the same folder, alternating. Reports the median MB/s of each, the
# ratio, and the peak RSS of fetcher. Targets: >= 0.8x curl, peak RSS < 64 MB.
#
# Usage: Benchmarks/download.sh [SIZE_MIB (default 1024)] [RUNS (default 5)]
# Installs nginx from Debian's packages when it is missing. Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib=${1:-1024}
runs=${2:-5}

if ! command -v nginx >/dev/null; then
  apt-get update -qq && apt-get install -y -qq nginx-light
fi
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }

swift build -c release --product fetcher >/dev/null
fetcher=$(swift build -c release --show-bin-path)/fetcher

work=$(mktemp -d)
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -p "$work/www" "$work/out" "$work/home" "$work/nginx"
head -c "$((size_mib * 1024 * 1024))" /dev/urandom >"$work/www/file.bin"
chmod -R a+rX "$work"  # nginx's workers run as an unprivileged user
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 64; }
http {
  access_log off;
  sendfile on;
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen 127.0.0.1:$port; root $work/www; }
}
CONF
nginx -c "$work/nginx.conf"
url="http://127.0.0.1:$port/file.bin"
bytes=$(stat -c %s "$work/www/file.bin")

curl_rates=()
fetcher_rates=()
peak_rss_kb=0
for run in $(seq "$runs"); do
  rm -f "$work/out/"*
  start=$(date +%s.%N)
  curl -sSf -o "$work/out/curl.bin" "$url"
  end=$(date +%s.%N)
  curl_rates+=("$(python3 -c "print($bytes / ($end - $start) / 1e6)")")
  rm -f "$work/out/"* "$work/home/"*

  start=$(date +%s.%N)
  FETCHER_HOME="$work/home" /usr/bin/time -f '%M' -o "$work/rss" \
    "$fetcher" download "$url" -o "$work/out" >/dev/null
  end=$(date +%s.%N)
  fetcher_rates+=("$(python3 -c "print($bytes / ($end - $start) / 1e6)")")
  rss=$(cat "$work/rss")
  [ "$rss" -gt "$peak_rss_kb" ] && peak_rss_kb=$rss
  cmp -s "$work/www/file.bin" "$work/out/file.bin" || { echo "fetcher's copy differs" >&2; exit 1; }
  printf 'run %d: curl %.0f MB/s, fetcher %.0f MB/s, fetcher RSS %d MB\n' "$run" \
    "${curl_rates[-1]}" "${fetcher_rates[-1]}" "$((rss / 1024))"
done

python3 - "$peak_rss_kb" "${curl_rates[*]}" "${fetcher_rates[*]}" <<'PY'
import statistics, sys
peak_kb = int(sys.argv[1])
curl = statistics.median(float(x) for x in sys.argv[2].split())
fetcher = statistics.median(float(x) for x in sys.argv[3].split())
ratio = fetcher / curl
print(f"median: curl {curl:.0f} MB/s, fetcher {fetcher:.0f} MB/s, ratio {ratio:.2f} (target >= 0.80)")
print(f"fetcher peak RSS: {peak_kb / 1024:.1f} MB (target < 64 MB)")
PY
