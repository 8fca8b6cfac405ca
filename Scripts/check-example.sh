#!/usr/bin/env bash
# Builds and runs Examples/FeedAndLog as a user's project would reach this repository: a clone
# of the committed tree in a temporary folder, tagged with the version the example asks for
# (other tags removed), through file:// and that version. Then checks that the example's
# songs and paths are right, and that it did not get swift-argument-parser (only the
# `fetcher` executable uses it); that a project may follow a branch; and that the README's
# `.package(path: "../fetcher/Packages/…")` and `.product` lines build, in a project beside the
# clone, fetching nothing.
#
# Usage: Scripts/check-example.sh
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

version=$(sed -n 's/.*\.package(url: fetcher, from: "\([0-9.]*\)").*/\1/p' \
  Examples/FeedAndLog/Package.swift)
[ -n "$version" ] || { echo "no version in Examples/FeedAndLog/Package.swift" >&2; exit 1; }
git clone -q . "$work/fetcher"
git -C "$work/fetcher" tag | xargs -r git -C "$work/fetcher" tag -d >/dev/null
git -C "$work/fetcher" tag "$version"
cp -R Examples/FeedAndLog "$work/app"
rm -rf "$work/app/.build"
FETCHER_URL="file://$work/fetcher" swift build --package-path "$work/app"

# Nothing but the repository was resolved or fetched.
checkouts=$(ls "$work/app/.build/checkouts")
if [ "$checkouts" != fetcher ] || grep -q 'swift-argument-parser' "$work/app/Package.resolved"
then
  echo "the example got more than fetcher: $checkouts" >&2
  exit 1
fi

# A project may also follow a branch (SwiftPM refuses that when the package's own
# dependencies are local paths).
mkdir -p "$work/branch/Sources/branch"
echo 'import XMLPathParser' >"$work/branch/Sources/branch/main.swift"
cat >"$work/branch/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
  name: "branch",
  dependencies: [.package(url: "file://$work/fetcher", branch: "$(git branch --show-current)")],
  targets: [
    .executableTarget(
      name: "branch", dependencies: [.product(name: "XMLPathParser", package: "fetcher")])
  ]
)
MANIFEST
swift package resolve --package-path "$work/branch"
[ "$(ls "$work/branch/.build/checkouts")" = fetcher ] ||
  { echo "following a branch got more than fetcher" >&2; exit 1; }

# The README's own lines, as a project beside a clone pastes them: a path, and a product.
dependency=$(grep -m 1 '^\.package(path: "\.\./fetcher/Packages/[A-Za-z]*"),$' README.md)
product=$(grep -m 1 '^\.product(name: "[A-Za-z]*", package: "[A-Za-z]*"),$' README.md)
[ -n "$dependency" ] && [ -n "$product" ] ||
  { echo "README.md shows no .package(path:) and .product line" >&2; exit 1; }
mkdir -p "$work/beside/Sources/beside"
echo 'import XMLPathParser' >"$work/beside/Sources/beside/main.swift"
cat >"$work/beside/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
  name: "beside",
  dependencies: [$dependency],
  targets: [.executableTarget(name: "beside", dependencies: [$product])]
)
MANIFEST
swift build --package-path "$work/beside"
[ -z "$(ls "$work/beside/.build/checkouts" 2>/dev/null)" ] ||
  { echo "the README's path dependency fetched packages" >&2; exit 1; }

# The server, on a port the system picks, and a log of two clients.
python3 -u server.py --port 0 >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do grep -q 'Serving on' "$work/server.log" && break; sleep 0.1; done
base=$(sed -n 's/.*Serving on \(http[^ ]*\).*/\1/p' "$work/server.log" | head -n 1)
line() { printf '%s - - [10/Oct/2024:13:55:%02d +0000] "GET %s HTTP/1.1" 200 5 "-" "ua"\n' "$@"; }
{
  line 10.0.0.1 1 /a; line 10.0.0.2 2 /a; line 10.0.0.1 3 /b; line 10.0.0.2 4 /b
  line 10.0.0.1 5 /c; line 10.0.0.2 6 /c; line 10.0.0.1 7 /d
} >"$work/access.log"

"$work/app/.build/debug/feed-and-log" "$base/feeds/topsongs.xml?entries=3" \
  "$work/access.log" | tee "$work/out"
grep -q '^3\. ' "$work/out" || { echo "the example listed no third song" >&2; exit 1; }
grep -q '^2 /a → /b → /c$' "$work/out" || { echo "the example's top path is wrong" >&2; exit 1; }
grep -q '^statuses: 200 ×7$' "$work/out" || { echo "the example's statuses are wrong" >&2; exit 1; }
echo "Examples/FeedAndLog built against $work/fetcher at $version and ran"
