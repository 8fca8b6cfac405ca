#!/usr/bin/env bash
# Builds fetcher (release) and installs it as ~/.local/bin/fetcher, where pipx and pip --user
# put commands (BIN_DIR=DIR for another folder); says how to put the folder on PATH when it is
# not. The binary finds Swift's libraries where the toolchain is (/opt/swift), as built.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN_DIR:-$HOME/.local/bin}
echo "building fetcher (swift build -c release --product fetcher)" >&2
swift build -c release --product fetcher >&2
install -D -m 755 "$(swift build -c release --show-bin-path)/fetcher" "$bin/fetcher"
echo "installed $bin/fetcher" >&2
case ":$PATH:" in
  *":$bin:"*) ;;
  *) echo "$bin is not on PATH: add it (export PATH=\"$bin:\$PATH\" in ~/.profile)" >&2 ;;
esac
