#!/usr/bin/env bash
# Installs the Debian packages that Scripts/run.sh (`run`: the system libraries the build
# links) or Scripts/test.sh (`test`: those, and the servers and tools the tests start) need
# and the machine lacks, saying which. As root it runs apt-get; otherwise it prints the one
# `apt-get install` line to run and exits 1.
#
# Usage: Scripts/install.sh run|test
set -euo pipefail
profile=${1:?usage: Scripts/install.sh run|test}

missing=()
need() { missing+=("$1"); }
has_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/include/$(uname -m)-linux-gnu/$1" ]; }

# What the build links: zlib, libxml2, libcurl and libcrypto, through system-library targets.
command -v python3 >/dev/null || need python3
has_header zlib.h || need zlib1g-dev
has_header libxml2/libxml/parser.h || need libxml2-dev
has_header curl/curl.h || need libcurl4-openssl-dev
has_header openssl/evp.h || need libssl-dev
if [ "$profile" = test ]; then
  # What the tests start: nginx and openssl (real servers, a private CA), script (a
  # pseudo-terminal), xmllint (XMLPathParser's documents are checked with it), curl and the
  # coreutils digests (beside downloads), aria2c (beside the daemon), GoAccess (beside the log analysis), Java for the
  # Spark job, and a headless browser for the HTML report.
  command -v openssl >/dev/null || need openssl
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need nginx
  command -v script >/dev/null || need bsdutils
  command -v xmllint >/dev/null || need libxml2-utils
  command -v curl >/dev/null || need curl
  command -v aria2c >/dev/null || need aria2
  command -v goaccess >/dev/null || need goaccess
  command -v java >/dev/null || need openjdk-17-jre-headless
  [ -x /usr/bin/chromium-headless-shell ] || need chromium-headless-shell
  python3 -c 'import venv, ensurepip' 2>/dev/null || need python3-venv
elif [ "$profile" != run ]; then
  echo "usage: Scripts/install.sh run|test" >&2
  exit 2
fi

[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "fetcher needs these Debian packages; install them and run this again:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
