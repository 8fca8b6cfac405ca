#!/usr/bin/env bash
# Fuzzing with libFuzzer under the address sanitizer. Builds each Fuzz/<target>Target.swift with
# the sources of the package it tests (so it reaches internal API), then runs it for SECONDS
# (default 60) from its seeds in Fuzz/corpus/<target>. New inputs and any crash stay in
# .build/fuzz/<target>/; a crash fails the run: turn its input into a test.
#
# Usage: Fuzz/run.sh [SECONDS] [TARGET...]
#        (targets: LogLines LogAnalysis PartialFile XMLPath Metalink)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(LogLines LogAnalysis PartialFile XMLPath Metalink)
out=.build/fuzz
mkdir -p "$out/CPrefetch"
cat >"$out/CPrefetch/module.modulemap" <<MAP
module CPrefetch {
  header "$PWD/Packages/LogAnalysis/Sources/CPrefetch/include/CPrefetch.h"
  export *
}
MAP

sources() {
  case $1 in
    LogLines)
      echo Packages/LogAnalysis/Sources/LogFormats/*.swift
      ;;
    LogAnalysis | PartialFile)
      # One module of LogFormats and LogAnalysis: the import of the one by the other left out.
      local staged="$out/$1/sources"
      rm -rf "$staged"
      mkdir -p "$staged"
      find Packages/LogAnalysis/Sources/LogFormats Packages/LogAnalysis/Sources/LogAnalysis \
        -name '*.swift' | while read -r file; do
        sed -E '/^(@_exported )?import LogFormats$/d' "$file" >"$staged/$(basename "$file")"
      done
      echo "$staged"/*.swift -I "$out/CPrefetch"
      ;;
    XMLPath)
      echo Fuzz/MemoryBound.swift Packages/XMLPathParser/Sources/XMLPathParser/*.swift \
        -I Packages/XMLPathParser/Sources/CLibXML2 -Xcc -I/usr/include/libxml2 -lxml2
      ;;
    Metalink)
      # One module of three packages and HTTPClient's URL rule: their imports of each other are
      # left out.
      local staged="$out/Metalink/sources"
      mkdir -p "$staged"
      for file in Packages/Metalink/Sources/Metalink/*.swift \
        Packages/Checksum/Sources/ChecksumTypes/*.swift Packages/HTTPClient/Sources/HTTPClient/URL+HTTP.swift; do
        sed -E '/^import (XMLPathParser|ChecksumTypes|HTTPClient)$/d' "$file" >"$staged/$(basename "$file")"
      done
      echo Fuzz/MemoryBound.swift "$staged"/*.swift \
        Packages/XMLPathParser/Sources/XMLPathParser/*.swift \
        -I Packages/XMLPathParser/Sources/CLibXML2 -Xcc -I/usr/include/libxml2 -lxml2
      ;;
    *) echo "unknown target $1" >&2; exit 2 ;;
  esac
}

status=0
for target in "${targets[@]}"; do
  work="$out/$target"
  mkdir -p "$work/corpus"
  # shellcheck disable=SC2046 # the sources and flags are words
  if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name "Fuzz$target" \
    -package-name fuzz \
    $(sources "$target") "Fuzz/${target}Target.swift" -o "$work/fuzz" 2>"$work/build.log"; then
    cat "$work/build.log" >&2
    exit 1
  fi
  leaks=1
  printf '== %s: %s s\n' "$target" "$seconds"
  seeds="Fuzz/corpus/$target"
  [ "$target" = LogAnalysis ] && seeds=Fuzz/corpus/LogLines  # lines of every format
  if ! ASAN_OPTIONS="detect_leaks=$leaks" "$work/fuzz" "$work/corpus" "$seeds" -max_total_time="$seconds" \
    -timeout=20 -rss_limit_mb=2048 -detect_leaks=$leaks -artifact_prefix="$work/" \
    -print_final_stats=1 >"$work/fuzz.log" 2>&1; then
    tail -n 40 "$work/fuzz.log" >&2
    echo "$target: a crash, kept in $work/ (see $work/fuzz.log)" >&2
    status=1
  else
    grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$work/fuzz.log" || true
  fi
done
exit $status
