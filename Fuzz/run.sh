#!/usr/bin/env bash
# Fuzzing with libFuzzer under the address sanitizer. Builds each Fuzz/<target>Target.swift with
# the sources of the package it tests (so it reaches internal API), then runs it for SECONDS
# (default 60) from its seeds in Fuzz/corpus/<target>; as many targets at once as there are
# cores. New inputs and any crash stay in .build/fuzz/<target>/; a crash fails the run: turn
# its input into a test.
#
# Usage: Fuzz/run.sh [SECONDS] [TARGET...]
#        (targets: LogLines LogAnalysis PartialFile XMLPath Metalink)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
all=(LogLines LogAnalysis PartialFile XMLPath Metalink)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for target in "${targets[@]}"; do
  if [[ " ${all[*]} " != *" $target "* ]]; then
    echo "Fuzz/run.sh: unknown target $target (targets: ${all[*]})" >&2
    exit 2
  fi
done
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
  esac
}

# Builds and runs one target; its report goes to standard output, and only a run without a crash
# leaves "$out/<target>/passed".
fuzz() {
  local target=$1 work="$out/$1" seeds="Fuzz/corpus/$1"
  mkdir -p "$work/corpus"
  rm -f "$work/passed"
  # shellcheck disable=SC2046 # the sources and flags are words
  if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name "Fuzz$target" \
    -package-name fuzz \
    $(sources "$target") "Fuzz/${target}Target.swift" -o "$work/fuzz" 2>"$work/build.log"; then
    cat "$work/build.log"
    return
  fi
  printf '== %s: %s s\n' "$target" "$seconds"
  [ "$target" = LogAnalysis ] && seeds=Fuzz/corpus/LogLines  # lines of every format
  if ! ASAN_OPTIONS=detect_leaks=1 "$work/fuzz" "$work/corpus" "$seeds" -max_total_time="$seconds" \
    -timeout=20 -rss_limit_mb=2048 -detect_leaks=1 -artifact_prefix="$work/" \
    -print_final_stats=1 >"$work/fuzz.log" 2>&1; then
    tail -n 40 "$work/fuzz.log"
    echo "$target: a crash, kept in $work/ (see $work/fuzz.log)"
  else
    grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' "$work/fuzz.log" || true
    touch "$work/passed"
  fi
}

# A target a core at a time (libFuzzer runs on one thread), each its full time; the reports in
# the order of the targets.
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  fuzz "$target" >"$out/$target.report" 2>&1 &
done
wait
status=0
for target in "${targets[@]}"; do
  if [ -e "$out/$target/passed" ]; then
    cat "$out/$target.report"
  else
    cat "$out/$target.report" >&2
    status=1
  fi
done
exit $status
