#!/usr/bin/env python3
"""A WebHDFS stand-in for the end-to-end tests, after Hadoop's WebHDFS REST API: one file,
/logs/access.log (a generated combined log), answers `op=GETFILESTATUS` with its FileStatus
JSON and `op=OPEN[&offset=N][&length=N]` with a 307 to a "data node" path of this server that
sends those bytes, as a name node does. A Range header is ignored, as WebHDFS ignores it.
Anything under /secure answers 401 and asks for Kerberos (`WWW-Authenticate: Negotiate`), as a
secured cluster does. Anything else is a 404 with WebHDFS's RemoteException JSON.

    webhdfs_server.py --host HOST --port PORT [--tls FOLDER]
        (prints "Serving on http://HOST:PORT" first, or https://)

With --tls, it serves HTTPS (as swebhdfs://) with a certificate for 127.0.0.1 and localhost
signed by a private CA, both made with openssl in FOLDER (the CA's is FOLDER/ca.pem).
"""
import argparse
import json
import ssl
import subprocess
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

PATH = "/logs/access.log"
CLIENTS = ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"]
LOG = "".join(
    f'{CLIENTS[n % 4]} - - [01/May/2024:10:{n // 60 % 60:02d}:{n % 60:02d} +0000] '
    f'"GET /p{n * 3 % 7} HTTP/1.1" 200 {n % 5000} "-" "curl/8.4.0"\n'
    for n in range(3000)).encode()


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        parts = urlsplit(self.path)
        query = {key.lower(): values[0] for key, values in parse_qs(parts.query).items()}
        data_node = parts.path.startswith("/datanode")
        path = parts.path.removeprefix("/datanode").removeprefix("/webhdfs/v1")
        op = query.get("op", "").upper()
        if path.startswith("/secure/"):
            self.send_response(401)
            self.send_header("WWW-Authenticate", "Negotiate")
            self.send_header("Content-Length", "0")
            return self.end_headers()
        if path != PATH or not parts.path.removeprefix("/datanode").startswith("/webhdfs/v1/"):
            return self.json(404, {"RemoteException": {
                "exception": "FileNotFoundException", "javaClassName": "java.io.FileNotFoundException",
                "message": f"File does not exist: {path}"}})
        if op == "GETFILESTATUS" and not data_node:
            return self.json(200, {"FileStatus": {
                "accessTime": 0, "blockSize": 134217728, "group": "supergroup", "length": len(LOG),
                "modificationTime": 0, "owner": "hdfs", "pathSuffix": "", "permission": "644",
                "replication": 1, "type": "FILE"}})
        if op != "OPEN":
            return self.json(400, {"RemoteException": {
                "exception": "IllegalArgumentException", "message": f"Invalid value for op: {op}"}})
        if not data_node:
            self.send_response(307)
            self.send_header("Location", f"/datanode{self.path}")
            self.send_header("Content-Length", "0")
            return self.end_headers()
        offset = int(query.get("offset", "0"))
        length = int(query["length"]) if "length" in query else len(LOG)
        body = LOG[offset:offset + length]
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def json(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def make_certificates(folder):
    """A private CA (ca.pem) and a server certificate it signs (server.pem, server.key)."""
    script = """set -e
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \\
  -subj '/CN=WebHDFS test CA' -keyout ca.key -out ca.pem
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \\
  -subj '/CN=localhost' -keyout server.key -out server.csr
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \\
  -extfile san.ext -out server.pem
"""
    subprocess.run(["sh", "-c", script], cwd=folder, check=True, capture_output=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls", metavar="FOLDER")
    arguments = parser.parse_args()
    server = ThreadingHTTPServer((arguments.host, arguments.port), Handler)
    scheme = "http"
    if arguments.tls:
        make_certificates(arguments.tls)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(f"{arguments.tls}/server.pem", f"{arguments.tls}/server.key")
        server.socket = context.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    print(f"Serving on {scheme}://{arguments.host}:{server.server_address[1]}", flush=True)
    server.serve_forever()
