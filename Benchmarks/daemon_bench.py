"""The measurements of Benchmarks/daemon.sh (which sets up nginx and says the targets).

Usage: daemon_bench.py FETCHER WORK SERVER RUNS [PARTS (default lists,idle,files; also watch,
queue, adds, page)]
"""
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time

import websocket  # websocket-client, which aria2p brings

fetcher, work, server, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
parts = (sys.argv[5] if len(sys.argv) > 5 else "lists,idle,files").split(",")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fresh_folders(name):
    """`name`'s state folder and files folder in the work folder, made empty."""
    folders = (f"{work}/{name}-home", f"{work}/{name}-files")
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
    return folders


class Daemon:
    """A daemon with a fresh state folder and files folder, on a free port."""

    def __init__(self, name, *options):
        self.home, self.files = fresh_folders(name)
        self.port = free_port()
        self.process = subprocess.Popen(
            [fetcher, "daemon", "--rpc-listen-port", str(self.port), "-d", self.files, *options],
            env={**os.environ, "FETCHER_HOME": self.home}, stderr=subprocess.PIPE, text=True)
        for line in self.process.stderr:
            if "listening" in line:
                break
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        with open(f"{self.home}/daemon.json") as daemon_file:
            self.token = f"token:{json.load(daemon_file)['secret']}"
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port)

    def post(self, body):
        try:
            self.connection.request("POST", "/jsonrpc", body,
                                    {"Content-Type": "application/json"})
            return json.loads(self.connection.getresponse().read())
        except (ConnectionError, http.client.HTTPException):
            # A server may close a kept-alive connection between two calls: once more, anew.
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port)
            self.connection.request("POST", "/jsonrpc", body,
                                    {"Content-Type": "application/json"})
            return json.loads(self.connection.getresponse().read())

    def call(self, method, *params):
        answer = self.post(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method,
                                       "params": [self.token, *params]}))
        if "error" in answer:
            sys.exit(f"{method}: {answer['error']}")
        return answer["result"]

    def add_batch(self, uris):
        calls = [{"jsonrpc": "2.0", "id": i, "method": "aria2.addUri", "params": [self.token, [uri]]}
                 for i, uri in enumerate(uris)]
        for answer in self.post(json.dumps(calls)):
            if "error" in answer:
                sys.exit(f"addUri: {answer['error']}")

    def stop(self):
        self.process.terminate()
        self.process.wait()

    def cpu_seconds(self):
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def latencies(daemon, method, *params, count=300):
    times = []
    for _ in range(count):
        start = time.perf_counter()
        daemon.call(method, *params)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)]


def page_cost(daemon, seconds=20):
    """The share of a core `daemon` spends while its page is open in headless Chromium
    (Tests/Daemon/page_driver.py), measured over `seconds` once the page shows the list."""
    holder = subprocess.Popen(
        [sys.executable, "Tests/Daemon/page_driver.py", "/usr/bin/chromium-headless-shell",
         f"http://127.0.0.1:{daemon.port}/#secret={daemon.token[len('token:'):]}", "--hold",
         str(seconds + 5)], stdout=subprocess.PIPE, text=True)
    holder.stdout.readline()  # "holding N rows": the page has the list
    time.sleep(2)
    before = daemon.cpu_seconds()
    time.sleep(seconds)
    used = daemon.cpu_seconds() - before
    holder.wait()
    return used / seconds * 100


