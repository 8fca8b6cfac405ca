#!/usr/bin/env python3
"""Rewrites a combined-format access log as JSON lines with nginx's variable names, as
`log_format main escape=json '{"remote_addr":"$remote_addr",...}'` writes them.

Usage: python3 Benchmarks/to_json_log.py IN_FILE OUT_FILE
"""
import json
import re
import sys

LINE = re.compile(r'(\S+) (\S+) (\S+) \[([^\]]*)\] "((?:[^"\\]|\\.)*)" (\S+) (\S+) "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"')


def main():
    with open(sys.argv[1], encoding="utf-8", errors="surrogateescape") as log, open(
        sys.argv[2], "w", encoding="utf-8", errors="surrogateescape", buffering=1 << 20
    ) as out:
        for line in log:
            match = LINE.match(line)
            if not match:
                continue
            client, _, user, time, request, status, size, referer, agent = match.groups()
            out.write(
                json.dumps(
                    {
                        "time_local": time,
                        "remote_addr": client,
                        "remote_user": user,
                        "request": request,
                        "status": int(status),
                        "body_bytes_sent": int(size) if size.isdigit() else 0,
                        "http_referer": referer,
                        "http_user_agent": agent,
                    },
                    separators=(",", ":"),
                )
                + "\n"
            )


if __name__ == "__main__":
    main()
