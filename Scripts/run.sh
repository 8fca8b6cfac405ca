#!/usr/bin/env bash
# The main job on a fresh machine: installs what the build needs (Scripts/install.sh run),
# builds fetcher, starts server.py on a free port, runs `fetcher fetch` against it with the
# arguments given (`Scripts/run.sh --times 3`, `Scripts/run.sh --json`), and stops the server.
# State (the last code and the count) stays in fetcher's state folder, as for any run.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install.sh run
echo "building fetcher (swift build --product fetcher)" >&2
swift build --product fetcher >&2
fetcher="$(swift build --show-bin-path)/fetcher"

log=$(mktemp)
python3 server.py --port 0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; rm -f "$log"' EXIT
# Its first line names the address: "Serving on http://127.0.0.1:PORT".
for _ in $(seq 100); do
  root=$(sed -n '1s/^Serving on //p' "$log")
  [ -n "$root" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$root" ] || { echo "server.py did not start" >&2; exit 1; }
echo "server.py is serving on $root" >&2
"$fetcher" fetch --root-url "$root" "$@"
