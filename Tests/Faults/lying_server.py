"""A server that lies, for the fault suite (Python 3 standard library only).

Prints "Serving on http://127.0.0.1:PORT" first, then serves until killed. Every body is
1000 bytes of deterministic content (byte i is i % 251) unless said otherwise:
  /short              Content-Length 1000, sends 500 bytes, closes
  /extra              Content-Length 100, sends 200 bytes
  /negative           Content-Length -5
  /duplicate          Content-Length 5 and Content-Length 6
  /garbled-range      200 with an ETag dropped after 500 bytes; a Range request gets a 206
                      with "Content-Range: bytes zz-yy/qq"
  /mismatched-range   as /garbled-range, but the 206 says "bytes 0-999/1000"
  /never              the head, then no body at all
  /trickle            one byte every 0.2 s
  /name?n=NAME        Content-Disposition: attachment; filename="NAME" (raw, unescaped)
  /next?to=URL        the fetch protocol's root, whose next_path is URL (another origin)
  /code/              the fetch protocol's second step, a fixed response code
  /feed?art=BASE      an iTunes RSS feed of one song whose image is BASE/art.png
  /art.png            a PNG of 1 by 1 pixel
  /continue-forever   "100 Continue" every 0.2 s, never a final answer
  /escapes            404 whose body writes the clipboard (OSC 52), clears the screen, and
                      holds CR, BEL and the C1 controls NEL and CSI
  /escape-feed        an iTunes RSS feed of one song whose name and artist hold C1 controls
                      and CR (XML 1.0 allows no other control character)
  /quadratic-feed     an iTunes RSS feed of 200 KB whose one entity of 50,000 bytes is
                      referenced 50,000 times (2.5 GB if expanded)
  /quadratic.meta4    a Metalink of the same kind
  /metalink?file=URL  a Metalink 4 of one file, f.bin, whose one URL is URL (another origin)
  /redirect?to=URL    302 to URL
  /seen               JSON: the path and the headers of every request before it
"""
import argparse
import base64
import json
import socketserver
import threading
import time
import urllib.parse

