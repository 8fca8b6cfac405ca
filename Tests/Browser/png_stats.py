#!/usr/bin/env python3
"""Prints the size of a PNG (8-bit RGB or RGBA, not interlaced, as Chromium writes them), its
number of distinct colours and the share of pixels unlike the top-left one, as JSON: how a
test tells a rendered page from a blank one. Standard library only.

Usage: python3 Tests/Browser/png_stats.py FILE.png
"""
import json
import struct
import sys
import zlib


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    position, idat = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                sys.exit("unsupported PNG")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    colours, unlike, background = set(), 0, None
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        for x in range(0, stride, channels):
            pixel = bytes(line[x:x + 3])
            if background is None:
                background = pixel
            colours.add(pixel)
            unlike += pixel != background
        previous = line
    print(json.dumps({"width": width, "height": height, "colours": len(colours),
                      "unlike": unlike / (width * height)}))


if __name__ == "__main__":
    main()
