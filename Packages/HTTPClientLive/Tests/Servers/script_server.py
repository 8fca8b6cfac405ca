"""A raw HTTP/1.1 test server for HTTPClientLive's tests (Python 3 standard library only).

Prints its port on the first line of standard output, then serves until killed:
  /hops/N          302 to /hops/N-1 (with a body), /hops/0 answers 200 "arrived"
  /loop            302 to itself
  /to?url=U        302 to U (any scheme)
  /negative-length, /conflicting-length, /listed-length, /broken-chunks   malformed replies
  /stall           the head, then nothing
  /stall-after?bytes=N   the head and N bytes of a longer body, then nothing
  /continue-forever   "100 Continue" every 0.2 s, never a final answer
  /trickle         the head, then one byte of a long body every 0.2 s
  /set-cookie?name=value   200 with "Set-Cookie: name=value; Path=/"
  anything else    200 with the raw request head as the body (so tests see what was sent,
                   including the absolute-form request line a proxy receives), and the
                   client's port in X-Client-Port (so tests see a connection reused)
"""
import argparse
import socket
import socketserver
import time
import urllib.parse


def reply(status, headers=(), body=b""):
    head = "HTTP/1.1 %s\r\n" % status
    head += "".join("%s: %s\r\n" % field for field in headers)
    if not any(name.lower() == "content-length" for name, _ in headers):
        head += "Content-Length: %d\r\n" % len(body)
    return head.encode("latin-1") + b"\r\n" + body


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        while True:
            head = b""
            while not head.endswith(b"\r\n\r\n"):
                line = self.rfile.readline()
                if not line:
                    return
                head += line
            target = head.split(b" ")[1].decode("latin-1")
            path = urllib.parse.urlsplit(target).path
            query = urllib.parse.parse_qs(urllib.parse.urlsplit(target).query)
            if not self.answer(head, target, path, query):
                return

    def answer(self, head, target, path, query):
        send = self.wfile.write
        if path.startswith("/hops/"):
            left = int(path.rsplit("/", 1)[1])
            if left > 0:
                send(reply("302 Found", [("Location", "/hops/%d" % (left - 1))], b"moved on"))
            else:
                send(reply("200 OK", [], b"arrived"))
        elif path == "/loop":
            send(reply("302 Found", [("Location", "/loop")]))
        elif path == "/to":
            send(reply("302 Found", [("Location", query["url"][0])]))
        elif path == "/negative-length":
            send(reply("200 OK", [("Content-Length", "-5")], b"hello"))
            return False
        elif path == "/conflicting-length":
            send(reply("200 OK", [("Content-Length", "5"), ("Content-Length", "6")], b"hello"))
            return False
        elif path == "/listed-length":
            send(reply("200 OK", [("Content-Length", "5, 6")], b"hello"))
            return False
        elif path == "/broken-chunks":
            send(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n")
            return False
        elif path == "/stall-after":
            count = int(query["bytes"][0])
            send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (count * 2) + b"x" * count)
            self.wfile.flush()
            self.rfile.read()
            return False
        elif path == "/continue-forever":
            while True:
                send(b"HTTP/1.1 100 Continue\r\n\r\n")
                self.wfile.flush()
                time.sleep(0.2)
        elif path == "/trickle":
            send(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")
            while True:
                send(b"x")
                self.wfile.flush()
                time.sleep(0.2)
        elif path == "/set-cookie":
            cookies = [("Set-Cookie", "%s=%s; Path=/" % (name, values[0]))
                       for name, values in sorted(query.items())]
            send(reply("200 OK", cookies, b"set"))
        elif path == "/stall":
            send(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
            self.wfile.flush()
            self.rfile.read()
            return False
        else:
            port = str(self.client_address[1])
            send(reply("200 OK", [("Content-Type", "text/plain"), ("X-Client-Port", port)], head))
        self.wfile.flush()
        return True


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    arguments = parser.parse_args()
    Server.address_family = socket.AF_INET6 if ":" in arguments.host else socket.AF_INET
    with Server((arguments.host, 0), Handler) as server:
        print(server.server_address[1], flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
