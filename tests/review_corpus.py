"""A checked corpus where every rule fires once, from a table of scores (no model): the
input of the review tests."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from nile_align.corpus import load_pairs
from nile_align.pipeline import CheckResult, run_check

I1 = "for endpoint('guests') block service('file transfer')"
I2 = "for group('students') set quota('download', '100', 'gb/wk')"
N1 = "Guests may not transfer files"
N2 = "Guests cannot use file transfer at all"
N3 = "Guests may use file transfer"
P1 = "No file transfer for the guest network"
M1 = "Students get 100 GB of downloads a week"
M2 = "Each student may download 100 GB per week"
M3 = "Weekly download quota for students: 100 GB"
BAD = "for endpoint('hosts') set bandwidth('max', '4.5', 'mbps')"
H1 = "Hosts get at most 4.5 Mbps <script>alert('x')</script>"

ROWS = [(I1, N1, "", "sys_a"), (I1, N2, "", "sys_b"), (I1, N3, "", "sys_b"),
        ("", P1, "", "sys_c"), (I2, M1, "", "sys_a"), (I2, M2, "0", "sys_b"),
        (I2, M3, "", "sys_a"), (BAD, H1, "", "sys_c")]


def _both(x: str, y: str, value: float = 2.0) -> dict:
    return {(x, y): value, (y, x): value}


# The table's scores count at T = 0 (a score function has no calibration), beside the facts:
# M2's facts match and its score is high, so the judge says aligned against its gold 0;
# M3's facts match but its score is low: uncertain.
SCORES = {(I1, N1): 1.0, (I1, N2): 1.0, (I1, N3): -1.0, (I2, M1): 1.0, (I2, M2): 1.5,
          (I2, M3): -1.0,
          (N1, N2): 1.0, (N2, N1): -0.5,       # cond5: N1, N2 both aligned, one way fails
          **_both(N1, N3),                     # cond6: N3 means N1 but is not aligned
          **_both(N3, P1),                     # P1 inherits I1 once N3 is aligned
          **_both(N1, M1)}                     # conflict: N1 ~ M1 across two intents


class Table:
    """PLUIE(a, b) from SCORES; unlisted pairs score -1."""

    signature = "table-provider"

    def __call__(self, a: list[str], b: list[str]) -> list[float]:
        return [SCORES.get((x, y), -1.0) for x, y in zip(a, b)]


def corpus() -> pd.DataFrame:
    frame = pd.DataFrame(ROWS, columns=["nile", "text", "gold", "system"])
    return load_pairs(frame)


def checked(out: Path, decisions=None) -> CheckResult:
    """Check the corpus into ``out`` (optionally with review decisions)."""
    return run_check(corpus(), Table(), out=out, candidates=10, decisions=decisions)
