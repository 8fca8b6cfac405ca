#!/usr/bin/env python3
"""Drives the daemon's page in headless Chromium over the DevTools protocol, as a user would.

    page_driver.py CHROMIUM PAGE-URL SLOW-URL MISSING-URL [--checked URL SHA256]
                   [--screenshots FOLDER]
    page_driver.py CHROMIUM PAGE-URL --hold SECONDS

PAGE-URL is the page's address with the secret in its fragment (`fetcher daemon open`).
SLOW-URL is a file the server sends slowly (a few seconds at least), MISSING-URL one it
answers 404. The first form adds SLOW-URL under a name made of markup, with the keyboard, and
checks that the name shows as text, that its progress moves, pause, resume, its own speed
limit, the global limits, the cause of MISSING-URL's failure, that a reload keeps the view and
the secret, remove and clear. With --checked, it also adds MISSING-URL with URL as its mirror,
SHA256 as its checksum, into the folder `sub` as `checked.bin`, and sees it done. With --screenshots it saves the page at 1280 and 390 pixels wide
there (and at 390 in the dark scheme), in the middle. The second form only keeps the page open for SECONDS (to measure what an
idle page costs the daemon). Prints what it checked; exits 1 saying what failed. Uses
websocket-client (aria2p's dependency, in Tests/Daemon/setup.sh's environment).
"""
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket

XSS_NAME = "<img src=x onerror=alert(1)>.bin"


class Failure(Exception):
    """A check that did not hold."""


