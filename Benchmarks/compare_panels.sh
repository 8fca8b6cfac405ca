#!/usr/bin/env bash
# `fetcher analyze --panels all` beside GoAccess on the same log: the panels both have, row by
# row. The log is Benchmarks/generate_log.py's `varied` one (statuses, 404s, referers, sizes),
# with its lines of host names left out, as GoAccess's COMBINED format takes an address only.
# Prints, per panel, how many rows were compared and how many differ (and the first few).
#
# Where GoAccess counts otherwise, the comparison says how it maps:
# - pages: GoAccess's requests leave out static files and 404s, which have panels of their
#   own; fetcher's pages count every visit, so a page's count is the sum of the three.
# - referring sites: GoAccess keeps a leading `www.` and the port; fetcher drops both.
# - days: GoAccess names them 19950701; fetcher 1995-07-01.
# - referrers: GoAccess lists `-` (no referer) as one; fetcher counts none for it.
# - bandwidth: fetcher ranks the pages that were sent bytes; GoAccess lists 0 for the others.
#
# With FORMAT elb, alb or squid, the log is rewritten in that format first
# (Benchmarks/convert_log.py) and GoAccess reads it by a format string of ours (its own
# predefined ones expect other fields: a syslog prefix for Squid). For elb and alb, GoAccess's
# pages are absolute URLs, compared by their paths, as fetcher reads them.
#
# Usage: Benchmarks/compare_panels.sh [SIZE_MB (default 20)] [LOG] [FORMAT]
# Not a test: run it by hand. Installs goaccess from Debian's packages when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-20}
command -v goaccess >/dev/null || { apt-get update -qq && apt-get install -y -qq goaccess; }
swift build -c release --product fetcher >/dev/null
fetcher=$(swift build -c release --show-bin-path)/fetcher
work=$(mktemp -d /dev/shm/fetcher-panels.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ -n "${2:-}" ]; then
  cp "$2" "$work/log"
else
  python3 Benchmarks/generate_log.py "$work/all.log" "$size_mb" 3 varied
  grep -v '^host' "$work/all.log" >"$work/log"
fi
format=${3:-combined}
case $format in
  combined) goformat=(--log-format=COMBINED) ;;
  elb | alb)
    type=$([ "$format" = alb ] && echo '%^ ' || true)
    goformat=(--log-format="$type"'%dT%t.%^ %^ %h:%^ %^ %^ %^ %^ %s %^ %^ %b "%r" "%u" %^'
      --date-format=%Y-%m-%d --time-format=%T) ;;
  squid) goformat=(--log-format='%x.%^ %~%L %h %^/%s %b %m %U %^' --datetime-format=%s) ;;
  *) echo "unknown format $format: combined, elb, alb or squid" >&2; exit 64 ;;
esac
if [ "$format" != combined ]; then
  python3 Benchmarks/convert_log.py "$format" <"$work/log" >"$work/converted"
  mv "$work/converted" "$work/log"
fi
goaccess "$work/log" "${goformat[@]}" --enable-panel=REFERRERS --no-progress --max-items=1000000 \
  -o "$work/goaccess.json" 2>/dev/null
"$fetcher" analyze --panels all --top 0 --json "$work/log" >"$work/fetcher.json" 2>/dev/null
echo "format: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["format"])' "$work/fetcher.json")"
python3 - "$work/goaccess.json" "$work/fetcher.json" "$format" <<'PY'
import collections, json, sys
ga, fe = (json.load(open(path)) for path in sys.argv[1:3])
panels = fe["panels"]
if sys.argv[3] in ("elb", "alb"):
    prefix = "https://www.example.com:443"
    for panel in ("requests", "static_requests", "not_found"):
        for row in ga[panel]["data"]:
            row["data"] = row["data"].removeprefix(prefix)

def rows(key):
    return {row["name"]: row for row in panels[key]}

def compare(name, theirs, ours):
    keys = set(theirs) | set(ours)
    differ = sorted(k for k in keys if theirs.get(k) != ours.get(k))
    print(f"{name:16} {len(keys):6} rows, {len(differ)} differ"
          + (": " + "; ".join(f"{k}: goaccess {theirs.get(k)} fetcher {ours.get(k)}"
                              for k in differ[:3]) if differ else ""))

general = ga["general"]
print(f"{'visits':16} goaccess {general['valid_requests']} fetcher {fe['visits']}")
print(f"{'bytes':16} goaccess {general['bandwidth']} fetcher {fe['bytes']}")
pages = collections.Counter()
for panel in ("requests", "static_requests", "not_found"):
    for row in ga[panel]["data"]:
        pages[row["data"]] += row["hits"]["count"]
compare("pages", dict(pages), {k: v["count"] for k, v in rows("pages").items()})
compare("page bytes", {r["data"]: r["bytes"]["count"] for p in ("requests", "static_requests",
        "not_found") for r in ga[p]["data"] if r["bytes"]["count"] > 0},
        {k: v["bytes"] for k, v in rows("bandwidth").items()})
compare("not found", {r["data"]: r["hits"]["count"] for r in ga["not_found"]["data"]},
        {k: v["count"] for k, v in rows("not-found").items()})
codes = {item["data"].split(" ")[0]: item["hits"]["count"]
         for group in ga["status_codes"]["data"] for item in group["items"]}
compare("status", codes, {k: v["count"] for k, v in rows("status").items()})
compare("status classes",
        {group["data"].split(" ")[0]: group["hits"]["count"] for group in ga["status_codes"]["data"]},
        {k: v["count"] for k, v in rows("status-classes").items()})

def site(name):
    host = name.split(":")[0].lower()
    return host[4:] if host.startswith("www.") else host

sites = collections.Counter()
for row in ga["referring_sites"]["data"]:
    sites[site(row["data"])] += row["hits"]["count"]
compare("referring sites", dict(sites), {k: v["count"] for k, v in rows("referring-sites").items()})
compare("referrers", {r["data"]: r["hits"]["count"] for r in ga["referrers"]["data"]
                     if r["data"] != "-"},
        {k: v["count"] for k, v in rows("referrers").items()})
compare("hours", {r["data"]: r["hits"]["count"] for r in ga["visit_time"]["data"]},
        {k: v["count"] for k, v in rows("hours").items() if v["count"] > 0})
compare("days", {r["data"]: r["hits"]["count"] for r in ga["visitors"]["data"]},
        {k.replace("-", ""): v["count"] for k, v in rows("days").items()})
compare("clients", {r["data"]: (r["hits"]["count"], r["bytes"]["count"]) for r in ga["hosts"]["data"]},
        {k: (v["count"], v["bytes"]) for k, v in rows("clients").items()})
PY
