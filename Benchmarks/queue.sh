#!/usr/bin/env bash
# Queue benchmark: `fetcher download -i LIST` of N tiny files (3 bytes each, so the time is the
# queue's and not the transfers') from nginx on loopback, beside `wget -i` and `aria2c -i` on
# the same list, alternating, for N = 1,000, 10,000 and 100,000. Reports each tool's median
# seconds, seconds per 1,000 URLs (flat when the cost is linear), median CPU seconds (user and
# system: steadier than the wall time on a shared machine) and peak RSS. Beside them, the
# transport's floor: `transport` fetches the same list through HTTPClientLive alone
# (Benchmarks/TransportBench: as many at a time as fetcher's `--concurrency`, each head
# answered on an actor, as the engine does), so that one run shows how much of fetcher's time
# is the engine's and how much the transport's.
# Target: fetcher's seconds per 1,000 URLs stay flat from 1k to 100k (a linear queue).
#
# Usage: Benchmarks/queue.sh [RUNS (default 3; 1 for 100k)] [SIZES (default "1000 10000 100000")]
# FETCHER=BINARY measures that build instead of building this tree's; BEFORE=BINARY adds
# another build of fetcher ("before") to the same alternation, for a paired comparison of a
# change.
# The state folder and the copies are on a tmpfs (/dev/shm), so that the figures measure the
# tools and not the disk; QUEUE_DIR=FOLDER puts them there instead (a disk, as users write
# to). Installs nginx, wget and aria2 from Debian's packages when missing.
# Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
sizes=${2:-"1000 10000 100000"}

missing=()
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v wget >/dev/null || missing+=(wget)
command -v aria2c >/dev/null || missing+=(aria2)
[ -x /usr/bin/time ] || missing+=(time)
command -v bc >/dev/null || missing+=(bc)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq && apt-get install -y -qq "${missing[@]}"
fi

fetcher=${FETCHER:-}
if [ -z "$fetcher" ]; then
  swift build -c release --product fetcher >/dev/null
  fetcher=$(swift build -c release --show-bin-path)/fetcher
fi
(cd Benchmarks/TransportBench && swift build -c release >/dev/null)
transport=$(cd Benchmarks/TransportBench && swift build -c release --show-bin-path)/transportbench
# Downloads at once, for fetcher and the transport alike (fetcher's default).
concurrency=4
tools=(fetcher transport wget aria2c)
[ -n "${BEFORE:-}" ] && tools=(before fetcher transport wget aria2c)

work=$(mktemp -d "${QUEUE_DIR:-/dev/shm}/fetcher-queue.XXXXXX")
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT
chmod 755 "$work"  # nginx's workers run as another user
mkdir -p "$work/www" "$work/nginx"
printf 'ok\n' >"$work/www/file"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/nginx.conf" <<EOF
worker_processes 1;
daemon on;
pid $work/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen 127.0.0.1:$port; root $work/www; location /n/ { try_files /file =404; } }
}
EOF
nginx -c "$work/nginx.conf"

# Runs one tool on the list of N URLs into a fresh folder; prints "seconds peak-KB files
# cpu-seconds".
run() {
  local tool=$1 list=$2 out="$work/out" home="$work/home"
  rm -rf "$out" "$home"
  mkdir -p "$out" "$home"
  sync  # the last run's writes (and removals) are not this one's
  local command
  case $tool in
    fetcher) command=(env FETCHER_HOME="$home" "$fetcher" download -i "$list" -d "$out" -q \
      --concurrency "$concurrency") ;;
    before) command=(env FETCHER_HOME="$home" "$BEFORE" download -i "$list" -d "$out" -q \
      --concurrency "$concurrency") ;;
    transport) command=("$transport" "$list" "$out" "$concurrency") ;;
    wget) command=(wget -q -i "$list" -P "$out") ;;
    aria2c) command=(aria2c -q -i "$list" -d "$out" --console-log-level=error) ;;
  esac
  /usr/bin/time -f '%e %M %U %S' -o "$work/time" "${command[@]}" >/dev/null 2>"$work/stderr" || {
    echo "$tool failed:" >&2
    head -n 5 "$work/stderr" >&2
    return 1
  }
  read -r elapsed kilobytes user system <"$work/time"
  echo "$elapsed $kilobytes $(find "$out" -type f | wc -l) $(echo "$user + $system" | bc -l)"
}

# The median of a list of numbers separated by spaces.
median() {
  tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

printf '%-8s %-9s %9s %12s %9s %9s\n' urls tool median_s s_per_1000 cpu_s peak_MB
for size in $sizes; do
  list="$work/list$size"
  seq 1 "$size" | sed "s|^|http://127.0.0.1:$port/n/file|; s|\$|.txt|" >"$list"
  trials=$runs
  [ "$size" -ge 100000 ] && trials=1
  declare -A seconds=() memory=() cpu=()
  for _ in $(seq "$trials"); do
    for tool in "${tools[@]}"; do
      result=$(run "$tool" "$list")
      read -r elapsed kilobytes files cpuseconds <<<"$result"
      if [ "$files" -ne "$size" ]; then
        echo "$tool wrote $files of $size files" >&2
        exit 1
      fi
      seconds[$tool]+="$elapsed "
      cpu[$tool]+="$cpuseconds "
      memory[$tool]=$kilobytes
    done
  done
  for tool in "${tools[@]}"; do
    m=$(median "${seconds[$tool]}")
    c=$(median "${cpu[$tool]}")
    printf '%-8s %-9s %9s %12.3f %9.2f %9d\n' "$size" "$tool" "$m" \
      "$(echo "$m * 1000 / $size" | bc -l)" "$c" "$((memory[$tool] / 1024))"
  done
  unset seconds memory cpu
done