# 1. The lists with 1,000 downloads in the queue, and 2. idle, when that queue is paused.
if "lists" in parts or "idle" in parts or "watch" in parts or "page" in parts:
    daemon = Daemon("lists", "-j", "5")
    daemon.add_batch([f"{server}/slow/{n}.bin" for n in range(1000)])
    while int(daemon.call("aria2.getGlobalStat")["numActive"]) < 5:
        time.sleep(0.1)
    if "lists" in parts:
        for method, params in (("aria2.tellActive", ()), ("aria2.tellWaiting", (0, 1000))):
            median, p95 = latencies(daemon, method, *params)
            print(f"{method}{'(0, 1000)' if params else ''} with 1,000 in the queue: "
                  f"median {median:.2f} ms, p95 {p95:.2f} ms")
    if "watch" in parts:
        # `fetcher downloads watch` beside it for 20 s: the daemon's time for its lists.
        before = daemon.cpu_seconds()
        watcher = subprocess.Popen([fetcher, "downloads", "watch"],
                                   env={**os.environ, "FETCHER_HOME": daemon.home},
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(20)
        watcher.terminate()
        watcher.wait()
        print(f"watched for 20 s, 5 of 1,000 running: the daemon used "
              f"{(daemon.cpu_seconds() - before) / 20 * 100:.2f}% of a core")
    if "page" in parts:
        before = daemon.cpu_seconds()
        time.sleep(20)
        print(f"no page, 5 of 1,000 downloading: "
              f"{(daemon.cpu_seconds() - before) / 20 * 100:.2f}% of a core")
        print(f"page open, 5 of 1,000 downloading: {page_cost(daemon):.2f}% of a core")
    if "idle" in parts or "page" in parts:
        daemon.call("aria2.forcePauseAll")
        time.sleep(1)
    if "idle" in parts:
        before = daemon.cpu_seconds()
        time.sleep(20)
        print(f"idle, 1,000 paused: {(daemon.cpu_seconds() - before) / 20 * 100:.2f}% of a core")
    if "page" in parts:
        print(f"page open, 1,000 paused: {page_cost(daemon):.2f}% of a core")
    daemon.stop()

# 2. Idle, a fresh daemon with an empty queue.
if "idle" in parts:
    daemon = Daemon("idle")
    before = daemon.cpu_seconds()
    time.sleep(20)
    print(f"idle, empty queue: {(daemon.cpu_seconds() - before) / 20 * 100:.2f}% of a core")
    daemon.stop()

# 3. 10,000 tiny files: by RPC into the daemon, and fetcher download -i.
count = 10000
uris = [f"{server}/n/file{n}.txt" for n in range(count)]
with open(f"{work}/list", "w") as list_file:
    list_file.write("\n".join(uris) + "\n")


def by_rpc(notified):
    """Seconds from the batch of addUri to the last file: seen in the folder (every 20 ms), or
    with `notified` by the last onDownloadComplete over WebSocket (the Python client's parsing
    of 20,000 frames then shares the two cores)."""
    daemon = Daemon("rpc", "-j", "4")
    done = threading.Event()
    completed = [0]

    def on_message(_socket, message):
        if "aria2.onDownloadComplete" in message:  # without parsing 20,000 messages
            completed[0] += 1
            if completed[0] == count:
                done.set()

    if notified:
        connected = threading.Event()
        socket_client = websocket.WebSocketApp(
            f"ws://127.0.0.1:{daemon.port}/jsonrpc", on_message=on_message,
            on_open=lambda _socket: connected.set())
        threading.Thread(target=socket_client.run_forever, daemon=True).start()
        connected.wait(10)
    start = time.perf_counter()
    daemon.add_batch(uris)
    if notified:
        if not done.wait(600):
            sys.exit(f"by RPC: {completed[0]} of {count} completions")
    else:
        while sum(1 for _ in os.scandir(daemon.files)) < count:
            if time.perf_counter() - start > 600:
                sys.exit("by RPC: files missing after 600 s")
            time.sleep(0.02)
    elapsed = time.perf_counter() - start
    if notified:
        socket_client.close()
    daemon.stop()
    files = len(os.listdir(daemon.files))
    if files != count:
        sys.exit(f"by RPC: {files} files of {count}")
    return elapsed


def by_input_file():
    home, files = fresh_folders("cli")
    start = time.perf_counter()
    subprocess.run([fetcher, "download", "-i", f"{work}/list", "-d", files, "-q",
                    "--concurrency", "4"], env={**os.environ, "FETCHER_HOME": home}, check=True)
    elapsed = time.perf_counter() - start
    if len(os.listdir(files)) != count:
        sys.exit("download -i: files missing")
    return elapsed


rpc, notified, cli = [], [], []
for _ in range(runs if "files" in parts else 0):
    rpc.append(by_rpc(False))
    cli.append(by_input_file())
    notified.append(by_rpc(True))
if "files" in parts:
    median = statistics.median
    print(f"10,000 tiny files, median of {runs}: by RPC {median(rpc):.2f} s, "
          f"download -i {median(cli):.2f} s, ratio {median(rpc) / median(cli):.3f}; "
          f"until the last notification {median(notified):.2f} s, "
          f"ratio {median(notified) / median(cli):.3f}")
    for name, times in (("by RPC", rpc), ("download -i", cli), ("notified", notified)):
        print(f"  {name}: {' '.join(f'{t:.2f}' for t in times)}")


# 5. (part `queue`) Queue calls with 1,000 downloads (5 under way at 1 KiB/s), beside aria2c
# driven the same way: pauseAll, unpauseAll, and forceRemove of one waiting download.
class Aria2c(Daemon):
    """aria2c --enable-rpc with the same folders, secret and concurrency."""

    def __init__(self, name):
        self.home, self.files = fresh_folders(name)
        self.port = free_port()
        self.token = "token:bench"
        self.process = subprocess.Popen(
            ["aria2c", "--enable-rpc", f"--rpc-listen-port={self.port}", "--rpc-secret=bench",
             f"--dir={self.files}", "-j", "5", "--quiet",
             # As fetcher writes: no file of the full size made ahead, which on the tmpfs is
             # memory (100 MB for each download started).
             "--file-allocation=none"])
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port)


