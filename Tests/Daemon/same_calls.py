"""Makes the same aria2 JSON-RPC calls of a daemon as aria2's front ends make them, and prints
what each answered, one JSON line per call, with the GIDs replaced by names: run against
`fetcher daemon` and against `aria2c --enable-rpc`, the two outputs must be the same.

The calls are the rows of issue 70: a download added paused (webui-aria2's and AriaNg's
"start paused"), moved in the waiting line (webui-aria2's "move up/down", AriaNg's drag), its
options read and changed, the global speed limit and how many at once (their settings), the
same URL added again, a file whose name is taken, a 404, a completion and its URIs, remove,
purge, pauseAll and unpauseAll.

Usage: same_calls.py RPC_PORT SECRET SERVER_URL FOLDER
"""
import json
import os
import socket
import sys
import time
import urllib.request

port, secret, server, folder = sys.argv[1:5]
names = {}


def call(method, *params):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method,
                       "params": [f"token:{secret}", *params]}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/jsonrpc", body,
                                     {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            answer = json.load(response)
    except urllib.error.HTTPError as error:  # aria2c answers an error with 400
        answer = json.load(error)
    return answer.get("result", {"error": "error" in answer})


def named(value):
    """`value` with each GID it holds replaced by the name it was given."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [named(item) for item in value]
    if isinstance(value, dict):
        return {key: named(item) for key, item in value.items()}
    return value


def listening():
    """Returns once the daemon takes connections (aria2c says nothing when it does)."""
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", int(port)), 1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                sys.exit(f"nothing listens on port {port}")
            time.sleep(0.05)


def say(what, value):
    print(json.dumps({what: named(value)}, sort_keys=True), flush=True)


def add(name, uri, **options):
    gid = call("aria2.addUri", [uri], options)
    names[gid] = name
    return gid


def status(gid, *keys):
    return call("aria2.tellStatus", gid, list(keys))


def waiting_line():
    return [entry["gid"] for entry in call("aria2.tellWaiting", 0, 100, ["gid"])]


def wait_for(gid, state):
    deadline = time.monotonic() + 20
    while status(gid, "status")["status"] != state:
        if time.monotonic() > deadline:
            sys.exit(f"{names.get(gid, gid)} never became {state}: {status(gid, 'status')}")
        time.sleep(0.05)


listening()
say("limit", call("aria2.changeGlobalOption", {"max-concurrent-downloads": "2"}))
a = add("a", f"{server}/files/a.bin?size=1000", pause="true")
b = add("b", f"{server}/files/b.bin?size=1000", pause="true")
c = add("c", f"{server}/files/c.bin?size=1000", pause="true")
say("added paused", [status(gid, "status") for gid in (a, b, c)])
say("line", waiting_line())
say("POS_SET", call("aria2.changePosition", c, 0, "POS_SET"))
say("line", waiting_line())
say("POS_CUR", call("aria2.changePosition", c, 1, "POS_CUR"))
say("line", waiting_line())
say("POS_END", call("aria2.changePosition", c, 0, "POS_END"))
say("line", waiting_line())
say("moved too far", call("aria2.changePosition", a, -5, "POS_CUR"))

say("changeOption", call("aria2.changeOption", b, {"max-download-limit": "100K", "split": "2"}))
options = call("aria2.getOption", b)
say("getOption", {key: options.get(key) for key in ("max-download-limit", "split")})
say("its folder", os.path.relpath(options["dir"], folder))
say("out before start", call("aria2.changeOption", c, {"out": "renamed.bin"}))
say("getOption out", call("aria2.getOption", c).get("out"))
say("global limit", call("aria2.changeGlobalOption",
                         {"max-overall-download-limit": "1M", "max-overall-upload-limit": "0"}))
options = call("aria2.getGlobalOption")
say("getGlobalOption", {key: options.get(key) for key in
                        ("max-overall-download-limit", "max-concurrent-downloads")})
say("no global limit", call("aria2.changeGlobalOption", {"max-overall-download-limit": "0"}))

again = add("again", f"{server}/files/a.bin?size=1000", pause="true")
say("added again", [again != a, status(a, "status"), status(again, "status")])
say("remove", call("aria2.remove", again))
say("removed", status(again, "status", "errorCode"))

with open(os.path.join(folder, "taken.bin"), "w") as taken:
    taken.write("mine")
renamed = add("renamed", f"{server}/files/taken.bin?size=1000")
wait_for(renamed, "complete")
say("a taken name", os.path.basename(call("aria2.getFiles", renamed)[0]["path"]))

missing = add("missing", f"{server}/nothing/here.bin")
wait_for(missing, "error")
say("a 404", status(missing, "status", "errorCode"))

say("unpause", [call("aria2.unpause", gid) for gid in (a, b, c)])
for gid in (a, b, c):
    wait_for(gid, "complete")
say("complete", status(a, "status", "totalLength", "completedLength"))
say("its first URI", status(a, "files")["files"][0]["uris"][0]["status"])
say("files", sorted(name for name in os.listdir(folder) if not name.startswith(".")))

say("pauseAll", call("aria2.pauseAll"))
say("unpauseAll", call("aria2.unpauseAll"))
stat = call("aria2.getGlobalStat")
say("stat", {key: stat[key] for key in ("numActive", "numWaiting", "numStopped")})
say("purge", call("aria2.purgeDownloadResult"))
say("stopped after purge", call("aria2.tellStopped", 0, 100, ["gid"]))
say("numStoppedTotal", call("aria2.getGlobalStat")["numStoppedTotal"])
say("unknown GID", call("aria2.tellStatus", "00000000000000ff"))
