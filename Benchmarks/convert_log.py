#!/usr/bin/env python3
"""Rewrites a combined-format access log in another server's format, for comparisons.

Usage: python3 Benchmarks/convert_log.py elb|alb|squid < combined.log > converted.log

- elb, alb: AWS's load balancers' lines (their documentation's field lists), the client as
  `address:port`, the request's page as an absolute URL on https://www.example.com:443, the
  time in ISO 8601 UTC with microseconds. No referer: these logs have none.
- squid: Squid's native lines, `time.ms duration client TCP_MISS/status bytes method URL - …`,
  the URL absolute as a proxy logs it, the duration padded to six columns.
Lines that do not read as combined are written as they are (junk stays junk). A size of `-`
is written as 0, as these servers never write one.
"""
import calendar
import re
import sys
import time

LINE = re.compile(r'^(\S+) \S+ \S+ \[([^\]]+)\] "(\S+) (\S+) ([^"]*)" (\d{3}) (\S+) "([^"]*)" "([^"]*)"')


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else ""
    if kind not in ("elb", "alb", "squid"):
        sys.exit(__doc__.strip())
    out = sys.stdout
    for number, line in enumerate(sys.stdin):
        match = LINE.match(line)
        if not match:
            out.write(line)
            continue
        client, stamp, method, page, version, status, size, _, agent = match.groups()
        seconds = calendar.timegm(time.strptime(stamp[:20], "%d/%b/%Y:%H:%M:%S"))
        zone = stamp[21:]
        offset = (int(zone[1:3]) * 3600 + int(zone[3:5]) * 60) * (1 if zone[0] == "+" else -1)
        seconds -= offset
        size = "0" if size == "-" else size
        micro = number % 1_000_000
        iso = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{micro:06d}Z"
        url = "https://www.example.com:443" + page
        port = 1024 + number % 60000
        if kind == "squid":
            out.write(f"{seconds}.{number % 1000:03d} {number * 37 % 100000:6d} {client} "
                      f"TCP_MISS/{status} {size} {method} http://www.example.com{page} - "
                      f"HIER_DIRECT/93.184.216.34 text/html\n")
            continue
        fields = (f"{iso} my-loadbalancer {client}:{port} 10.0.0.1:80 0.000073 0.001048 0.000057 "
                  f"{status} {status} 0 {size} \"{method} {url} {version}\" \"{agent}\" "
                  "ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2")
        if kind == "alb":
            fields = ("https " + fields.replace(" my-loadbalancer ", " app/my-lb/50dc6c495c0c9188 ")
                      + " arn:aws:elasticloadbalancing:us-east-2:123456789012:targetgroup/t/73e2d6bc"
                      f" \"Root=1-58337262-36d228ad5d99923122bbe354\" \"www.example.com\" \"-\" 0 {iso}"
                      f" \"forward\" \"-\" \"-\" \"10.0.0.1:80\" \"{status}\" \"-\" \"-\" TID_{number}")
        out.write(fields + "\n")


if __name__ == "__main__":
    main()
