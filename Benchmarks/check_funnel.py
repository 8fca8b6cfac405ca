#!/usr/bin/env python3
"""Checks `fetcher analyze --funnel` on a combined log against this obvious implementation:
each client's visits in order, cut into paths where they are more than GAP seconds apart,
each path matched step by step (a step's first page after the step before), the seconds
between steps collected and their median taken. Prints both and exits 1 when they differ.

Usage: python3 Benchmarks/check_funnel.py FETCHER LOG STEPS [GAP_SECONDS] [fetcher options...]
(STEPS as --funnel takes them: '/,/section1/*,/cart'; * matches any run of characters.)
Not a test: run it by hand, on logs too large for the tests.
"""
import calendar
import fnmatch
import json
import re
import statistics
import subprocess
import sys
import time

LINE = re.compile(r'^(\S+) \S+ \S+ \[([^\]]+)\] "\S+ (\S+)[^"]*" \d{3} \S+')


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip())
    fetcher, log, steps = sys.argv[1:4]
    gap = int(sys.argv[4]) if len(sys.argv) > 4 else None
    extra = sys.argv[5:]
    globs = steps.split(",")
    # fnmatch's * is any run of characters; its [ and ? are escaped so they match themselves.
    patterns = [re.compile(fnmatch.translate(g.replace("[", "[[]").replace("?", "[?]")))
                for g in globs]
    state = {}  # client -> [step, time of last step, time of last visit]
    reached = [0] * (len(globs) + 1)
    seconds = [[] for _ in globs]
    paths = 0

    def end(path):
        for index in range(path[0] + 1):
            reached[index] += 1

    months = {m: i for i, m in enumerate(
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], 1)}
    with open(log, encoding="utf-8", errors="surrogateescape") as lines:
        for line in lines:
            match = LINE.match(line)
            if not match:
                continue
            client, stamp, page = match.groups()
            day, month, rest = stamp.split("/", 2)
            year, clock = rest[:4], rest[5:13]
            zone = stamp[-5:]
            when = calendar.timegm((int(year), months[month], int(day), int(clock[:2]),
                                    int(clock[3:5]), int(clock[6:8])))
            when -= (int(zone[1:3]) * 3600 + int(zone[3:5]) * 60) * (1 if zone[0] == "+" else -1)
            path = state.get(client)
            if path is not None and gap is not None and when - path[2] > gap:
                end(path)
                path = None
            if path is None:
                path = state[client] = [0, 0, when]
                paths += 1
            path[2] = when
            step = path[0]
            if step < len(globs) and patterns[step].match(page):
                if step > 0:
                    seconds[step].append(when - path[1])
                path[0], path[1] = step + 1, when
    for path in state.values():
        end(path)
    ours = {"paths": paths, "steps": [
        {"page": g, "paths": reached[i + 1], "dropOff": 0 if i == 0 else reached[i] - reached[i + 1],
         "medianSeconds": float(statistics.median(seconds[i])) if seconds[i] else None}
        for i, g in enumerate(globs)]}
    command = [fetcher, "analyze", "--json", "--funnel", steps] + (
        ["--session-gap", f"{gap}s"] if gap is not None else []) + extra + [log]
    theirs = json.loads(subprocess.run(command, check=True, capture_output=True).stdout)["funnel"]
    for step in theirs["steps"]:
        step.pop("share")
        step.pop("step")
        step.setdefault("medianSeconds", None)
        if step["medianSeconds"] is not None:
            step["medianSeconds"] = float(step["medianSeconds"])
    print("reference:", json.dumps(ours))
    print("fetcher:  ", json.dumps(theirs))
    if ours != theirs:
        print("they differ")
        sys.exit(1)
    print("the same")


if __name__ == "__main__":
    main()
