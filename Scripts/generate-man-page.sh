#!/usr/bin/env bash
# Writes fetcher's man page, fetcher.1, into DIR (default: the current folder), from the same
# option definitions as `fetcher --help` (swift-argument-parser's generate-manual plugin), so
# the two never disagree. Read it with `man -l DIR/fetcher.1`; install it by copying it to
# /usr/local/share/man/man1.
#
# Usage: Scripts/generate-man-page.sh [DIR]
set -euo pipefail
out=$(realpath "${1:-.}")
mkdir -p "$out"
cd "$(dirname "$0")/.."
swift package --allow-writing-to-directory "$out" generate-manual --output-directory "$out" \
  --section 1 >/dev/null
echo "wrote $out/fetcher.1"