def timed(daemon, method, *params):
    start = time.perf_counter()
    daemon.call(method, *params)
    return (time.perf_counter() - start) * 1000


if "queue" in parts:
    results = {}
    for name, make in (("fetcher", lambda: Daemon("queue", "-j", "5")),
                       ("aria2c", lambda: Aria2c("aria2c"))):
        if name == "aria2c" and shutil.which("aria2c") is None:
            continue
        daemon = make()
        daemon.add_batch([f"{server}/slow/{n}.bin" for n in range(1000)])
        while int(daemon.call("aria2.getGlobalStat")["numActive"]) < 5:
            time.sleep(0.1)
        pause, unpause = [], []
        for _ in range(runs):
            pause.append(timed(daemon, "aria2.pauseAll"))
            unpause.append(timed(daemon, "aria2.unpauseAll"))
        waiting = [entry["gid"] for entry in daemon.call("aria2.tellWaiting", 0, 1000, ["gid"])]
        removes = [timed(daemon, "aria2.forceRemove", gid) for gid in waiting[100:100 + 20]]
        results[name] = (statistics.median(pause), statistics.median(unpause),
                         statistics.median(removes))
        daemon.stop()
    for name, (pause, unpause, remove) in results.items():
        print(f"{name}, 1,000 in the queue: pauseAll {pause:.1f} ms, unpauseAll {unpause:.1f} ms, "
              f"forceRemove of one {remove:.2f} ms (medians of {runs}, {runs}, 20)")


