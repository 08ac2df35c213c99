"""A checked corpus where every rule fires once, from a table of scores (no model): the
input of the review tests. Loaded by ``tests/conftest.py`` only; tests take the
``review_corpus`` fixture."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from nile_align.corpus import load_pairs
from nile_align.pipeline.options import GraphRules
from nile_align.pipeline.run import CheckResult, run_check

I1 = "for endpoint('guests') block service('file transfer')"
I2 = "for group('students') set quota('download', '100', 'gb/wk')"
# I2 with a window of the whole day: another intent, the same policy in English.
I3 = "for group('students') set quota('download', '100', 'gb/wk') start hour('00:00') end hour('23:59')"
I4 = "for endpoint('labs') block service('youtube') start hour('18:00') end hour('23:59')"
I5 = "for endpoint('labs') set bandwidth('max', '50', 'mbps')"
N1 = "Guests may not transfer files"
N2 = "Guests cannot use it at all"
N3 = "Guests may use file transfer"
P1 = "File transfer is open to guests"
M1 = "Students get 100 GB of downloads a week"
M2 = "Students may download 100 GB a week at any time"
M3 = "Weekly download quota for students: 100 GB"
V1 = "The labs cannot use YouTube in the evening"
V2 = "In the evening, YouTube is off-limits in the labs"
L1 = "The labs are capped at 5 Mbps"
BAD = "for endpoint('hosts') set bandwidth('max', '4.5', 'mbps')"
H1 = "Hosts get at most 4.5 Mbps <script>alert('x')</script>"

ROWS = [(I1, N1, "", "sys_a"), (I1, N2, "", "sys_b"), (I1, N3, "", "sys_b"),
        ("", P1, "", "sys_c"), (I2, M1, "", "sys_a"), (I3, M2, "", "sys_b"),
        (I2, M3, "", "sys_a"), (I4, V1, "", "sys_a"), (I4, V2, "", "sys_b"),
        (I5, L1, "1", "sys_a"), (BAD, H1, "", "sys_c")]


def _both(x: str, y: str, value: float = 2.0) -> dict:
    return {(x, y): value, (y, x): value}


# The table's scores count at T = 0 (a score function has no calibration), beside the facts
# (which veto and, where they can tell, decide first):
# - cond5: N1 and N2 are aligned (N2 on the model's word: the facts cannot find file transfer
#   in it), but N2 does not name file transfer, which N1 does (and has no word the rules
#   could not read that might);
# - cond6: V1 and V2 leave the window vague ("in the evening"), so the score decides each
#   alignment: V1 aligned, V2 not; yet they state the same facts and the model agrees;
# - conflict: M1 (I2) and M2 (I3) say the same thing, but I2 and I3 differ by a window of
#   the whole day that the English leaves implicit;
# - gold_disagreement: L1 says 5 Mbps where the intent says 50, yet its label says aligned
#   (the flag suggests the repair);
# - uncertain: M3's facts match but its score is low (the conflict keeps (6) from deciding it);
# - P1 means N3, which is not aligned: nothing propagates until N3 is, so P1, which has no
#   intent, is a no_intent flag (its suggestion: I1 repaired to allow).
SCORES = {(I1, N1): 1.0, (I1, N2): 1.0, (I1, N3): -1.0, (I2, M1): 1.0, (I3, M2): 1.5,
          (I2, M3): -1.0, (I4, V1): 1.0, (I4, V2): -1.0, (I5, L1): 1.0,
          **_both(N1, N2), **_both(N3, P1), **_both(M1, M2), **_both(M1, M3),
          **_both(M2, M3), **_both(V1, V2)}


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
    return run_check(corpus(), Table(), out=out, rules=GraphRules(candidates=10),
                     decisions=decisions)


def many_flags(out: Path, n: int = 10_000) -> list[dict]:
    """``n`` flags in ``out``/flags.jsonl, made from the corpus' six (each rule): ids, texts,
    intents and systems varied, so that a queue of thousands can be filtered."""
    import json

    base = checked(out).flags
    flags = []
    for k in range(n):
        f = base[k % len(base)].to_dict()
        f["flag_id"] = f"{k:016x}"
        f["sentences"] = [{**s, "text": f"{s['text']} #{k}", "systems": [f"sys_{k % 7}"]}
                          for s in f["sentences"]]
        f["intents"] = [{**i, "canonical": i["canonical"] and i["canonical"].replace(
            "'guests'", f"'guests{k % 50}'")} for i in f["intents"]]
        flags.append(f)
    (out / "flags.jsonl").write_text("".join(json.dumps(f) + "\n" for f in flags))
    return flags
