#!/usr/bin/env bash
# Makes .build/spark-venv: a virtual environment with the pinned PySpark, whose spark-submit
# runs Spark/analyze.py locally. Idempotent; .ci/run and the Spark test call it. Spark needs
# Java 17 (Debian's openjdk-17-jre-headless), which .ci/run installs when java is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/spark-venv
version=3.5.9
# One maker at a time: the Spark tests run side by side.
mkdir -p .build
exec 9>"$venv.lock"
flock 9
if ! "$venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$version')" \
  2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "pyspark==$version"
fi
if ! command -v java >/dev/null; then
  echo "Spark needs Java 17: apt-get install openjdk-17-jre-headless" >&2
  exit 1
fi
echo "$venv/bin/spark-submit"
