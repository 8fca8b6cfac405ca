"""Drives a download daemon with aria2p, as its users drive aria2c: adds URIs with options,
lists, pauses, resumes, removes, reads the global stat, and waits for the notification of a
completion over WebSocket. Fails (exit 1, the reason on stderr) at the first surprise.

Usage: aria2p_client.py RPC_PORT SECRET SERVER_URL FOLDER SHA256_OF_DONE
  SERVER_URL is server.py's root; /files/done.bin?size=300000 has SHA256_OF_DONE.
"""
import json
import os
import sys
import threading
import time
import traceback

import aria2p
import websocket  # aria2p's dependency


def fail(message):
    # os._exit: aria2p's notification thread would keep the process alive after sys.exit.
    print(f"aria2p_client: {message}", file=sys.stderr, flush=True)
    os._exit(1)


def failed(kind, value, trace):
    # A call the daemon refused raises: fail as at a surprise, not hang on aria2p's thread.
    traceback.print_exception(kind, value, trace)
    os._exit(1)


sys.excepthook = failed


def check(condition, message):
    if not condition:
        fail(message)


def wait_for(predicate, what, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    fail(f"timed out waiting for {what}")


port, secret, server, folder, digest = sys.argv[1:6]
api = aria2p.API(aria2p.Client(host="http://127.0.0.1", port=int(port), secret=secret))
completed = []
stopped = []
started = threading.Event()
api.listen_to_notifications(
    threaded=True, timeout=1,
    on_download_complete=lambda _api, gid: completed.append(gid),
    on_download_stop=lambda _api, gid: stopped.append(gid),
    on_download_start=lambda _api, gid: started.set())
time.sleep(0.5)  # the WebSocket connects

# A download with aria2's options: a folder inside the daemon's, a name, its checksum.
done = api.add_uris(
    [f"{server}/files/done.bin?size=300000"],
    options={"dir": "sub", "out": "renamed.bin", "checksum": f"sha-256={digest}"})
wait_for(lambda: done.gid in completed, "the completion notification of done.bin")
done.update()
check(done.status == "complete", f"done.bin is {done.status}")
check(done.total_length == 300000 and done.completed_length == 300000,
      f"lengths {done.total_length} {done.completed_length}")
check(str(done.files[0].path) == f"{folder}/sub/renamed.bin", f"path {done.files[0].path}")
check(done.name == "renamed.bin", f"name {done.name}")
uris = api.client.get_uris(done.gid)
check([uri["status"] for uri in uris] == ["used"], f"the URIs of a done download: {uris}")

# A slow one, limited to 100 KiB/s by max-download-limit: paused, resumed, then removed.
slow = api.add_uris([f"{server}/files/slow.bin?size=5000000"],
                    options={"max-download-limit": "100K"})
wait_for(lambda: (slow.update() or slow.status == "active") and slow.completed_length > 0,
         "bytes of slow.bin")
check(api.get_download(slow.gid).download_speed <= 150 * 1024, "the limit is not kept")
stat = api.get_stats()
check(stat.num_active == 1 and stat.num_stopped >= 1, f"stat {stat._struct}")
check(all(result is True for result in api.pause([slow])), "pause refused")
check(api.get_download(slow.gid).status == "paused", "not paused")
names = {download.gid: download.status for download in api.get_downloads()}
check(names.get(slow.gid) == "paused" and names.get(done.gid) == "complete", f"list {names}")
check(all(result is True for result in api.resume([slow])), "resume refused")
wait_for(lambda: api.get_download(slow.gid).status == "active", "slow.bin active again")

# Its limit raised while it runs holds at once (webui-aria2's and AriaNg's per-download limit).
check(api.client.change_option(slow.gid, {"max-download-limit": "400K"}) == "OK", "changeOption")
check(api.client.get_option(slow.gid).get("max-download-limit") == str(400 * 1024), "getOption")
# Its file is named before its first byte: aria2c would start it again, fetcher keeps the bytes.
try:
    api.client.change_option(slow.gid, {"out": "late.bin"})
    fail("a running download was renamed")
except aria2p.ClientException as error:
    check("has begun" in str(error), f"rename of a running download: {error}")
# The options AriaNg's and webui-aria2's settings show, with the values that hold here.
options = api.client.get_option(slow.gid)
check(all(key in options for key in [
    "dir", "out", "split", "max-connection-per-server", "min-split-size", "timeout", "max-tries",
    "user-agent", "auto-file-renaming", "allow-overwrite", "continue", "check-certificate"]),
      f"getOption names what a download has, not {sorted(options)}")
wait_for(lambda: api.get_download(slow.gid).download_speed > 200 * 1024,
         "slow.bin faster than 200 KiB/s under its new limit")
# The global limit (webui-aria2 sends the upload limit beside it), then none again.
check(api.client.change_global_option(
    {"max-overall-download-limit": "50K", "max-overall-upload-limit": "0"}) == "OK",
    "changeGlobalOption")
wait_for(lambda: 0 < api.get_download(slow.gid).download_speed <= 80 * 1024,
         "slow.bin under the global limit of 50 KiB/s")
check(api.client.get_global_option().get("max-overall-download-limit") == str(50 * 1024),
      "getGlobalOption")
check(api.client.change_global_option({"max-overall-download-limit": "0"}) == "OK",
      "no global limit")

# One added paused (webui-aria2's "start paused") waits for unpause.
waiting = api.add_uris([f"{server}/files/waiting.bin?size=1000"], options={"pause": "true"})
check(api.get_download(waiting.gid).status == "paused", "not added paused")
# The same URL and name added again is another download, as in aria2c: a new GID, the first
# left paused and as it was, the file of the second under a free name.
again = api.add_uris([f"{server}/files/waiting.bin?size=1000"],
                     options={"pause": "true", "max-download-limit": "1K"})
check(again.gid != waiting.gid, "the same URL added again gave the first GID back")
check(api.get_download(waiting.gid).status == "paused", "the first was unpaused by the second")
check(api.client.get_option(waiting.gid).get("max-download-limit") == "0",
      "the first took the second's limit")
check(api.get_download(again.gid).name == "waiting.1.bin",
      f"the second is named {api.get_download(again.gid).name}")
# Moved in the waiting line: AriaNg's drag (POS_SET), webui-aria2's "move down" (POS_CUR).
def waiting_line():
    return [entry["gid"] for entry in api.client.tell_waiting(0, 100, ["gid"])]
check(api.client.change_position(again.gid, 0, "POS_SET") == 0, "changePosition POS_SET")
check(waiting_line()[:2] == [again.gid, waiting.gid], f"after POS_SET: {waiting_line()}")
check(api.client.change_position(again.gid, 1, "POS_CUR") == 1, "changePosition POS_CUR")
check(waiting_line()[:2] == [waiting.gid, again.gid], f"after POS_CUR: {waiting_line()}")
check(api.client.remove(again.gid) == again.gid, "remove of the second refused")
# Its name, folder and connections changed before it begins (AriaNg's task settings).
check(api.client.change_option(waiting.gid, {"dir": "later", "out": "moved.bin", "split": "2"})
      == "OK", "changeOption dir, out and split")
options = api.client.get_option(waiting.gid)
check((options["dir"], options["out"], options["split"]) == (f"{folder}/later", "moved.bin", "2"),
      f"the changed options: {options}")
check(all(result is True for result in api.resume([waiting])), "resume of the paused refused")
wait_for(lambda: api.get_download(waiting.gid).status == "complete", "waiting.bin done")
check(os.path.getsize(f"{folder}/later/moved.bin") == 1000, "moved.bin not written")

# Removed, it is a stopped result with aria2's code (aria2p's API.remove drops the result too).
check(api.client.remove(slow.gid) == slow.gid, "remove refused")
removed = api.client.tell_status(slow.gid, ["status", "errorCode"])
check(removed == {"status": "removed", "errorCode": "31"}, f"removed: {removed}")
wait_for(lambda: slow.gid in stopped, "the stop notification of slow.bin")
# Purging the results says nothing more.
stops = len(stopped)
check(api.client.purge_download_result() == "OK", "purge")
check(slow.gid not in {download.gid for download in api.get_downloads()}, "purged but listed")
check(int(api.get_stats().num_stopped_total) >= 3, "numStoppedTotal reset by the purge")
# Notifications come in order: one said after the purge would be before this completion's.
sentinel = api.add_uris([f"{server}/files/sentinel.bin?size=1000"])
wait_for(lambda: sentinel.gid in completed, "the completion of sentinel.bin")
check(len(stopped) == stops, f"the purge was said as stops: {stopped[stops:]}")

# A secret given wrong is refused.
wrong = aria2p.Client(host="http://127.0.0.1", port=int(port), secret=secret + "x")
try:
    wrong.get_global_stat()
    fail("a wrong secret was taken")
except aria2p.ClientException as error:
    check("Unauthorized" in str(error), f"wrong secret: {error}")

# A call over the WebSocket is answered there; a message past 2 MiB closes it.
socket_client = websocket.create_connection(f"ws://127.0.0.1:{port}/jsonrpc", timeout=10)
socket_client.send(json.dumps({"jsonrpc": "2.0", "id": "w", "method": "aria2.getGlobalStat",
                               "params": [f"token:{secret}"]}))
answer = json.loads(socket_client.recv())
while answer.get("id") != "w":  # notifications may come first
    answer = json.loads(socket_client.recv())
check("numActive" in answer.get("result", {}), f"over WebSocket: {answer}")
closed = False
try:
    # The daemon closes the connection once it has read the frame's length: the send itself
    # may meet the reset.
    socket_client.send("x" * (3 << 20))
    while not closed:  # a timeout (10 s) raises, and fails the check
        closed = socket_client.recv() in ("", b"") or not socket_client.connected
except (websocket.WebSocketConnectionClosedException, ConnectionError):
    closed = True
check(closed, "a message past 2 MiB did not close the WebSocket")

api.stop_listening()
print(json.dumps({"completed": completed, "done": done.gid, "slow": slow.gid}))
