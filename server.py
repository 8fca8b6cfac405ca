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

Logs for the log analysis:

  GET /logs/<name>.log?lines=N   a deterministic combined-format access log of N lines
                                 (default 1000, at most 10,000,000, streamed): clients 10.0.0.1 to 10.0.0.5 cycle through
                                 /1, /2 and /3, so /1 → /2 → /3 leads; with an ETag and
                                 Last-Modified, and 304 to a conditional request

Files for the download manager (see "Files" below):

  GET /files/<name>?size=BYTES   deterministic content (at most 1 GiB) with Content-Length, ETag,
                                 Last-Modified, Accept-Ranges and X-Content-SHA256;
                                 Range requests answer 206 or 416 (also a range whose last
                                 byte comes before its first), If-Range is honoured;
                                 If-None-Match (or else If-Modified-Since) answers 304
                                 while the ETag (or date) is the file's.
  GET /sha256/<name>?size=BYTES[&version=V]   the SHA-256 of that content, in hex
  Fault knobs, as query parameters of /files:
    drop_after=N        close the connection after N body bytes of each reply
    fail_first=N        answer 503 with Retry-After the first N requests (retry_after=S, default 1)
    stall=S             the first reply stops for S seconds mid-body (stall_at=N bytes,
                        default half the body)
    rate=B              send at most B bytes per second
    ignore_range=1      answer every request 200 with the whole file
    change_etag_after=N the file changes (new content and ETag) after N requests
    filename=NAME       send Content-Disposition: attachment; filename="NAME" (a NAME with a
                        control character, CR or LF among them, is refused with 400)

Top songs, an iTunes RSS feed (Atom with the im: namespace) of generated songs:

  GET /feeds/topsongs.xml?entries=N   N entries (default 25, at most 1000), each with
                                      im:name, im:artist, im:price, im:image at heights 55,
                                      60 and 170, im:collection, im:releaseDate, category,
                                      and the alternate and enclosure (preview) links
      knob malformed=1                the feed stops in the middle of an entry
  GET /feeds/topsongs.json?entries=N  the same songs in the JSON of Apple's RSS generator
                                      (feed.results: id, name, artistName, artistUrl,
                                      releaseDate, genres, url, artworkUrl100 at 100 pixels)
  GET /art/<id>-<height>.png          a small valid PNG, <height> pixels square (1 to 512)

Usage: python3 server.py [--host 127.0.0.1|::1] [--port 8000]
With --port 0 the system picks a free port. The first line printed always names the
address, for example "Serving on http://127.0.0.1:8000".

