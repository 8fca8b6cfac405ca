#!/usr/bin/env python3
"""Writes a log's lines grouped by client: PARTS partitions by the CRC-32 of the line's first
field, each client's lines in their order, so that `fetcher analyze` gives the same answer.
The best case of a pass partitioned by client (issue 72): docs/benchmarks.md compares the two.

Usage: Benchmarks/group_by_client.py IN.log OUT.log [PARTS (default 256)]
"""
import sys
import zlib


def main(source, target, parts=256):
    buckets = [[] for _ in range(parts)]
    with open(source, "rb") as lines:
        for line in lines:
            buckets[zlib.crc32(line[:line.find(b" ")]) % parts].append(line)
    with open(target, "wb") as out:
        for bucket in buckets:
            out.writelines(bucket)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 256)
