# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The fi-dpdk authors
#
# The VM's regime of a run, from the raw floor measured right before it
# (test/harness.sh wire_floor: app/pingpong's 64-byte raw frames over the same
# memif wire), for scripts/peers.sh and scripts/mpi_peers.sh. memif here has
# a fast and a slow regime (a floor of 0.40-0.55 us against 1.3-1.7), and a
# ratio between two providers means little across them. Regime 1 holds the
# runs whose floor was within SPREAD of the fastest floor of the whole run,
# regime 2 the others: relative, since the floors differ from host to host
# (the lent Xeon saw 1.49-1.62 us and one regime only).

import json
import statistics

SPREAD = 1.4


def median_us(path):
    """The floor's median round trip in us, or None (not measured, failed)."""
    try:
        with open(path) as f:
            text = f.read()
        rows = json.loads(text[text.index("["):text.rindex("]") + 1])
    except (OSError, ValueError):
        return None
    return rows[0]["median_us"] if rows else None


def ratio_range(q):
    """Ratios as the tables print them: "median x (min-max)", or "-" for none."""
    q = list(q)
    if not q:
        return "-"
    return "%.2fx (%.2f-%.2f)" % (statistics.median(q), min(q), max(q))


class Regimes:
    def __init__(self, floors):
        self.floors = floors
        got = [f for f in floors if f is not None]
        self.measured = len(got)
        self.fastest = min(got) if got else None

    def of(self, floor_us):
        return 1 if floor_us <= SPREAD * self.fastest else 2

    def legend(self, what):
        return ("By regime: the raw floor over the same memif wire right before %s "
                "(app/pingpong, 64 B raw frames, median round trip); regime 1: the pairs "
                "whose floor was within %.1fx of the fastest (%.2f us), regime 2: the "
                "others; %d of %d floors measured"
                % (what, SPREAD, self.fastest, self.measured, len(self.floors)))

    def group(self, items):
        """(regime, [items]) for items (floor_us, ...), those without a floor left out."""
        groups = {}
        for it in items:
            if it[0] is not None:
                groups.setdefault(self.of(it[0]), []).append(it)
        return sorted(groups.items())

    @staticmethod
    def summary(items):
        """Medians of (floor_us, peer, dpdk) triples: floor, peer, dpdk, ratios."""
        ratios = [a / b for _, a, b in items]
        return (statistics.median(f for f, _, _ in items),
                statistics.median(a for _, a, _ in items),
                statistics.median(b for _, _, b in items), ratios)