Routes live in ROUTES: a list of (compiled regex on the URL path, handler function).
A handler receives the request handler and the regex match, and returns a Reply.
"""

import argparse
import collections
import hashlib
import json
import re
import socket
import struct
import sys
import threading
import time
import uuid
import zlib
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable, Optional
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape, quoteattr


@dataclass
class Reply:
    status: int
    body: bytes
    content_type: str = "application/json"
    headers: dict = field(default_factory=dict)
    # A large body is streamed instead: `length` bytes written by `stream(wfile)`.
    stream: Optional[Callable] = None
    length: int = 0

    @staticmethod
    def json(status, payload):
        return Reply(status, json.dumps(payload).encode("utf-8"))

    @staticmethod
    def text(status, text):
        return Reply(status, text.encode("utf-8"), "text/plain; charset=utf-8")


def printable(text):
    """`text` with control characters (C0, DEL, C1) shown as \\xHH, so that a request cannot
    write escape sequences to the terminal that shows the log."""
    return "".join(
        f"\\x{ord(c):02x}" if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F else c for c in text
    )


def log(message):
    print(printable(message), flush=True)


class BoundedCache:
    """A dictionary that keeps its `limit` most recently used entries, so that a client that
    asks for endless names cannot grow the server without bound."""

    def __init__(self, limit=256):
        self._entries = collections.OrderedDict()
        self._limit = limit

    def get(self, key, default=None):
        if key not in self._entries:
            return default
        self._entries.move_to_end(key)
        return self._entries[key]

    def __setitem__(self, key, value):
        self._entries[key] = value
        self._entries.move_to_end(key)
        while len(self._entries) > self._limit:
            self._entries.popitem(last=False)


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


# Logs ----------------------------------------------------------------------------------


MAX_LOG_LINES = 10_000_000


def log_line(index):
    """Line `index` of every generated log."""
    client = f"10.0.0.{index % 5 + 1}"
    page = f"/{index // 5 % 3 + 1}"
    return f'{client} - - [01/Jul/1995:00:00:{index % 60:02d} -0400] "GET {page} HTTP/1.0" 200 {index}\n'


def log_length(count):
    """The bytes of the first `count` lines, without writing them: every line is as long as
    the first but for the digits of its index."""
    total = count * (len(log_line(0)) - 1)
    digits, start = 1, 0
    while start < count:
        end = min(count, 10 ** digits)
        total += (end - start) * digits
        digits, start = digits + 1, end
    return total


def write_log(count, wfile):
    """Writes the first `count` lines, a batch at a time, so memory stays flat however many."""
    for start in range(0, count, 10_000):
        lines = "".join(log_line(index) for index in range(start, min(count, start + 10_000)))
        wfile.write(lines.encode())
    return True


def log_route(request, match):
    query = parse_qs(urlsplit(request.path).query)
    count = query_int(query, "lines", 1000)
    if count < 0 or count > MAX_LOG_LINES:
        return Reply.text(400, f"lines must be 0 to {MAX_LOG_LINES}")
    headers = {"ETag": f'"log-{count}"', "Last-Modified": LAST_MODIFIED}
    if not_modified(request, headers["ETag"]):
        return Reply(304, b"", "text/plain; charset=utf-8", headers)
    return Reply(
        200, b"", "text/plain; charset=utf-8", headers,
        stream=lambda wfile: write_log(count, wfile), length=log_length(count),
    )


def not_modified(request, etag):
    """Whether a conditional request's copy is current: If-None-Match names `etag`, or else
    If-Modified-Since is the date every generated resource has (RFC 9110 13.2.2)."""
    if_none_match = request.headers.get("If-None-Match")
    if if_none_match is not None:
        return if_none_match.strip() == "*" or etag in [t.strip() for t in if_none_match.split(",")]
    return request.headers.get("If-Modified-Since") == LAST_MODIFIED


# Files ---------------------------------------------------------------------------------

BLOCK_SIZE = 64 * 1024
LAST_MODIFIED = formatdate(1_700_000_000, usegmt=True)


class FileStore:
    """Deterministic file contents, plus per-URL request counts for the fault knobs."""

    def __init__(self):
        self._lock = threading.Lock()
        self._blocks = BoundedCache(64)  # 64 KiB each
        self._digests = BoundedCache(4096)
        self._requests = BoundedCache(4096)

    def block(self, seed):
        """The 64 KiB block that the content of `seed` repeats."""
        with self._lock:
            block = self._blocks.get(seed)
        if block is None:
            block = b"".join(
                hashlib.sha256(f"{seed}:{i}".encode()).digest() for i in range(BLOCK_SIZE // 32)
            )
            with self._lock:
                self._blocks[seed] = block
        return block

    def sha256(self, seed, size):
        key = (seed, size)
        with self._lock:
            digest = self._digests.get(key)
        if digest is None:
            block = self.block(seed)
            hasher = hashlib.sha256()
            view = memoryview(block)
            for start in range(0, size, BLOCK_SIZE):
                hasher.update(view[: min(BLOCK_SIZE, size - start)])
            digest = hasher.hexdigest()
            with self._lock:
                self._digests[key] = digest
        return digest

    def count_request(self, key):
        """How many requests `key` had before this one."""
        with self._lock:
            count = self._requests.get(key, 0)
            self._requests[key] = count + 1
        return count


FILES = FileStore()


def seed_of(name, version):
    return f"{name}@{version}"


def query_int(query, name, default=None):
    values = query.get(name)
    if not values:
        return default
    return int(values[0])


def write_content(block, start, end, wfile, drop_after=None, stall=None, stall_at=None, rate=None):
    """Writes bytes [start, end) of the content that repeats `block`, applying the knobs.
    Returns False when the connection was dropped on purpose."""
    view = memoryview(block)
    sent = 0
    began = time.monotonic()
    stalled = False
    offset = start
    while offset < end:
        chunk_end = min(end, offset - offset % BLOCK_SIZE + BLOCK_SIZE)
        if drop_after is not None:
            chunk_end = min(chunk_end, offset + (drop_after - sent))
        if stall is not None and not stalled:
            if sent >= stall_at:
                wfile.flush()
                time.sleep(stall)
                stalled = True
            else:
                chunk_end = min(chunk_end, offset + (stall_at - sent))
        if rate:
            chunk_end = min(chunk_end, offset + max(1, rate // 20))
        if chunk_end > offset:
            wfile.write(view[offset % BLOCK_SIZE : offset % BLOCK_SIZE + (chunk_end - offset)])
            sent += chunk_end - offset
            offset = chunk_end
        if drop_after is not None and sent >= drop_after:
            wfile.flush()
            return False
        if rate:
            ahead = sent / rate - (time.monotonic() - began)
            if ahead > 0:
                wfile.flush()
                time.sleep(ahead)
    return True


def parse_range(header, size):
    """(start, end) for a single "bytes=N-" or "bytes=N-M" range, "unsatisfiable" (as nginx
    answers a range past the end, or one whose last byte comes before its first), or None
    when there is no usable Range header."""
    match = re.fullmatch(r"bytes=(\d*)-(\d*)", (header or "").strip())
    if not match or match.group(1) == "":
        return None
    start = int(match.group(1))
    end = int(match.group(2)) + 1 if match.group(2) else size
    if start >= size or end <= start:
        return "unsatisfiable"
    return start, min(end, size)


MAX_SIZE = 1 << 30  # the SHA-256 of a larger file would hold its first byte back for seconds


def size_of(query):
    """The `size` parameter (1 MiB by default), or None when it is out of range."""
    size = query_int(query, "size", 1024 * 1024)
    return size if 0 <= size <= MAX_SIZE else None


def file_route(request, match):
    name = match.group("name")
    query = parse_qs(urlsplit(request.path).query)
    size = size_of(query)
    if size is None:
        return Reply.text(400, f"size must be 0 to {MAX_SIZE}")
    count = FILES.count_request(request.path)

    fail_first = query_int(query, "fail_first", 0)
    if count < fail_first:
        retry_after = str(query_int(query, "retry_after", 1))
        return Reply(503, b"Fault injected: try again later", "text/plain", {"Retry-After": retry_after})

    change_after = query_int(query, "change_etag_after")
    version = 2 if change_after is not None and count >= change_after else 1
    seed = seed_of(name, version)
    etag = f'"{hashlib.sha1(f"{seed}:{size}".encode()).hexdigest()[:16]}"'
    headers = {
        "ETag": etag,
        "Last-Modified": LAST_MODIFIED,
        "Accept-Ranges": "bytes",
        "X-Content-SHA256": FILES.sha256(seed, size),
    }
    if query.get("filename"):
        name = query["filename"][0]
        # A line break would end the header and start another (response splitting).
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in name):
            return Reply.text(400, "filename must not hold control characters")
        headers["Content-Disposition"] = f'attachment; filename="{name}"'


    if not_modified(request, etag):
        return Reply(304, b"", "application/octet-stream", headers)

    start, end, status = 0, size, 200
    if not query.get("ignore_range"):
        if_range = request.headers.get("If-Range")
        if if_range is None or if_range in (etag, LAST_MODIFIED):
            wanted = parse_range(request.headers.get("Range"), size)
            if wanted == "unsatisfiable":
                headers["Content-Range"] = f"bytes */{size}"
                return Reply(416, b"", "text/plain", headers)
            if wanted:
                start, end = wanted
                status = 206
                headers["Content-Range"] = f"bytes {start}-{end - 1}/{size}"

    block = FILES.block(seed)
    stall = query.get("stall") if count == 0 else None
    knobs = {
        "drop_after": query_int(query, "drop_after"),
        "stall": float(stall[0]) if stall else None,
        "stall_at": query_int(query, "stall_at", (end - start) // 2),
        "rate": query_int(query, "rate"),
    }
    return Reply(
        status, b"", "application/octet-stream", headers,
        stream=lambda wfile: write_content(block, start, end, wfile, **knobs),
        length=end - start,
    )


def sha256_route(request, match):
    query = parse_qs(urlsplit(request.path).query)
    seed = seed_of(match.group("name"), query_int(query, "version", 1))
    size = size_of(query)
    if size is None:
        return Reply.text(400, f"size must be 0 to {MAX_SIZE}")
    return Reply.text(200, FILES.sha256(seed, size))


# Songs ---------------------------------------------------------------------------------

SONG_FIRST = ["Midnight", "Golden", "Electric", "Paper", "Silver", "Wild", "Neon", "Broken",
              "Summer", "Velvet", "Hollow", "Crystal", "Faded", "Burning", "Quiet"]
SONG_SECOND = ["Hearts", "Skyline", "Rain", "Highway", "Echoes", "Fever", "Lights", "Waves",
               "Roses", "Dreams", "Thunder", "Letters", "Horizon", "Shadows", "Fire"]
ARTISTS = ["The Night Owls", "Mara Lind", "Kofi & The Tides", "DJ Parallax", "Elena Ruiz",
           "Northbound", "Sam O'Connell", "Lumière", "Big Sky Choir", "Yuki Tanaka", "Crate Diggers"]
GENRES = [("14", "Pop"), ("18", "Hip-Hop/Rap"), ("6", "Country"), ("21", "Rock"),
          ("15", "R&B/Soul"), ("7", "Electronic")]
PRICES = [("1.29000", "$1.29"), ("0.99000", "$0.99"), ("1.99000", "$1.99")]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
IMAGE_HEIGHTS = [55, 60, 170]


def song(index, base):
    """Song `index` of the feeds, the same in XML and JSON, with absolute URLs on `base`."""
    song_id = 1_440_000_000 + index * 7919
    artist_index = index * 3 % len(ARTISTS)
    genre_id, genre = GENRES[index % len(GENRES)]
    month, day = index % 12, index % 28 + 1
    return {
        "id": song_id,
        "name": f"{SONG_FIRST[index % 15]} {SONG_SECOND[index * 7 % 15]}",
        "artist": ARTISTS[artist_index],
        "artist_url": f"{base}/artist/{artist_index + 1}",
        "genre_id": genre_id,
        "genre": genre,
        "price": PRICES[index % len(PRICES)],
        "month": month,
        "day": day,
        "date": f"2024-{month + 1:02d}-{day:02d}",
    }


def song_entry(index, base):
    """Entry `index` of the XML feed."""
    s = song(index, base)
    song_id, name, artist, date = s["id"], s["name"], s["artist"], s["date"] + "T00:00:00-07:00"
    genre_id, genre = s["genre_id"], s["genre"]
    amount, label = s["price"]
    images = "\n".join(
        f'  <im:image height="{height}">{base}/art/{song_id}-{height}.png</im:image>'
        for height in IMAGE_HEIGHTS)
    return f"""<entry>
  <updated>{date}</updated>
  <id im:id="{song_id}">{base}/song/{song_id}</id>
  <title>{escape(f"{name} - {artist}")}</title>
  <im:name>{escape(name)}</im:name>
  <link rel="alternate" type="text/html" href="{base}/song/{song_id}"/>
  <im:contentType term="Music" label="Music"><im:contentType term="Track" label="Track"/></im:contentType>
  <category im:id="{genre_id}" term={quoteattr(genre)} scheme="{base}/genre/{genre_id}" label={quoteattr(genre)}/>
  <link title="Preview" rel="enclosure" type="audio/x-m4a" href="{base}/preview/{song_id}.m4a" im:assetType="preview"><im:duration>30000</im:duration></link>
  <im:artist href="{s["artist_url"]}">{escape(artist)}</im:artist>
  <im:price amount="{amount}" currency="USD">{label}</im:price>
{images}
  <rights>℗ 2024 {escape(artist)}</rights>
  <im:releaseDate label="{MONTHS[s["month"]]} {s["day"]}, 2024">{date}</im:releaseDate>
  <im:collection><im:name>{escape(name)} - Single</im:name><link rel="alternate" type="text/html" href="{base}/album/{song_id + 1}"/><im:contentType term="Music" label="Music"><im:contentType term="Album" label="Album"/></im:contentType></im:collection>
