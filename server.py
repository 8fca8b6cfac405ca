#!/usr/bin/env python3
"""The test server that `fetcher` runs against (Python 3 standard library only).

Protocol of the Global Data Fetcher:

  GET /          200 {"next_path": "http://<Host header>/<uuid1>/"}
                 Every call replaces the single valid path.
  GET /<path>/   200 {"path": "<path>", "response_code": "<uuid4>"} for the latest path,
                 400 {"error": "App requested the wrong path, expected: <path>"} otherwise.
  anything else  404 "Unexpected path"

Fault routes, for tests of clients:

  GET /faults/status/<code>      answers <code> with a short text body
  GET /faults/malformed-json     answers 200 with a truncated JSON body

Usage: python3 server.py [--host 127.0.0.1] [--port 8000]
With --port 0 the system picks a free port. The first line printed always names the
address, for example "Serving on http://127.0.0.1:8000".

Routes live in ROUTES: a list of (compiled regex on the URL path, handler function).
A handler receives the request handler and the regex match, and returns a Reply.
"""

import argparse
import json
import re
import sys
import threading
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


@dataclass
class Reply:
    status: int
    body: bytes
    content_type: str = "application/json"
    headers: dict = field(default_factory=dict)

    @staticmethod
    def json(status, payload):
        return Reply(status, json.dumps(payload).encode("utf-8"))

    @staticmethod
    def text(status, text):
        return Reply(status, text.encode("utf-8"), "text/plain; charset=utf-8")


def log(message):
    print(message, flush=True)


class DataFetcherState:
    """The single valid path, shared by all request threads."""

    def __init__(self):
        self._lock = threading.Lock()
        self._path = None

    def next_path(self):
        path = str(uuid.uuid1())
        with self._lock:
            self._path = path
        return path

    def expected_path(self):
        with self._lock:
            return self._path


DATA_FETCHER = DataFetcherState()


def root(request, match):
    path = DATA_FETCHER.next_path()
    log(f"Next path: {path}")
    host = request.headers.get("Host") or "%s:%d" % request.server.server_address[:2]
    return Reply.json(200, {"next_path": f"http://{host}/{path}/"})


def response_code(request, match):
    path = match.group("path")
    expected = DATA_FETCHER.expected_path()
    if path != expected:
        log(f"Wrong path: {path}, expected: {expected}")
        return Reply.json(400, {"error": f"App requested the wrong path, expected: {expected}"})
    code = str(uuid.uuid4())
    log(f"Response code: {code}")
    return Reply.json(200, {"path": path, "response_code": code})


def fault_status(request, match):
    status = int(match.group("status"))
    return Reply.text(status, f"Fault injected: status {status}")


def fault_malformed_json(request, match):
    return Reply(200, b'{"next_path": "http://')


ROUTES = [
    (re.compile(r"^/$"), root),
    (re.compile(r"^/(?P<path>[^/]+)/$"), response_code),
    (re.compile(r"^/faults/status/(?P<status>[2-5][0-9][0-9])$"), fault_status),
    (re.compile(r"^/faults/malformed-json$"), fault_malformed_json),
]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FetcherTestServer/1.0"
    timeout = 30  # seconds; a client that goes quiet mid-request does not hold a thread forever

    def do_GET(self):
        try:
            reply = self.route()
        except Exception as error:  # never let one request take the server down
            log(f"Error while handling {self.path!r}: {error!r}")
            reply = Reply.text(500, "Internal server error")
        self.send(reply)

    def route(self):
        path = urlsplit(self.path).path
        for pattern, handler in ROUTES:
            match = pattern.match(path)
            if match:
                return handler(self, match)
        return Reply.text(404, "Unexpected path")

    def send(self, reply):
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away; nothing to answer

    def log_message(self, format, *args):
        sys.stderr.write("%s - %s\n" % (self.address_string(), format % args))


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        log(f"Connection error from {client_address[0]}: {sys.exc_info()[1]!r}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Test server for fetcher.")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000, 0 picks a free one)")
    args = parser.parse_args(argv)
    try:
        server = Server((args.host, args.port), Handler)
    except OSError as error:
        print(f"server.py: cannot listen on {args.host}:{args.port}: {error.strerror}", file=sys.stderr)
        return 1
    host, port = server.server_address[:2]
    log(f"Serving on http://{host}:{port}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
