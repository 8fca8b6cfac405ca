#!/usr/bin/env python3
"""page_server.py PORT FOLDER REPORT: serves FOLDER's files, and appends what is POSTed to
/report to the file REPORT: the web page of another origin in the daemon's browser tests."""
import functools
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

port, folder, report = int(sys.argv[1]), sys.argv[2], sys.argv[3]


class Handler(SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with open(report, "ab") as file:
            file.write(body)
        self.send_response(204)
        self.end_headers()


server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=folder))
print("listening", flush=True)
server.serve_forever()
