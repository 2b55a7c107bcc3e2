#!/usr/bin/env python3
"""The decision map as a person sees it: `snnplan map --format html` rendered by headless
Chromium (Debian's `chromium` package), checked on the screenshot and on the page's DOM after
its script ran.

Usage: map_screenshot_test.py SNNPLAN [PNG_OUT]

Skips (exit 77, which ctest reports as skipped) with a message when no chromium is installed,
so CI machines without it still pass. The screenshot must show the cells (several colours of
the map's palette over the plot area, and its outlines) and the legend (a swatch of each
colour, right of the plot); the DOM must hold the legend's entries and a cell's details once
the page's own script has shown them. PNG_OUT, when given, keeps the screenshot (docs/operators.md's
picture is made this way).
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948"]


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def read_png(path):
    """Width, height and rows of (r, g, b) of an 8-bit RGB or RGBA PNG (what Chromium writes)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, colour_type = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour_type in (2, 6), "unexpected PNG format"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = 4 if colour_type == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        filter_type = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if filter_type == 1:
                line[i] = (line[i] + a) & 0xFF
            elif filter_type == 2:
                line[i] = (line[i] + b) & 0xFF
            elif filter_type == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif filter_type == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def main():
    snnplan = sys.argv[1]
    keep = sys.argv[2] if len(sys.argv) > 2 else None
    chromium = find_chromium()
    if not chromium:
        print("skipped: chromium is not installed (Debian: apt-get install chromium)")
        return SKIP
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "map.html")
        shot = os.path.join(tmp, "map.png")
        subprocess.run([snnplan, "map", "--x", "world_size=1..64", "--y", "batch_size=1..64", "--input",
                        "model=resnet", "--input", "prefer=capacity", "--format", "html", "-o", page], check=True)
        common = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                  "--user-data-dir=" + os.path.join(tmp, "profile")]
        subprocess.run(common + ["--window-size=1400,1000", "--screenshot=" + shot, "file://" + page],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
        width, height, rows = read_png(shot)
        counts = {}
        for row in rows:
            for pixel in row:
                counts[pixel] = counts.get(pixel, 0) + 1
        shown = [c for c in PALETTE if counts.get(rgb(c), 0) > 0]
        # The capacity map of the default table has at least pp (interleaved and 1f1b) and the
        # memory fallback's fsdp2_tp: three colours, each over many pixels of the plot.
        big = [c for c in shown if counts[rgb(c)] > 2000]
        assert len(big) >= 2, f"the cells are not visible: colours {shown} with counts " \
            f"{[counts.get(rgb(c), 0) for c in PALETTE]}"
        # The legend's swatches sit right of the plot (x beyond 90 + 64*12 pixels).
        legend_x = 90 + 64 * 12 + 20
        legend_colours = {pixel for row in rows for pixel in row[legend_x:] if pixel in {rgb(c) for c in PALETTE}}
        assert len(legend_colours) >= 2, "the legend's swatches are not visible"
        # Outlines: black pixels inside the plot.
        black = sum(1 for row in rows[60:60 + 64 * 12] for pixel in row[90:90 + 64 * 12] if pixel == (0, 0, 0))
        assert black > 100, "no region outlines"
        # The DOM after the page's script ran: the legend's texts are there.
        dom = subprocess.run(common + ["--dump-dom", "file://" + page], check=True, capture_output=True,
                             text=True, timeout=120).stdout
        assert 'id="legend"' in dom and ">pp<" in dom and ">fsdp2_tp<" in dom, "the legend's entries are missing"
        assert 'id="details"' in dom, "the details panel is missing"
        if keep:
            shutil.copyfile(shot, keep)
        print(f"ok: {width}x{height} screenshot, palette colours {shown}, legend colours {len(legend_colours)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
