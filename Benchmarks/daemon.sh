#!/usr/bin/env bash
# Daemon benchmark (`fetcher daemon`, aria2's JSON-RPC), with nginx on loopback:
#   1. tellActive and tellWaiting(0, 1000) with 1,000 downloads in the queue (5 active, held
#      at 1 KiB/s, the rest waiting): the median and 95th percentile of 300 calls each over one
#      kept-alive connection. Target: under 10 ms.
#   2. An idle daemon (its queue all paused, then all done) for 20 s: the CPU time it used, as
#      a share of one core (/proc/PID/stat). Target: under 1%.
#   3. 10,000 tiny files added by RPC (one JSON-RPC batch of addUri) until the last is in
#      the folder, beside `fetcher download -i` of the same list, both with 4 at once,
#      alternating, RUNS times each: medians and their ratio. Target: at most 1.2. Also until
#      the last onDownloadComplete over WebSocket, whose Python client shares the two cores.
#   4. (part `watch`, not by default) `fetcher downloads watch` beside the daemon of 1. for
#      20 s: the share of a core the daemon spends answering it.
#   5. (part `queue`, not by default) With 1,000 in the queue (5 under way at 1 KiB/s): the
#      time of pauseAll, unpauseAll and one forceRemove, beside aria2c's (when installed)
#      driven the same way. Targets: pauseAll under 50 ms, forceRemove under 2 ms.
#   6. (part `adds`, not by default) Beside aria2c, a fresh daemon each run: 1,000 addUri one
#      call each, then in one system.multicall (targets: within 1.3x and 2x aria2c's time); the
#      resident memory idle, with 1,000 queued, and after pausing, unpausing, removing and
#      purging them; a webui-aria2-style poll of 1,000 stopped downloads, once a second for
#      20 s, in CPU seconds.
#   7. (part `page`) The daemon's page open in headless Chromium (Tests/Daemon/page_driver.py)
#      for 20 s, over the queue of 1., with its 5 under way (beside 20 s without the page),
#      then all paused: the share of a core the daemon spends. Target (paused): under 1%.
# Usage: Benchmarks/daemon.sh [RUNS (default 5)] [PARTS (default lists,idle,files)]
# FETCHER=BINARY measures that build instead of this tree's.
# The state folders and the files are on a tmpfs (/dev/shm). Installs nginx when missing;
# the WebSocket client is aria2p's (Tests/Daemon/setup.sh). Not a test: run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
parts=${2:-lists,idle,files}
source Benchmarks/lib.sh

command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || {
  apt-get update -qq && apt-get install -y -qq nginx
}
python=$(Tests/Daemon/setup.sh)
build_fetcher
make_work daemon
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$work"' EXIT
chmod 755 "$work"  # nginx's workers run as another user
mkdir -p "$work/www" "$work/nginx"
printf 'ok\n' >"$work/www/file"
head -c 100000000 /dev/zero >"$work/www/big"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon on;
pid $work/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server {
    listen 127.0.0.1:$port; root $work/www;
    location /n/ { try_files /file =404; }
    location /slow/ { limit_rate 1k; try_files /big =404; }
  }
}
CONF
nginx -c "$work/nginx.conf"

"$python" Benchmarks/daemon_bench.py "$fetcher" "$work" "http://127.0.0.1:$port" "$runs" "$parts"
