#!/usr/bin/env python3
"""Reads a PNG screenshot (8-bit RGB or RGBA, as Chromium writes them) with the standard
library only, and prints what a person would see at a glance, as JSON: its size, how many
distinct colours it has, and how many pixels are heat-map red (the most taken transitions
of a replay report's diagram), dark (text), bar blue (the histograms) or the pale pink of
the rows of broken properties."""
import json
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks = 8, {}
    idat = b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            chunks["ihdr"] = (width, height, depth, colour)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = chunks["ihdr"]
    assert depth == 8 and colour in (2, 6), f"unsupported PNG (depth {depth}, colour type {colour})"
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(line)
        previous = line
    return width, height, channels, rows


def main():
    width, height, channels, rows = pixels(sys.argv[1])
    colours, heat, dark, blue, violated = set(), 0, 0, 0, 0
    for line in rows:
        for x in range(0, width * channels, channels):
            r, g, b = line[x], line[x + 1], line[x + 2]
            colours.add((r, g, b))
            if r > 150 and g < 90 and b < 100:
                heat += 1
            if r < 80 and g < 80 and b < 80:
                dark += 1
            if abs(r - 0x5b) < 20 and abs(g - 0x7f) < 20 and abs(b - 0xb9) < 20:
                blue += 1
            if abs(r - 0xfd) <= 2 and abs(g - 0xe7) <= 2 and abs(b - 0xe9) <= 2:
                violated += 1
    print(json.dumps({"width": width, "height": height, "colours": len(colours), "heat": heat, "dark": dark, "blue": blue, "violated": violated}))


if __name__ == "__main__":
    main()
