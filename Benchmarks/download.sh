#!/usr/bin/env bash
# Download benchmark: `fetcher download` against `curl -o`, both fetching the same file from
# nginx on loopback into the same folder, alternating, over http and over https (HTTP/2, a
# private CA made here with openssl), and fetcher again over http with --sha256. Reports the
# median MB/s of each, the ratios and fetcher's peak RSS.
# Targets: >= 1.0x curl over http and https; --sha256 no more than 10% slower than the same
# download without it, and at most 1.1x the time of the slower of that download and SHA-256
# alone (`openssl dgst`); peak RSS < 64 MB.
# Segmented case: a 400 MB file from an nginx server that sends each connection at most
# 40 MB/s (limit_rate 40m): `--split 4` against one connection and against
# `aria2c -x4 -s4`. Targets: at least 3x one connection, within 10% of aria2c.
#
# Usage: Benchmarks/download.sh [SIZE_MIB (default 1024)] [RUNS (default 5)]
# The copies are written to a tmpfs (/dev/shm) by default, so that the figures measure the
# tools and not the disk: on this workplace's virtual disk the same curl run varies by 2x from
# one run to the next. BENCH_OUT=DIR writes them to DIR instead (a folder on disk, say).
# Installs what it needs (nginx, libcurl, libssl) from Debian's packages when missing.
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib=${1:-1024}
runs=${2:-5}

missing=()
[ -f /usr/include/x86_64-linux-gnu/curl/curl.h ] || [ -f /usr/include/curl/curl.h ] ||
  missing+=(libcurl4-openssl-dev)
[ -f /usr/include/openssl/evp.h ] || missing+=(libssl-dev)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v curl >/dev/null || missing+=(curl)
command -v aria2c >/dev/null || missing+=(aria2)
command -v openssl >/dev/null || missing+=(openssl)
[ -x /usr/bin/time ] || missing+=(time)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi

swift build -c release --product fetcher >/dev/null
fetcher=$(swift build -c release --show-bin-path)/fetcher

work=$(mktemp -d)
out_root=${BENCH_OUT:-/dev/shm}
[ -d "$out_root" ] || out_root=$work
out=$(mktemp -d "$out_root/fetcher-bench.XXXXXX")
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work" "$out"' EXIT
mkdir -p "$work/www" "$work/home" "$work/nginx"
head -c "$((size_mib * 1024 * 1024))" /dev/urandom >"$work/www/file.bin"
head -c 400000000 /dev/urandom >"$work/www/segmented.bin"
sha=$(sha256sum "$work/www/file.bin" | cut -d' ' -f1)
(
  cd "$work"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
    -subj '/CN=benchmark CA' -keyout ca.key -out ca.pem 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj '/CN=localhost' \
    -keyout server.key -out server.csr 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >san.ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 \
    -extfile san.ext -out server.pem 2>/dev/null
)
chmod -R a+rX "$work"  # nginx's workers run as an unprivileged user
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
tls_port=$(free_port)
limited_port=$(free_port)
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
  server { listen 127.0.0.1:$limited_port; root $work/www; limit_rate 40m; }
  server {
    listen 127.0.0.1:$tls_port ssl http2; root $work/www;
    ssl_certificate $work/server.pem; ssl_certificate_key $work/server.key;
  }
}
CONF
nginx -c "$work/nginx.conf"
http_url="http://127.0.0.1:$port/file.bin"
https_url="https://localhost:$tls_port/file.bin"
bytes=$(stat -c %s "$work/www/file.bin")
limited_url="http://127.0.0.1:$limited_port/segmented.bin"

# Prints the MB/s of one run of a command that writes $out/NAME (file.bin unless $name says
# otherwise). The previous run's dirty pages are written out first, so that no run pays for
# another's.
timed() {
  local file=${name:-file.bin} start end
  rm -rf "$out/"* "$work/home/"*
  sync
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  cmp -s "$work/www/$file" "$out/$file" || { echo "$1's copy of $file differs" >&2; exit 1; }
  python3 -c "print($(stat -c %s "$work/www/$file") / ($end - $start) / 1e6)"
}

