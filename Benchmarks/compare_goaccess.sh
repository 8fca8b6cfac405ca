#!/usr/bin/env bash
# Which lines count: `fetcher analyze` beside GoAccess (`--log-format=COMBINED`) on the same
# files. A generated combined log (Benchmarks/generate_log.py), the same log with junk mixed in
# (nginx error-log and syslog lines, random bytes, access-log lines with a broken time, a `-`
# status or no size, blank and `#` lines), and random bytes. For each, prints the lines GoAccess
# counts valid and failed beside fetcher's visits and malformed lines, and both exit statuses.
#
# Usage: Benchmarks/compare_goaccess.sh [SIZE_MB (default 20)]
# Not a test: run it by hand. Installs goaccess from Debian's packages when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-20}
command -v goaccess >/dev/null || { apt-get update -qq && apt-get install -y -qq goaccess; }
swift build -c release --product fetcher >/dev/null
fetcher=$(swift build -c release --show-bin-path)/fetcher

work=$(mktemp -d /dev/shm/fetcher-goaccess.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/generate_log.py "$work/clean.log" "$size_mb" 1
python3 - "$work/clean.log" "$work/mixed.log" <<'PY'
import random, sys
rng = random.Random(7)
junk = [
    '2024/05/01 12:00:00 [error] 7#0: *1 open() "/x" failed, client: 1.2.3.4, server: h, request: "GET /x HTTP/1.1", host: "h"',
    'May  1 12:00:00 host app[123]: GET /health 200 "checker" "x y"',
    'junk "hello world" more',
    '1.2.3.4 - - [01/Foo/2024:00:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" "ua"',
    '1.2.3.4 - - [01/May/2024:00:00:00 +0000] "GET /a HTTP/1.1" - 1 "-" "ua"',
    '1.2.3.4 - - "GET /a HTTP/1.1" 200 1 "-" "ua"',
]
mixed = 0
with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as clean, \
        open(sys.argv[2], "w", encoding="utf-8", errors="surrogateescape") as out:
    for line in clean:
        out.write(line)
        roll = rng.random()
        if roll < 0.01:
            out.write(rng.choice(junk) + "\n"); mixed += 1
        elif roll < 0.012:
            out.write(bytes(rng.randrange(32, 127) for _ in range(60)).decode() + "\n"); mixed += 1
        elif roll < 0.013:
            out.write("\n")
        elif roll < 0.014:
            out.write("# rotated\n")
print(f"mixed in: {mixed} junk lines", file=sys.stderr)
PY
head -c 2000000 /dev/urandom >"$work/random.bin"

printf '%-10s %12s %12s %6s   %12s %12s %12s %6s\n' file goaccess_ok failed exit \
  fetcher_lines visits malformed exit
for name in clean.log mixed.log random.bin; do
  set +e
  goaccess "$work/$name" --log-format=COMBINED -o "$work/ga.json" >/dev/null 2>"$work/ga.err"
  ga_exit=$?
  "$fetcher" analyze "$work/$name" --json >"$work/f.json" 2>"$work/f.err"
  f_exit=$?
  set -e
  read -r valid failed < <(python3 -c '
import json, sys
try:
    general = json.load(open(sys.argv[1]))["general"]
    print(general["valid_requests"], general["failed_requests"])
except Exception:
    print("-", "-")' "$work/ga.json")
  read -r lines visits malformed < <(python3 -c '
import json, sys
try:
    result = json.load(open(sys.argv[1]))
    print(result["lines"], result["visits"], result["malformedLines"])
except Exception:
    print("-", "-", "-")' "$work/f.json")
  printf '%-10s %12s %12s %6s   %12s %12s %12s %6s\n' "$name" "$valid" "$failed" "$ga_exit" \
    "$lines" "$visits" "$malformed" "$f_exit"
  rm -f "$work/ga.json"
done