</entry>"""


def feed_query(request):
    """The entry count a feed asks for, and the feed's base URL; None for a bad count."""
    query = parse_qs(urlsplit(request.path).query)
    count = query_int(query, "entries", 25)
    host = request.headers.get("Host") or "%s:%d" % request.server.server_address[:2]
    return query, (count if count is not None and 0 <= count <= 1000 else None), f"http://{host}"


def songs_feed(request, match):
    query, count, base = feed_query(request)
    if count is None:
        return Reply.text(400, "entries must be 0 to 1000")
    entries = "\n".join(song_entry(index, base) for index in range(count))
    feed = f"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
<id>{base}/feeds/topsongs.xml</id><title>fetcher test server: Top Songs</title>
<updated>2024-01-19T00:00:00-07:00</updated>
<link rel="alternate" type="text/html" href="{base}/"/><link rel="self" href="{base}/feeds/topsongs.xml"/>
<author><name>fetcher test server</name><uri>{base}/</uri></author>
{entries}
</feed>
"""
    body = feed.encode("utf-8")
    if query.get("malformed") == ["1"]:
        body = body[: body.index(b"<im:price", len(body) // 2)]
    return Reply(200, body, "application/atom+xml; charset=utf-8")


def songs_json_feed(request, match):
    """The same songs in the JSON of Apple's RSS generator (feed.results)."""
    query, count, base = feed_query(request)
    if count is None:
        return Reply.text(400, "entries must be 0 to 1000")
    results = []
    for index in range(count):
        s = song(index, base)
        results.append({
            "artistName": s["artist"], "id": str(s["id"]), "name": s["name"],
            "releaseDate": s["date"], "kind": "songs", "artistId": str(s["id"] % 1000),
            "artistUrl": s["artist_url"], "contentAdvisoryRating": "Clean",
            "artworkUrl100": f"{base}/art/{s['id']}-100.png",
            "genres": [{"genreId": str(s["genre_id"]), "name": s["genre"],
                        "url": f"{base}/genre/{s['genre_id']}"}],
            "url": f"{base}/song/{s['id']}",
        })
    feed = {"feed": {
        "title": "fetcher test server: Top Songs", "id": f"{base}/feeds/topsongs.json",
        "author": {"name": "fetcher test server", "url": f"{base}/"},
        "links": [{"self": f"{base}/feeds/topsongs.json"}], "copyright": "2024",
        "country": "us", "icon": f"{base}/favicon.ico", "updated": "Fri, 19 Jan 2024 00:00:00 -0700",
        "results": results,
    }}
    return Reply(200, json.dumps(feed, ensure_ascii=False).encode("utf-8"),
                 "application/json; charset=utf-8")


