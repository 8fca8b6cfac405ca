#!/usr/bin/env bash
# Makes .build/aria2p-venv: a virtual environment with the pinned aria2p from PyPI, the
# Python library of aria2's JSON-RPC, whose calls the daemon's tests make. Idempotent; prints
# the environment's python. Scripts/test.sh and the daemon's tests call it.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/aria2p-venv
version=0.12.3
if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('aria2p') != '$version')" \
  2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "aria2p==$version"
fi
echo "$venv/bin/python"
