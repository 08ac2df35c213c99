"""A verdict per translating system: star-pluie Appendix I's comparison of Llama and Mistral,
for any number of systems.

For each system of a corpus (its ``system`` column): how many NL↔Nile rows it translated,
the share judged aligned, not aligned and uncertain with seeded 95% bootstrap intervals,
its contradicted facts by kind, the (5) and (6) violations its sentences are part of, and
its agreement with the expert labels where there are any. Systems are ranked best first:
the largest aligned share, then the smallest not-aligned share.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from ..facts.structural import CATEGORIES, category
from ..judge.verdict import VERDICTS, decision

__all__ = ["compare", "ranked", "system_counts", "systems_of", "table"]


def compare(g: Any, flags: list, *, resamples: int = 1000, seed: int = 0) -> dict[str, dict]:
    """Per-system figures of a checked graph, keyed by system name (empty without systems)."""
    return systems_of(system_counts(g, flags), resamples=resamples, seed=seed)


def system_counts(g: Any, flags: list) -> dict[str, dict[str, Counter]]:
    """What :func:`systems_of` needs of a checked graph (or of a partition of it: the counts
    of several partitions add up), per system: its rows' ``verdicts``, ``contradicted``
    facts by kind, ``violations`` its sentences are part of, and ``gold`` agreement."""
    from .translation import align_edges

    out: dict[str, dict[str, Counter]] = {}

    def of(name: str) -> dict[str, Counter]:
        return out.setdefault(name, {"verdicts": Counter(), "contradicted": Counter(),
                                     "violations": Counter(), "gold": Counter()})

    for _, _, e in align_edges(g):
        for r in e["rows"]:
            if r["system"]:
                mine = of(r["system"])
                mine["verdicts"][e["verdict"]] += 1
                mine["contradicted"].update(category(f) for f in e["facts"]
                                            if f["status"] == "contradicted")
                if e["gold"] is not None:
                    said = decision(e["verdict"])
                    mine["gold"]["labelled"] += 1
                    mine["gold"]["decided"] += said is not None
                    mine["gold"]["agree"] += said is not None and said == e["gold"]
    for f in flags:
        if f.rule in ("cond5", "cond6"):
            for name in {x for s in f.sentences for x in s["systems"] if x in out}:
                out[name]["violations"][f.rule] += 1
    return out


def systems_of(counts: dict[str, dict[str, Counter]], *, resamples: int = 1000,
               seed: int = 0) -> dict[str, dict]:
    """Per-system figures from :func:`system_counts`, systems in name order."""
    rng = np.random.default_rng(seed)
    out = {}
    for name in sorted(counts):
        mine = counts[name]
        n = sum(mine["verdicts"].values())
        observed = np.array([mine["verdicts"][v] for v in VERDICTS]) / n
        # Resampling n rows with replacement draws the verdict counts from a multinomial
        # with the observed shares: the same bootstrap in O(resamples), whatever n.
        boot = rng.multinomial(n, observed, size=resamples) / n
        shares = {}
        for k, v in enumerate(VERDICTS):
            dist = boot[:, k]
            shares[v] = {"share": round(float(observed[k]), 4),
                         "ci": [round(float(np.percentile(dist, 2.5)), 4),
                                round(float(np.percentile(dist, 97.5)), 4)]}
        gold = mine["gold"]
        out[name] = {
            "pairs": n, **shares,
            "contradicted": {k: mine["contradicted"][k] for k in CATEGORIES},
            "violations": {"cond5": mine["violations"]["cond5"],
                           "cond6": mine["violations"]["cond6"]},
            "gold": {"labelled": gold["labelled"], "decided": gold["decided"],
                     "agree": gold["agree"],
                     "agreement": round(gold["agree"] / gold["decided"], 4)
                     if gold["decided"] else None} if gold["labelled"] else None,
        }
    return out


def ranked(systems: dict[str, dict]) -> list[tuple[str, dict]]:
    """Systems best first: the largest aligned share, then the smallest not-aligned share."""
    return sorted(systems.items(), key=lambda kv: (-kv[1]["aligned"]["share"],
                                                   kv[1]["not_aligned"]["share"], kv[0]))


def _pct(x: dict) -> str:
    return f"{x['share']:.0%} [{x['ci'][0]:.0%}, {x['ci'][1]:.0%}]"


def table(systems: dict[str, dict]) -> str:
    """The ranked comparison as an aligned plain-text table, one system a line."""
    head = ["rank", "system", "pairs", "aligned", "not aligned", "uncertain", "(5)", "(6)",
            "gold agreement", "contradicted"]
    lines = [head]
    for n, (name, s) in enumerate(ranked(systems), 1):
        gold = s["gold"]
        agreement = "" if not gold or gold["agreement"] is None else \
            f"{gold['agreement']:.0%} of {gold['decided']}"
        kinds = ", ".join(f"{k} {v}" for k, v in s["contradicted"].items() if v) or "none"
        lines.append([str(n), name, str(s["pairs"]), _pct(s["aligned"]), _pct(s["not_aligned"]),
                      _pct(s["uncertain"]), str(s["violations"]["cond5"]),
                      str(s["violations"]["cond6"]), agreement, kinds])
    widths = [max(len(row[k]) for row in lines) for k in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
                     for row in lines) + "\n"


def svg_chart(systems: dict[str, dict]) -> str:
    """A bar chart of each system's verdict shares with their 95% intervals, as inline SVG
    (the report page stays one self-contained file)."""
    colours = {"aligned": "#2e7d32", "not_aligned": "#c62828", "uncertain": "#e0a800"}
    order = ranked(systems)
    bar, gap, left, top, width = 14, 10, 150, 28, 420
    height = top + len(order) * (3 * bar + gap) + 30
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{left + width + 90}' "
             f"height='{height}' role='img' aria-label='verdict shares per system'>",
             "<style>text{font:12px system-ui,sans-serif}</style>"]
    for k, v in enumerate(VERDICTS):
        parts.append(f"<rect x='{left + k * 130}' y='6' width='10' height='10' "
                     f"fill='{colours[v]}'/><text x='{left + k * 130 + 14}' y='15'>"
                     f"{v.replace('_', ' ')}</text>")
    y = top
    for name, s in order:
        parts.append(f"<text x='{left - 8}' y='{y + 1.5 * bar + 4}' text-anchor='end'>"
                     f"{_escape(name)} ({s['pairs']})</text>")
        for v in VERDICTS:
            share, (low, high) = s[v]["share"], s[v]["ci"]
            parts += [f"<rect x='{left}' y='{y}' width='{share * width:.1f}' height='{bar - 2}' "
                      f"fill='{colours[v]}'><title>{v.replace('_', ' ')} {share:.1%} "
                      f"[{low:.1%}, {high:.1%}]</title></rect>",
                      f"<line x1='{left + low * width:.1f}' x2='{left + high * width:.1f}' "
                      f"y1='{y + bar / 2 - 1}' y2='{y + bar / 2 - 1}' stroke='#222'/>",
                      f"<text x='{left + max(share, high) * width + 6:.1f}' y='{y + bar - 3}'>"
                      f"{share:.0%}</text>"]
            y += bar
        y += gap
    for tick in (0, 0.25, 0.5, 0.75, 1):
        x = left + tick * width
        parts.append(f"<line x1='{x}' x2='{x}' y1='{top - 4}' y2='{y}' stroke='#ddd'/>"
                     f"<text x='{x}' y='{y + 14}' text-anchor='middle'>{tick:.0%}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _escape(text: str) -> str:
    import html

    return html.escape(text)