# Runs fetcher download with the given options, adding its peak RSS (KB) to $work/rss.
fetcher_download() {
  FETCHER_HOME="$work/home" /usr/bin/time -a -f '%M' -o "$work/rss" \
    "$fetcher" download -d "$out" "$@"
}

# The MB/s of SHA-256 alone on one core (openssl over the file in the page cache): the most
# that any --sha256 download can reach, whatever else it does.
hash_rate() {
  local start end
  start=$(date +%s.%N)
  openssl dgst -sha256 "$work/www/file.bin" >/dev/null
  end=$(date +%s.%N)
  python3 -c "print($bytes / ($end - $start) / 1e6)"
}

declare -A rates
for run in $(seq "$runs"); do
  rates[curl_http]+=" $(timed curl -sSf -o "$out/file.bin" "$http_url")"
  rates[fetcher_http]+=" $(timed fetcher_download "$http_url")"
  rates[curl_https]+=" $(timed curl -sSf --cacert "$work/ca.pem" -o "$out/file.bin" "$https_url")"
  rates[fetcher_https]+=" $(timed fetcher_download --cacert "$work/ca.pem" "$https_url")"
  rates[fetcher_sha]+=" $(timed fetcher_download --sha256 "$sha" "$http_url")"
  rates[openssl_sha]+=" $(hash_rate)"
  name=segmented.bin
  rates[one_connection]+=" $(timed fetcher_download "$limited_url")"
  rates[split4]+=" $(timed fetcher_download --split 4 "$limited_url")"
  rates[aria2c]+=" $(timed aria2c -q -x4 -s4 --file-allocation=none -d "$out" "$limited_url")"
  name=
  printf 'run %d done\n' "$run"
done

peak_rss_kb=$(sort -n "$work/rss" | tail -n 1)
python3 - "$peak_rss_kb" "${rates[curl_http]}" "${rates[fetcher_http]}" "${rates[curl_https]}" \
  "${rates[fetcher_https]}" "${rates[fetcher_sha]}" "${rates[openssl_sha]}" \
  "${rates[one_connection]}" "${rates[split4]}" "${rates[aria2c]}" <<'PY'
import statistics, sys
peak_kb = int(sys.argv[1])
(curl_http, fetcher_http, curl_https, fetcher_https, fetcher_sha, openssl_sha, one, split4,
 aria2c) = (statistics.median(float(x) for x in arg.split()) for arg in sys.argv[2:11])
print(f"http:  curl {curl_http:.0f} MB/s, fetcher {fetcher_http:.0f} MB/s, "
      f"ratio {fetcher_http / curl_http:.2f} (target >= 1.00)")
print(f"https: curl {curl_https:.0f} MB/s, fetcher {fetcher_https:.0f} MB/s, "
      f"ratio {fetcher_https / curl_https:.2f} (target >= 1.00)")
print(f"http with --sha256: fetcher {fetcher_sha:.0f} MB/s, "
      f"{(1 - fetcher_sha / fetcher_http) * 100:.1f}% slower than without (target <= 10%)")
print(f"  SHA-256 alone on one core (openssl dgst): {openssl_sha:.0f} MB/s; the --sha256 download "
      f"takes {min(fetcher_http, openssl_sha) / fetcher_sha:.2f}x the time of the slower of the "
      f"two alone (target <= 1.10)")
print(f"segmented, 40 MB/s per connection: one connection {one:.0f} MB/s, --split 4 "
      f"{split4:.0f} MB/s ({split4 / one:.2f}x, target >= 3), aria2c -x4 -s4 {aria2c:.0f} MB/s "
      f"({split4 / aria2c:.2f}x, target >= 0.90)")
print(f"fetcher peak RSS: {peak_kb / 1024:.1f} MB (target < 64 MB)")
PY
