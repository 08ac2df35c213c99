"""The policy-pages benchmark's table (benchmarks/policy_check.py)."""
import importlib.util
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]


def _policy_check():
    spec = importlib.util.spec_from_file_location("policy_check",
                                                  ROOT / "benchmarks" / "policy_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_part_with_no_wrong_intent_shows_no_share_of_them_approved():
    check = _policy_check()
    frame = pd.DataFrame({"set": ["a", "a", "b"], "settled": ["exact", "wrong", "exact"],
                          "verdict": ["aligned", "not_aligned", "uncertain"]})
    table = check.measure(frame)
    text = check.markdown(table)
    assert "nan" not in text
    row_b = next(line for line in text.splitlines() if line.startswith("| b "))
    assert row_b.rstrip(" |").endswith("n/a")
    assert table.loc[table["set"] == "a", "aligned"].item() == 1.0
