#!/usr/bin/env bash
# XML benchmark: a generated iTunes-style feed of SIZE_MB (100 by default, on a tmpfs) read as a
# stream by XMLPathParser with three paths registered (Benchmarks/XMLBench), beside the same
# harness built against BEFORE's XMLPathParser (a commit, default main) and `xmllint --stream
# --noout`, alternately, RUNS times each. Reports each one's median MB/s and peak RSS.
#
# Usage: Benchmarks/xml.sh [SIZE_MB (default 100)] [RUNS (default 5)] [BEFORE (default main)]
# Not a test: run it by hand. Installs libxml2-utils (xmllint) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-100}
runs=${2:-5}
before=${3:-main}
command -v xmllint >/dev/null || { apt-get update -qq && apt-get install -y -qq libxml2-utils; }
[ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq time; }

feed="/dev/shm/fetcher-feed-${size_mb}MB.xml"
[ -f "$feed" ] || python3 - "$feed" "$size_mb" <<'PY'
import sys
out, target = sys.argv[1], int(float(sys.argv[2]) * 1_000_000)
with open(out, "w", encoding="utf-8") as f:
    f.write('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns:im="http://itunes.apple.com/rss"'
            ' xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n')
    n = 0
    while f.tell() < target:
        f.write(f'''<entry><updated>2024-01-01T00:00:00-07:00</updated>
<id im:id="{1440000000 + n}">https://music.example.com/song/{n}</id>
<title>Song {n} - Artist {n % 97}</title><im:name>Song {n} &amp; Friends</im:name>
<link rel="alternate" type="text/html" href="https://music.example.com/song/{n}"/>
<im:contentType term="Music" label="Music"><im:contentType term="Track" label="Track"/></im:contentType>
<category im:id="14" term="Pop" scheme="https://music.example.com/genre/14" label="Pop"/>
<im:image height="55">https://img.example.com/{n}/55x55bb.png</im:image>
<im:image height="60">https://img.example.com/{n}/60x60bb.png</im:image>
<im:image height="170">https://img.example.com/{n}/170x170bb.png</im:image>
<rights>℗ 2024 Label {n % 13}</rights><im:price amount="1.29000" currency="USD">$1.29</im:price>
<summary>{"lorem ipsum dolor sit amet " * 8}</summary>
</entry>
''')
        n += 1
    f.write("</feed>\n")
PY
bytes=$(stat -c %s "$feed")

build() { # source folder -> the harness binary
  (cd "$1/Benchmarks/XMLBench" && swift build -c release >/dev/null)
  echo "$(cd "$1/Benchmarks/XMLBench" && swift build -c release --show-bin-path)/xmlbench"
}
after_bin=$(build .)
old=$(mktemp -d /tmp/fetcher-xml-before.XXXXXX)
trap 'git worktree remove --force "$old" >/dev/null 2>&1 || true' EXIT
git worktree add --detach "$old" "$before" >/dev/null 2>&1
mkdir -p "$old/Benchmarks/XMLBench"
cp -R Benchmarks/XMLBench/Package.swift Benchmarks/XMLBench/Sources "$old/Benchmarks/XMLBench/"
before_bin=$(build "$old")

run() { # label command... -> "seconds peak-KB"
  /usr/bin/time -f '%e %M' -o /tmp/fetcher-xml-time "$@" >/dev/null 2>&1
  cat /tmp/fetcher-xml-time
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
declare -A seconds=() memory=()
for _ in $(seq "$runs"); do
  for tool in after before xmllint; do
    case $tool in
      after) result=$(run "$after_bin" "$feed") ;;
      before) result=$(run "$before_bin" "$feed") ;;
      xmllint) result=$(run xmllint --stream --noout "$feed") ;;
    esac
    read -r elapsed kilobytes <<<"$result"
    seconds[$tool]+="$elapsed "
    memory[$tool]=$kilobytes
  done
done
printf 'feed: %s MB, %s runs each\n' "$((bytes / 1000000))" "$runs"
printf '%-8s %9s %9s %9s\n' tool median_s MB/s peak_MB
for tool in after before xmllint; do
  m=$(echo "${seconds[$tool]}" | tr ' ' '\n' | grep . | median)
  printf '%-8s %9s %9.0f %9d\n' "$tool" "$m" "$(echo "$bytes / $m / 1000000" | bc -l)" \
    "$((memory[$tool] / 1024))"
done
