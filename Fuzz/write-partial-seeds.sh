#!/usr/bin/env bash
# Writes the seeds of the PartialFile fuzz target (Fuzz/corpus/PartialFile) with fetcher, from
# a small log with a malformed line, requests that name no page, a static file, a query string,
# a bot, a long gap and a 404 with a referer, under options that reach every part of the format
# (panels and a funnel too). Run it when the partial format changes.
#
# Usage: Fuzz/write-partial-seeds.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product fetcher >/dev/null
fetcher=$(swift build --show-bin-path)/fetcher
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
seeds=Fuzz/corpus/PartialFile

line() { # client time path [agent]
  printf '%s - - [01/May/2024:%s +0000] "GET %s HTTP/1.1" 200 512 "-" "%s"\n' \
    "$1" "$2" "$3" "${4:-Mozilla/5.0}"
}
{
  line 1.2.3.4 10:00:00 /docs
  line 1.2.3.4 10:00:05 /docs/install?x=1
  line 10.0.0.5 10:00:06 /pricing
  line 1.2.3.4 10:00:07 /style.css
  echo "garbage here"
  echo '9.9.9.9 - - [01/May/2024:10:00:08 +0000] "-" 400 0 "-" "-"'
  echo '1.2.3.4 - - [01/May/2024:10:00:08 +0000] "\x16\x03\x01" 400 0 "-" "-"'
  line 1.2.3.4 10:00:09 /pricing
  line 10.0.0.5 10:00:10 /blog
  line 5.6.7.8 10:00:11 /docs Googlebot/2.1
  line 1.2.3.4 11:00:00 /blog
  line 10.0.0.5 11:00:01 /docs
  line 1.2.3.4 11:00:02 /docs
  echo '10.0.0.5 - - [01/May/2024:11:00:03 +0200] "GET /gone HTTP/1.1" 404 - "https://www.example.org:8080/a" "Mozilla/5.0"'
} >"$work/a.log"
{
  line 1.2.3.4 12:00:00 /pricing
  line 10.0.0.5 12:00:01 /blog
  line 1.2.3.4 12:00:02 /docs/install?x=1
} >"$work/b.log"

partial() { # output log options...
  local output=$1 log=$2
  shift 2
  (cd "$work" && "$fetcher" analyze --partial-out - "$@" "$log" 2>/dev/null) >"$output"
}
partial "$seeds/length3.partial" a.log
partial "$seeds/odd.partial" a.log --length 4 --strip-query --exclude-static
partial "$seeds/sessions.partial" a.log --client ip+ua --exclude-bots --exclude-ip 10.0.0.0/8 \
  --status 2xx --session-gap 30m
partial "$seeds/unique.partial" a.log --length 2 --unique-clients
partial "$seeds/panels.partial" a.log --panels all --session-gap 30m
partial "$seeds/funnel.partial" a.log --funnel '/docs,/pricing*,/blog' --session-gap 30m
# Two partials to merge: the first one's length in two bytes, big-endian, then both.
partial "$work/one" a.log --session-gap 30m --funnel '/docs,/pricing*,/blog'
partial "$work/two" b.log --session-gap 30m --funnel '/docs,/pricing*,/blog'
python3 - "$work/one" "$work/two" "$seeds/two-sessions.partials" <<'PY'
import sys
one, two = (open(path, "rb").read() for path in sys.argv[1:3])
open(sys.argv[3], "wb").write(len(one).to_bytes(2, "big") + one + two)
PY
ls -l "$seeds"