def png(size, rgb):
    """A `size` pixels square PNG of one colour."""
    rows = b"".join(b"\x00" + bytes(rgb) * size for _ in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))


def art_route(request, match):
    size = int(match.group("height"))
    if not 1 <= size <= 512:
        return Reply.text(404, "Unexpected image size")
    colour = hashlib.sha256(match.group("id").encode()).digest()[:3]
    return Reply(200, png(size, colour), "image/png")


ROUTES = [
    (re.compile(r"^/$"), root),
    (re.compile(r"^/(?P<path>[^/]+)/$"), response_code),
    (re.compile(r"^/faults/status/(?P<status>[2-5][0-9][0-9])$"), fault_status),
    (re.compile(r"^/faults/malformed-json$"), fault_malformed_json),
    (re.compile(r"^/logs/(?P<name>[^/]+)\.log$"), log_route),
    (re.compile(r"^/files/(?P<name>[^/]+)$"), file_route),
    (re.compile(r"^/sha256/(?P<name>[^/]+)$"), sha256_route),
    (re.compile(r"^/feeds/topsongs\.xml$"), songs_feed),
    (re.compile(r"^/feeds/topsongs\.json$"), songs_json_feed),
    (re.compile(r"^/art/(?P<id>[0-9]+)-(?P<height>[0-9]{1,3})\.png$"), art_route),
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
            length = reply.length if reply.stream else len(reply.body)
            self.send_header("Content-Length", str(length))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            if reply.stream:
                if not reply.stream(self.wfile):
                    self.close_connection = True
            else:
                self.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client went away; nothing to answer

    def log_message(self, format, *args):
        sys.stderr.write("%s - %s\n" % (self.address_string(), printable(format % args)))


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        log(f"Connection error from {client_address[0]}: {sys.exc_info()[1]!r}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Test server for fetcher.")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000, 0 picks a free one)")
    args = parser.parse_args(argv)
    Server.address_family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    try:
        server = Server((args.host, args.port), Handler)
    except OSError as error:
        print(f"server.py: cannot listen on {args.host}:{args.port}: {error.strerror}", file=sys.stderr)
        return 1
    host, port = server.server_address[:2]
    log(f"Serving on http://{f'[{host}]' if ':' in host else host}:{port}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