def until(check, what, seconds=30):
    """`check()`'s first true value, asked every 0.1 s; fails saying `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise Failure(f"{what}: not within {seconds} s")


class Page:
    """One tab of a headless Chromium, over the DevTools protocol."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="page-driver-")
        self.process = subprocess.Popen(
            [chromium, "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--remote-debugging-port=0", "--remote-allow-origins=*",
             f"--user-data-dir={self.profile}", "--window-size=1280,900", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        port = None
        for line in self.process.stderr:
            found = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if found:
                port = found.group(1)
                break
        if port is None:
            raise Failure("Chromium did not start its DevTools server")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as answer:
            targets = json.load(answer)
        page = next(target for target in targets if target["type"] == "page")
        self.socket = websocket.create_connection(
            page["webSocketDebuggerUrl"], suppress_origin=True, timeout=30)
        self.next_id = 0
        self.events = []
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")

    def close(self):
        """Ends Chromium and every process of its (renderers outlive a browser killed alone)."""
        self.socket.close()
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def send(self, method, **params):
        """The result of a DevTools call; events heard meanwhile are kept."""
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise Failure(f"{method}: {message['error']}")
                return message["result"]
            self.events.append(message)
            if message.get("method") == "Page.javascriptDialogOpening":
                raise Failure(f"the page opened a dialog: {message['params'].get('message')}")

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (a promise's, awaited)."""
        result = self.send(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise Failure(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression, what, seconds=30):
        """Waits until `expression` is true in the page; fails saying `what` after `seconds`."""
        return until(lambda: self.evaluate(expression), what, seconds)

    def go(self, url):
        self.send("Page.navigate", url=url)
        self.wait("document.readyState === 'complete'", "the page loaded")

    def type(self, selector, text):
        """Focuses `selector` and types `text` as a keyboard would."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        self.send("Input.insertText", text=text)

    def press_enter(self):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter",
                      windowsVirtualKeyCode=13, text="\r" if kind == "keyDown" else "")

    def screenshot(self, path, width, dark=False):
        self.send("Emulation.setEmulatedMedia", features=[
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}])
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=900,
                  deviceScaleFactor=1, mobile=width < 600)
        time.sleep(0.3)
        height = self.evaluate("document.documentElement.scrollHeight")
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=max(height, 500),
                  deviceScaleFactor=1, mobile=width < 600)
        shot = self.send("Page.captureScreenshot", format="png")
        with open(path, "wb") as file:
            file.write(base64.b64decode(shot["data"]))
        self.send("Emulation.clearDeviceMetricsOverride")
        self.send("Emulation.setEmulatedMedia", features=[])

    def problems(self):
        """The page's script errors and the console's errors (a refused policy among them)."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(params["exceptionDetails"].get("text", "an exception"))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                if "favicon.ico" not in params["entry"].get("url", ""):
                    found.append(params["entry"]["text"])
        return found


ROW = """[...document.querySelectorAll('#downloads tbody tr')].find(
  (row) => row.querySelector('td.name span').textContent === %s)"""


def row(name):
    return ROW % json.dumps(name)


def rpc(page, method, *params):
    """A JSON-RPC call from the page's origin with the tab's secret."""
    body = json.dumps({"jsonrpc": "2.0", "id": "driver", "method": method, "params": list(params)})
    return page.evaluate(
        "(async () => { const secret = sessionStorage.getItem('fetcher.secret');"
        f" const body = JSON.parse({json.dumps(body)});"
        " if (secret) body.params.unshift('token:' + secret);"
        " const answer = await fetch('/jsonrpc', {method: 'POST', body: JSON.stringify(body)});"
        " return (await answer.json()).result; })()")


def scenario(page, url, slow, missing, checked, screenshots):
    said = lambda text: print("ok:", text, flush=True)
    page.go(url)
    page.wait("!document.getElementById('app').hidden", "the downloads shown")
    if page.evaluate("location.hash") != "":
        raise Failure("the secret stayed in the address")
    if not page.evaluate("sessionStorage.getItem('fetcher.secret')"):
        raise Failure("the tab did not keep the secret")
    said("signed in from the fragment, which left the address")

    # Added with the keyboard: the URL and a name made of markup, Enter to send.
    page.evaluate("document.querySelector('#add-panel summary').click()")
    page.type("#add-form input[name=url]", slow)
    page.type("#add-form input[name=out]", XSS_NAME)
    page.press_enter()
    page.wait(f"!!({row(XSS_NAME)})", "the new download's row")
    if page.evaluate("document.querySelectorAll('#downloads img, #downloads script').length"):
        raise Failure("the download's name became markup")
    said("a download named as markup shows as text")

    progress = f"({row(XSS_NAME)}).querySelector('progress').value"
    first = page.wait(f"{progress} > 0 && {progress}", "progress")
    page.wait(f"{progress} > {first}", "progress moving")
    page.wait(f"({row(XSS_NAME)}).children[3].textContent.endsWith('/s')", "its speed")
    said("its progress moves, with its speed")

    state = f"({row(XSS_NAME)}).querySelector('td.state').textContent"
    button = lambda text: (
        f"[...({row(XSS_NAME)}).querySelectorAll('button')].find("
        f"(b) => b.textContent === {json.dumps(text)} && !b.hidden).click()")
    page.evaluate(button("Pause"))
    page.wait(f"{state} === 'paused'", "paused")
    page.evaluate(button("Resume"))
    page.wait(f"{state} === 'downloading'", "resumed")
    said("pause and resume")

    statuses = rpc(page, "aria2.tellActive", ["gid", "files"])
    gid = next(s["gid"] for s in statuses if s["files"][0]["path"].endswith(XSS_NAME))
    page.evaluate(
        f"(() => {{ const input = ({row(XSS_NAME)}).querySelector('td.limit input');"
        " input.value = '40K'; input.dispatchEvent(new Event('change')); })()")
    until(lambda: rpc(page, "aria2.getOption", gid)["max-download-limit"] == "40960",
          "its own limit")
    page.evaluate("(() => { const form = document.getElementById('limits-form');"
                  " form.elements.overall.value = '2M'; form.elements.concurrent.value = '3';"
                  " form.requestSubmit(); })()")
    def global_limits_set():
        options = rpc(page, "aria2.getGlobalOption")
        return (options.get("max-overall-download-limit") == "2097152"
                and options.get("max-concurrent-downloads") == "3")

    until(global_limits_set, "the global limits (2M, 3 at once)", 10)
    said("its own speed limit, the global one and the number at once")

    page.type("#add-form input[name=url]", missing)
    page.press_enter()
    failed = page.wait(
        "[...document.querySelectorAll('#downloads td.state')].map((c) => c.textContent)"
        ".find((text) => text.startsWith('failed: '))", "the failure's cause")
    if "404" not in failed:
        raise Failure(f"the failure does not say 404: {failed}")
    said(f"a failure shows its cause ({failed})")

    if checked:
        mirror, digest = checked
        for field, value in (("url", missing), ("mirrors", mirror), ("checksum", f"sha-256={digest}"),
                             ("dir", "sub"), ("out", "checked.bin")):
            page.type(f"#add-form [name={field}]", value)
        page.evaluate("document.querySelector('#add-form button[type=submit]').click()")
        page.wait(f"({row('checked.bin')})?.querySelector('td.state').textContent === 'done'",
                  "the download from its mirror, checked")
        said("added with a mirror, a checksum, a folder and a name: done from the mirror")

    count = "document.querySelectorAll('#downloads tbody tr').length"
    shown = page.evaluate(count)
    page.send("Page.reload")
    page.wait("document.readyState === 'complete' && !document.getElementById('app').hidden"
              f" && {count} === {shown}", "the view after a reload")
    if not page.evaluate("document.getElementById('add-panel').open"):
        raise Failure("the reload closed the add form")
    page.wait("['total-active', 'total-waiting', 'total-stopped'].reduce((sum, id) =>"
              f" sum + Number(document.getElementById(id).textContent), 0) === {shown}",
              "the totals")
    page.wait(f"{state} === 'downloading'", "the download after the reload")
    said("a reload keeps the secret, the downloads and the add form; the totals count them")

    if screenshots:
        page.wait(f"({row(XSS_NAME)}).children[4].textContent !== ''", "time left shown")
        for width, dark in ((1280, False), (390, False), (390, True)):
            path = os.path.join(screenshots, f"daemon-page-{width}{'-dark' if dark else ''}.png")
            page.screenshot(path, width, dark)
            said(f"saved {path}")

    page.evaluate(button("Remove"))
    page.wait(f"{state} === 'removed'", "removed")
    page.evaluate("document.getElementById('clear').click()")
    page.wait("document.querySelectorAll('#downloads tr.state-complete, #downloads tr.state-error,"
              " #downloads tr.state-removed').length === 0", "cleared")
    said("remove, and clear the finished")

    problems = page.problems()
    if problems:
        raise Failure(f"the page's console: {problems}")
    said("no script error, no refused policy")


def main(arguments):
    chromium, url = arguments[0], arguments[1]
    page = Page(chromium)
    try:
        if arguments[2] == "--hold":
            page.go(url)
            page.wait("!document.getElementById('app').hidden", "the downloads shown")
            print("holding", page.evaluate(
                "document.querySelectorAll('#downloads tbody tr').length"), "rows", flush=True)
            time.sleep(float(arguments[3]))
        else:
            screenshots = None
            if "--screenshots" in arguments:
                screenshots = arguments[arguments.index("--screenshots") + 1]
            checked = None
            if "--checked" in arguments:
                at = arguments.index("--checked")
                checked = (arguments[at + 1], arguments[at + 2])
            scenario(page, url, arguments[2], arguments[3], checked, screenshots)
    except Failure as failure:
        print("failed:", failure, file=sys.stderr)
        print("the page showed:", page.evaluate(
            "[...document.querySelectorAll('#connection, #message, #downloads tbody tr')]"
            ".map((e) => e.textContent).join(' | ')"), file=sys.stderr)
        print("its console:", page.problems(), file=sys.stderr)
        return 1
    finally:
        page.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
