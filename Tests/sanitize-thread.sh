#!/usr/bin/env bash
# The whole test suite under ThreadSanitizer, fetcher included (the end-to-end tests run the
# sanitized binary, so a race in it fails them with exit 66). Not in CI: on two cores the build
# and the run take about ten minutes, as TSan slows code 5 to 15 times, which would take CI
# past twenty. Run it by hand after changing threads, locks, actors or Sendable types.
# FETCHER_TIME_SCALE (5 here) stretches the few timing bounds in the tests.
#
# Usage: Tests/sanitize-thread.sh [swift test options, e.g. --filter DownloadClientLive]
set -euo pipefail
cd "$(dirname "$0")/.."
export FETCHER_TIME_SCALE=${FETCHER_TIME_SCALE:-5}
swift test --sanitize=thread --build-path .build-tsan "$@"
