#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
"""The main job's picture, as SVG with nothing but Python's standard library:
one-way latency and bandwidth against message size, for raw frames, DGRAM
and RDM (fi_dpdk_pingpong, two processes over memif) and for Debian's
fi_pingpong over dpdk, shm, tcp and udp;ofi_rxd, all from one run.

usage: plot.py OUT.svg [--pingpong FILE.json ...] [--stream FILE.json ...]
                       [--peers FILE.json]
  --pingpong: scripts/pingpong.sh -j of round trips (half of the median
              round trip is plotted as the one-way latency)
  --stream:   scripts/pingpong.sh -s -j of one-way streams (MB/s)
  --peers:    scripts/peers.sh -j (usec/xfer, and MB/s of the ping-pong)
"""

import argparse
import json
import math

W, H = 1100, 460
PANEL_W, PANEL_H = 440, 340
LEFT, TOP = 80, 60
GAP = 110
COLOURS = {
    "raw": "#444444", "dgram": "#1f77b4", "rdm": "#d62728", "write": "#ff7f0e",
    "read": "#9467bd", "dpdk": "#d62728", "shm": "#2ca02c", "tcp": "#8c564b",
    "udp;ofi_rxd": "#17becf", "dpdk-hugepages": "#e377c2",
}


def load(paths):
    rows = []
    for path in paths or []:
        with open(path) as f:
            rows.extend(json.load(f))
    return rows


def series(rows, key, xkey, ykey, scale=1.0):
    out = {}
    for r in rows:
        if r.get(ykey) is not None and r[ykey] > 0:
            out.setdefault(r[key], []).append((r[xkey], r[ykey] * scale))
    return {k: sorted(v) for k, v in out.items()}


def fmt_size(b):
    for unit, n in (("M", 1 << 20), ("K", 1 << 10)):
        if b >= n and b % n == 0:
            return "%d%s" % (b // n, unit)
    return str(int(b))


def decades(lo, hi):
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    if a == b:
        b += 1
    return a, b


def panel(out, x0, title, ylabel, lines):
    """lines: [(label, colour, dashed, [(x, y)])] on log-log axes."""
    pts = [p for _, _, _, ps in lines for p in ps]
    if not pts:
        return
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    xa, xb = math.log2(min(xs)), math.log2(max(xs))
    if xa == xb:
        xa, xb = xa - 1, xb + 1
    ya, yb = decades(min(ys), max(ys))

    def px(x):
        return x0 + (math.log2(x) - xa) / (xb - xa) * PANEL_W

    def py(y):
        return TOP + PANEL_H - (math.log10(y) - ya) / (yb - ya) * PANEL_H

    out.append('<text x="%d" y="%d" font-size="15" text-anchor="middle">%s</text>'
               % (x0 + PANEL_W / 2, TOP - 25, title))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#000"/>'
               % (x0, TOP, PANEL_W, PANEL_H))
    for d in range(ya, yb + 1):
        y = py(10 ** d)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'
                   % (x0, y, x0 + PANEL_W, y))
        out.append('<text x="%d" y="%.1f" font-size="11" text-anchor="end">%g</text>'
                   % (x0 - 6, y + 4, 10 ** d))
    for e in range(math.ceil(xa), math.floor(xb) + 1, 2):
        x = px(2 ** e)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>'
                   % (x, TOP, x, TOP + PANEL_H))
        out.append('<text x="%.1f" y="%d" font-size="11" text-anchor="middle">%s</text>'
                   % (x, TOP + PANEL_H + 16, fmt_size(2 ** e)))
    out.append('<text x="%d" y="%d" font-size="12" text-anchor="middle">message size '
               '(bytes)</text>' % (x0 + PANEL_W / 2, TOP + PANEL_H + 36))
    out.append('<text x="%d" y="%d" font-size="12" text-anchor="middle" '
               'transform="rotate(-90 %d %d)">%s</text>'
               % (x0 - 50, TOP + PANEL_H / 2, x0 - 50, TOP + PANEL_H / 2, ylabel))
    for i, (label, colour, dashed, ps) in enumerate(lines):
        path = " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in ps)
        dash = ' stroke-dasharray="6,4"' if dashed else ""
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>'
                   % (path, colour, dash))
        for x, y in ps:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' % (px(x), py(y), colour))
        ly = TOP + 14 + 16 * i
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                   % (x0 + 10, ly - 4, x0 + 34, ly - 4, colour, dash))
        out.append('<text x="%d" y="%d" font-size="11">%s</text>' % (x0 + 40, ly, label))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--pingpong", action="append")
    ap.add_argument("--stream", action="append")
    ap.add_argument("--peers")
    a = ap.parse_args()
    pp, st, peers = load(a.pingpong), load(a.stream), load([a.peers] if a.peers else [])

    lat, bw = [], []
    for mode, ps in series(pp, "mode", "size", "median_us", 0.5).items():
        lat.append(("%s (fi_dpdk_pingpong)" % mode, COLOURS.get(mode, "#000"), False, ps))
    for prov, ps in series(peers, "provider", "size", "usec_xfer").items():
        lat.append(("%s (fi_pingpong)" % prov, COLOURS.get(prov, "#000"), True, ps))
    for mode, ps in series(st, "mode", "size", "mbyte_s").items():
        bw.append(("%s stream (fi_dpdk_pingpong)" % mode, COLOURS.get(mode, "#000"), False, ps))
    for prov, ps in series(peers, "provider", "size", "mbyte_s").items():
        bw.append(("%s ping-pong (fi_pingpong)" % prov, COLOURS.get(prov, "#000"), True, ps))

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (W, H),
           '<rect width="100%" height="100%" fill="#fff"/>']
    panel(out, LEFT, "one-way latency, median (lower is better)", "microseconds", lat)
    panel(out, LEFT + PANEL_W + GAP, "bandwidth (higher is better)", "MB/s", bw)
    out.append('<text x="%d" y="%d" font-size="11" fill="#555">fi-dpdk over net_memif, '
               'the other providers on loopback; one run, medians of its rounds</text>'
               % (LEFT, H - 12))
    out.append("</svg>")
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
