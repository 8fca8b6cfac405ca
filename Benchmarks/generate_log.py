#!/usr/bin/env python3
"""Writes a deterministic synthetic Apache combined-format access log.

Seeded; clients interleaved; page popularity Zipf-like; short sessions.
Usage: python3 Benchmarks/generate_log.py OUT_FILE [SIZE_MB (default 1000)] [SEED (default 1)] [varied|clients]

Every line is a 200 with no referer, unless `varied`: then statuses (304 without a size, 404
for pages that are not there, 301, 500), referers (none, the client's previous page, or
another site) and query strings vary as on a real site, for the panels. `clients` makes the
log that no cache holds: up to 2 million clients (about 1 million in 1 GB), 200,000 pages,
4,096 sessions interleaved (issue 72's many-clients row).
"""
import bisect
import random
import sys


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__.strip() if __doc__ else "usage: generate_log.py OUT_FILE [SIZE_MB] [SEED]")
    out = sys.argv[1]
    target = int(float(sys.argv[2] if len(sys.argv) > 2 else 1000) * 1_000_000)
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    varied = len(sys.argv) > 4 and sys.argv[4] == "varied"
    many = len(sys.argv) > 4 and sys.argv[4] == "clients"
    sites = ["https://www.google.com/", "https://www.bing.com/search?q=log", "https://t.co/x1",
             "https://news.ycombinator.com/item?id=1", "http://example.org:8080/links.html",
             "android-app://com.google.android.gm/"]

    pages = [f"/section{i % 40}/page{i}.html" for i in range(5000)]
    pages += [f"/static/img{i}.png" for i in range(200)] + ["/", "/index.html", "/search?q=x"]
    weights = [1 / (rank + 1) ** 1.1 for rank in range(len(pages))]
    cumulative = []
    total = 0.0
    for weight in weights:
        total += weight
        cumulative.append(total)

    def page():
        if many:
            return f"/p/{int(200_000 * rng.random() ** 3)}.html"
        return pages[bisect.bisect(cumulative, rng.random() * total)]

    agents = ['"Mozilla/5.0 (X11; Linux x86_64)"', '"curl/8.0"', '"Googlebot/2.1"']
    active = []  # [client, pages left in its session]
    written = 0
    second = 0
    with open(out, "w", buffering=1 << 20) as log:
        lines = []
        while written < target:
            if many and (len(active) < 4096 or rng.random() < 0.05):
                number = rng.randrange(2_000_000)
                client = f"10.{number >> 16}.{number >> 8 & 255}.{number & 255}"
                active.append([client, rng.randrange(2, 12), rng.choice(agents), None])
            elif not many and (len(active) < 200 or rng.random() < 0.05):
                if rng.random() < 0.3:
                    client = f"host{rng.randrange(20000)}.example.net"
                else:
                    client = f"{rng.randrange(1, 224)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}"
                active.append([client, rng.randrange(2, 12), rng.choice(agents), None])
            session = active[rng.randrange(len(active))]
            second += 1
            stamp = f"{1 + second // 86400 % 28:02d}/Jul/1995:{second // 3600 % 24:02d}:{second // 60 % 60:02d}:{second % 60:02d} -0400"
            if varied:
                visited, status, size, roll = page(), 200, str(rng.randrange(100, 50000)), rng.random()
                if roll < 0.05:
                    visited, status = f"/missing/page{rng.randrange(300)}.html", 404
                elif roll < 0.10:
                    status, size = 304, "-"
                elif roll < 0.12:
                    status = 301
                elif roll < 0.13:
                    status = 500
                roll = rng.random()
                referer = ("-" if roll < 0.5 or session[3] is None
                           else "http://www.example.com" + session[3] if roll < 0.8
                           else rng.choice(sites))
                session[3] = visited
                line = f'{session[0]} - - [{stamp}] "GET {visited} HTTP/1.1" {status} {size} "{referer}" {session[2]}\n'
            else:
                line = f'{session[0]} - - [{stamp}] "GET {page()} HTTP/1.0" 200 {rng.randrange(100, 50000)} "-" {session[2]}\n'
            lines.append(line)
            written += len(line)
            session[1] -= 1
            if session[1] == 0:
                active.remove(session)
            if len(lines) >= 10000:
                log.write("".join(lines))
                lines = []
        log.write("".join(lines))


if __name__ == "__main__":
    main()
