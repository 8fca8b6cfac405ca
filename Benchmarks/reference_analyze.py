#!/usr/bin/env python3
"""The straightforward implementation the benchmark compares against: one pass, strings,
a dictionary of each client's pages. Prints the top 10 three-page sequences as
`fetcher analyze --csv` does (rank,count,share,page1,page2,page3)."""
import sys
from collections import Counter, defaultdict

K = 3


def main():
    recent = defaultdict(list)
    counts = Counter()
    with open(sys.argv[1], "rb") as log:
        for raw in log:
            line = raw.rstrip(b"\n")
            if line.endswith(b"\r"):
                line = line[:-1]
            client = line.split(b" ", 1)[0]
            first = line.find(b'"')
            if first < 0:
                continue
            second = line.find(b'"', first + 1)
            if second < 0:
                continue
            tokens = line[first + 1 : second].split()
            if len(tokens) < 2:
                continue
            pages = recent[client]
            pages.append(tokens[1])
            if len(pages) >= K:
                counts[tuple(pages[-K:])] += 1
                del pages[0]
    total = sum(counts.values())
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:10]
    out = sys.stdout
    out.write("rank,count,share," + ",".join(f"page{i + 1}" for i in range(K)) + "\r\n")
    for rank, (pages, count) in enumerate(ranked, 1):
        texts = [p.decode("utf-8", "replace") for p in pages]
        out.write(f"{rank},{count},{count / total!r}," + ",".join(texts) + "\r\n")


if __name__ == "__main__":
    main()