BODY = bytes(i % 251 for i in range(1000))
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg=="
)
FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:im="http://itunes.apple.com/rss">
<entry><id im:id="1">1</id><im:name>Song</im:name><im:artist>Artist</im:artist>
<im:image height="170">%s/art.png</im:image></entry></feed>"""
ESCAPES = "\x1b]52;c;b3duZWQ=\x07\x1b[2J\x85line\u009b31m\rfake"
QUADRATIC = '<?xml version="1.0"?>\n<!DOCTYPE %%s [<!ENTITY q "%s">]>\n%%s' % ("A" * 50000)
QUADRATIC_FEED = QUADRATIC % (
    "feed",
    '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:im="http://itunes.apple.com/rss"><entry>'
    "<im:name>n</im:name><im:artist>a</im:artist><summary>%s</summary></entry></feed>"
    % ("&q;" * 50000),
)
QUADRATIC_METALINK = QUADRATIC % (
    "metalink",
    '<metalink xmlns="urn:ietf:params:xml:ns:metalink"><file name="f">'
    "<url>http://127.0.0.1:9/x</url><other>%s</other></file></metalink>" % ("&q;" * 50000),
)
SEEN = []
SEEN_LOCK = threading.Lock()


def head(status, fields):
    text = "HTTP/1.1 %s\r\n" % status
    text += "".join("%s: %s\r\n" % field for field in fields)
    return (text + "Connection: close\r\n\r\n").encode("utf-8")


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        request = b""
        while not request.endswith(b"\r\n\r\n"):
            line = self.rfile.readline()
            if not line:
                return
            request += line
        target = request.split(b" ")[1].decode("latin-1")
        parts = urllib.parse.urlsplit(target)
        lines = request.decode("latin-1").split("\r\n")[1:]
        fields = dict(line.split(": ", 1) for line in lines if ": " in line)
        if parts.path != "/seen":
            with SEEN_LOCK:
                SEEN.append({"path": parts.path, "headers": fields})
        ranged = b"\r\nrange:" in request.lower()
        send = self.wfile.write
        path = parts.path
        if path == "/short":
            send(head("200 OK", [("Content-Length", "1000")]) + BODY[:500])
        elif path == "/extra":
            send(head("200 OK", [("Content-Length", "100")]) + BODY[:200])
        elif path == "/negative":
            send(head("200 OK", [("Content-Length", "-5")]) + BODY[:5])
        elif path == "/duplicate":
            send(head("200 OK", [("Content-Length", "5"), ("Content-Length", "6")]) + BODY[:6])
        elif path in ("/garbled-range", "/mismatched-range"):
            validators = [("ETag", '"v1"'), ("Accept-Ranges", "bytes")]
            if ranged:
                spec = "bytes zz-yy/qq" if path == "/garbled-range" else "bytes 0-999/1000"
                fields = validators + [("Content-Range", spec), ("Content-Length", "1000")]
                send(head("206 Partial Content", fields) + BODY)
            else:
                send(head("200 OK", validators + [("Content-Length", "1000")]) + BODY[:500])
        elif path == "/never":
            send(head("200 OK", [("Content-Length", "1000")]))
            self.wfile.flush()
            time.sleep(30)
        elif path == "/trickle":
            send(head("200 OK", [("Content-Length", "1000")]))
            for byte in BODY:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.2)
        elif path == "/name":
            name = urllib.parse.parse_qs(parts.query)["n"][0]
            fields = [
                ("Content-Length", "1000"),
                ("Content-Disposition", 'attachment; filename="%s"' % name),
            ]
            send(head("200 OK", fields) + BODY)
        elif path == "/next":
            to = urllib.parse.parse_qs(parts.query)["to"][0]
            body = json.dumps({"next_path": to}).encode()
            send(head("200 OK", [("Content-Length", str(len(body)))]) + body)
        elif path == "/code/":
            code = {"path": "code", "response_code": "0f0e0d0c-0b0a-4908-8706-050403020100"}
            body = json.dumps(code).encode()
            send(head("200 OK", [("Content-Length", str(len(body)))]) + body)
        elif path == "/feed":
            art = urllib.parse.parse_qs(parts.query)["art"][0]
            body = (FEED % art).encode()
            send(head("200 OK", [("Content-Length", str(len(body)))]) + body)
        elif path == "/art.png":
            send(head("200 OK", [("Content-Length", str(len(PNG)))]) + PNG)
        elif path == "/continue-forever":
            while True:
                send(b"HTTP/1.1 100 Continue\r\n\r\n")
                self.wfile.flush()
                time.sleep(0.2)
        elif path == "/escapes":
            body = ("not here " + ESCAPES).encode("utf-8")
            send(head("404 Not Found", [("Content-Length", str(len(body)))]) + body)
        elif path == "/escape-feed":
            feed = FEED.replace("<im:name>Song", "<im:name>Song&#x85;[2J").replace(
                "<im:artist>Artist", "<im:artist>Art&#x9b;31mist&#13;"
            )
            body = (feed % "http://127.0.0.1:9").encode("utf-8")
            send(head("200 OK", [("Content-Length", str(len(body)))]) + body)
        elif path in ("/quadratic-feed", "/quadratic.meta4"):
            body = (QUADRATIC_FEED if path == "/quadratic-feed" else QUADRATIC_METALINK).encode()
            send(head("200 OK", [("Content-Length", str(len(body)))]) + body)
        elif path == "/metalink":
            url = urllib.parse.parse_qs(parts.query)["file"][0]
            body = (
                '<?xml version="1.0"?><metalink xmlns="urn:ietf:params:xml:ns:metalink">'
                '<file name="f.bin"><url>%s</url></file></metalink>' % url.replace("&", "&amp;")
            ).encode()
            send(head("200 OK", [("Content-Length", str(len(body)))]) + body)
        elif path == "/redirect":
            to = urllib.parse.parse_qs(parts.query)["to"][0]
            send(head("302 Found", [("Location", to), ("Content-Length", "0")]))
        elif path == "/seen":
            with SEEN_LOCK:
                body = json.dumps(SEEN).encode()
            send(head("200 OK", [("Content-Length", str(len(body)))]) + body)
        else:
            send(head("404 Not Found", [("Content-Length", "0")]))


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--host", default="127.0.0.1")
    arguments.add_argument("--port", type=int, default=0)
    options = arguments.parse_args()
    with Server((options.host, options.port), Handler) as server:
        print("Serving on http://%s:%d" % (options.host, server.server_address[1]), flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