# 6. (part `adds`) Beside aria2c driven the same way, each in a fresh daemon per run: 1,000
# addUri one call each over a kept-alive connection, then the resident memory with them queued
# and after pauseAll, unpauseAll, a forceRemove of each and purgeDownloadResult; then 1,000
# addUri in one system.multicall. Once per daemon: 1,000 stopped downloads polled as
# webui-aria2 polls (tellActive, tellWaiting, tellStopped of 1,000 and getGlobalStat in one
# multicall) once a second for 20 s, in CPU seconds.
def rss_mib(daemon):
    with open(f"/proc/{daemon.process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def multicall(daemon, calls):
    body = {"jsonrpc": "2.0", "id": 1, "method": "system.multicall",
            "params": [[{"methodName": method, "params": [daemon.token, *params]}
                        for method, *params in calls]]}
    answer = daemon.post(json.dumps(body))
    if "error" in answer:
        sys.exit(f"system.multicall: {answer['error']}")
    return answer["result"]


def all_gids(daemon):
    return [entry["gid"] for method in ("aria2.tellActive", "aria2.tellWaiting")
            for entry in (daemon.call(method, ["gid"]) if method == "aria2.tellActive"
                          else daemon.call(method, 0, 2000, ["gid"]))]


def webui_poll(daemon, seconds=20):
    calls = [("aria2.tellActive",), ("aria2.tellWaiting", 0, 1000), ("aria2.tellStopped", 0, 1000),
             ("aria2.getGlobalStat",)]
    before = daemon.cpu_seconds()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        multicall(daemon, calls)
        time.sleep(1)
    return daemon.cpu_seconds() - before


if "adds" in parts:
    makers = [("fetcher", lambda: Daemon("adds", "-j", "5"))]
    if shutil.which("aria2c") is not None:
        makers.append(("aria2c", lambda: Aria2c("aria2c-adds")))
    results = {name: {"one": [], "multi": [], "idle": [], "queued": [], "after": [], "poll": 0.0}
               for name, _ in makers}
    for run in range(runs):
        # Alternating: fetcher's run, then aria2c's.
        for name, make in makers:
            result = results[name]
            daemon = make()
            result["idle"].append(rss_mib(daemon))
            start = time.perf_counter()
            for n in range(1000):
                daemon.call("aria2.addUri", [f"{server}/slow/{run}-{n}.bin"])
            result["one"].append(time.perf_counter() - start)
            result["queued"].append(rss_mib(daemon))
            daemon.call("aria2.pauseAll")
            daemon.call("aria2.unpauseAll")
            for gid in all_gids(daemon):
                try:
                    daemon.post(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "aria2.forceRemove",
                                            "params": [daemon.token, gid]}))
                except (ConnectionError, http.client.HTTPException) as error:
                    sys.exit(f"{name}: forceRemove: {error}; exit status {daemon.process.poll()}")
            daemon.call("aria2.purgeDownloadResult")
            result["after"].append(rss_mib(daemon))
            start = time.perf_counter()
            multicall(daemon, [("aria2.addUri", [f"{server}/slow/m{run}-{n}.bin"])
                               for n in range(1000)])
            result["multi"].append(time.perf_counter() - start)
            daemon.stop()
    for name, make in makers:
        daemon = make()
        multicall(daemon, [("aria2.addUri", [f"{server}/n/{n}"]) for n in range(1000)])
        while int(daemon.call("aria2.getGlobalStat")["numStopped"]) < 1000:
            time.sleep(0.1)
        results[name]["poll"] = webui_poll(daemon)
        daemon.stop()
    median = statistics.median
    for name, result in results.items():
        print(f"{name}: 1,000 addUri one by one {median(result['one']):.2f} s, in one multicall "
              f"{median(result['multi']):.2f} s; RSS idle {median(result['idle']):.1f} MiB, "
              f"1,000 queued {median(result['queued']):.1f} MiB, after pause, unpause, remove "
              f"and purge {median(result['after']):.1f} MiB (medians of {runs}); a webui-style "
              f"poll of 1,000 stopped for 20 s {result['poll']:.2f} CPU-s")
    if len(results) == 2:
        ours, theirs = results["fetcher"], results["aria2c"]
        print(f"ratios to aria2c: one by one {median(ours['one']) / median(theirs['one']):.2f} "
              f"(target 1.3), multicall {median(ours['multi']) / median(theirs['multi']):.2f} "
              f"(target 2)")
