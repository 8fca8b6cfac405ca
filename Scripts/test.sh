#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what the tests need (Scripts/install.sh
# test, PySpark for the Spark job in .build/spark-venv and aria2p for the daemon's tests in
# .build/aria2p-venv), then `swift test` with the arguments given. A test that hangs fails the
# run within 30 minutes. .ci/run calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install.sh test
Spark/setup.sh >/dev/null
Tests/Daemon/setup.sh >/dev/null
# Swift Testing runs every test; XCTest would only say it ran none.
timeout 1800 swift test --disable-xctest "$@"
