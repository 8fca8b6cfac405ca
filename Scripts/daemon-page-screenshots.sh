#!/usr/bin/env bash
# Takes the screenshots of the daemon's page in docs/daemon.md: a daemon on a free port with a
# state folder of its own, nginx on loopback sending slowly, a finished and a paused download
# added over the RPC, then Tests/Daemon/page_driver.py's walk through the page in headless
# Chromium, which saves it at 1280 and 390 pixels wide (and 390 in the dark scheme) midway.
#
# Usage: Scripts/daemon-page-screenshots.sh [FOLDER (default docs/images)]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-docs/images}")
mkdir -p "$out"
python=$(Tests/Daemon/setup.sh)
swift build --product fetcher >/dev/null
fetcher=$(swift build --show-bin-path)/fetcher
work=$(mktemp -d)
chmod 755 "$work"  # nginx's workers run as another user
trap 'kill "$(cat "$work/nginx.pid" 2>/dev/null)" 2>/dev/null || true
  FETCHER_HOME=$work/home "$fetcher" daemon stop 2>/dev/null || true; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mkdir -p "$work/www" "$work/nginx" "$work/files"
head -c 3000000 /dev/zero >"$work/www/debian-13.2.0-amd64-netinst.iso"
head -c 200000 /dev/zero >"$work/www/release-notes.pdf"
head -c 3000000 /dev/zero >"$work/www/dataset-2026.tar.gz"
web=$(free_port)
cat >"$work/nginx.conf" <<CONF
worker_processes 1;
daemon on;
pid $work/nginx.pid;
error_log $work/nginx/error.log;
events {}
http {
  access_log off;
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx;
  fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen 127.0.0.1:$web; root $work/www; limit_rate 120k; }
}
CONF
nginx -c "$work/nginx.conf"
export FETCHER_HOME=$work/home
rpc=$(free_port)
"$fetcher" daemon --detach --rpc-listen-port "$rpc" -d "$work/files" >/dev/null
call() { # method params-json
  curl -sS "http://127.0.0.1:$rpc/jsonrpc" -d \
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":[\"token:$("$fetcher" daemon secret)\",$2]}"
}
call aria2.addUri "[\"http://127.0.0.1:$web/release-notes.pdf\"]" >/dev/null
gid=$(call aria2.addUri "[\"http://127.0.0.1:$web/dataset-2026.tar.gz\"]" | python3 -c 'import json, sys; print(json.load(sys.stdin)["result"])')
call aria2.pause "\"$gid\"" >/dev/null
"$python" Tests/Daemon/page_driver.py /usr/bin/chromium-headless-shell \
  "$("$fetcher" daemon open --no-browser)" "http://127.0.0.1:$web/debian-13.2.0-amd64-netinst.iso" \
  "http://127.0.0.1:$web/missing.iso" --screenshots "$out"
