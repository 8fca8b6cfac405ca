#!/usr/bin/env python3
"""page_server.py PORT FOLDER REPORT: serves FOLDER's files, and appends what is POSTed to
/report to the file REPORT: the web page of another origin in the daemon's browser tests.
GET /wait answers once a report says "done" (a minute at most): an image of the page that
holds its load event, and so the browser's --dump-dom, until the page's script has ended."""
import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

port, folder, report = int(sys.argv[1]), sys.argv[2], sys.argv[3]
done = threading.Event()


class Handler(SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(report, "ab") as file:
            file.write(body)
        if body.startswith(b"done:"):
            done.set()
        self.send_response(204)
        self.end_headers()

    def do_GET(self):
        if self.path != "/wait":
            return super().do_GET()
        done.wait(60)
        self.send_response(204)
        self.end_headers()


server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=folder))
print("listening", flush=True)
server.serve_forever()
