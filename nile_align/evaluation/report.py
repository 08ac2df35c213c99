"""Evaluation output: markdown tables like the papers' Tables 1-3, JSON, and a
self-contained HTML report with the plots embedded."""

from __future__ import annotations

import base64
import html
import json
import os
from pathlib import Path
from typing import Any

from .evaluate import EvalResult

__all__ = ["markdown", "tables", "to_json", "write_evaluation"]


def _f(x, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and x != x):
        return "N/A"
    return f"{x:.{digits}f}"


def _share(x) -> str:
    """A share as a percentage; empty for rows without one (None, or NaN from pandas)."""
    return "" if x is None or x != x else f"{x:.0%}"


def tables(result: EvalResult) -> dict[str, Any]:
    """The papers' tables as DataFrames of formatted cells, keyed by title."""
    import pandas as pd

    out = {}
    rows = []
    for r in result.classification.to_dict("records"):
        rows.append({"method": r["method"], "threshold": r["threshold"], "thr": _f(r["thr"], 3),
                     **{k: f"{_f(r[k])} [{_f(r[k + '_ci'][0])}, {_f(r[k + '_ci'][1])}]"
                        for k in ("accuracy", "precision", "recall", "f1")},
                     "uncertain": _share(r.get("uncertain")),
                     "unparsed": r["unparsed"]})
    frame = pd.DataFrame(rows)
    if len(frame) and not frame["uncertain"].any():  # no verdict among the methods
        frame = frame.drop(columns="uncertain")
    out["Classification (as star-pluie Table 1)"] = frame
    if len(result.preference):
        out["Preference (as star-pluie Table 2)"] = pd.DataFrame([
            {"method": r["method"], "pairwise acc. (tie-calibrated)":
             _f(r["pairwise_accuracy"]), "ε": _f(r["epsilon"], 3),
             "Cramér's V": _f(r["cramers_v"]), "Cohen's κ": _f(r["kappa"]),
             "unparsed": r["unparsed"]}
            for r in result.preference.to_dict("records")])
    out["Cost (as star-pluie Table 3, on this machine)"] = pd.DataFrame([
        {"method": r["method"], "kind": r["kind"], "pairs": r["pairs"],
         "seconds": f"{r['seconds']:.1f}", "pairs/s": f"{r['pairs_per_s']:.1f}"}
        for r in result.cost.to_dict("records")])
    return out


NOTE = ("Brackets: 95% bootstrap intervals (pairs resampled, threshold fixed). Calibrated: "
        "the model's threshold from its calibration (nile-align calibrate). A verdict is "
        "aligned, uncertain (counted as not aligned; its share in 'uncertain') or not aligned. "
        "Unparsed: judge answers with no readable verdict, counted as negative (a tie in "
        "preferences).")


def markdown(result: EvalResult) -> str:
    """The classification, preference and cost tables as markdown, then every signature."""
    parts = []
    for title, frame in tables(result).items():
        parts += [f"### {title}", "", frame.to_markdown(index=False, disable_numparse=True), ""]
        if title.startswith("Classification"):
            parts += [NOTE, ""]
    parts += ["### Signatures", ""] + [f"- {m.name}: `{m.signature}`" for m in result.methods]
    return "\n".join(parts) + "\n"


def to_json(result: EvalResult) -> str:
    """The tables as one JSON object (lists of records)."""
    return json.dumps({"classification": result.classification.to_dict("records"),
                       "preference": result.preference.to_dict("records"),
                       "cost": result.cost.to_dict("records")}, ensure_ascii=False,
                      default=str) + "\n"


def write_evaluation(result: EvalResult, out: str | Path) -> Path:
    """Write tables (markdown, JSON), scores (CSV), the PNG plots and report.html into
    ``out``; returns the report's path."""
    from .plots import distribution_plot, threshold_plot

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "tables.md").write_text(markdown(result), encoding="utf-8")
    (out / "tables.json").write_text(to_json(result), encoding="utf-8")
    result.scores.to_csv(out / "scores.csv", index=False)
    scored = {m.name: m.scores for m in result.methods if m.preference is None}
    labels = result.scores["label"].to_numpy()
    natural = {m.name: m.natural_threshold for m in result.methods}
    pngs = []
    if scored:
        pngs = [threshold_plot(scored, labels, out / "thresholds.png", natural),
                distribution_plot(scored, labels, out / "distributions.png")]
    images = "".join(
        f"<h2>{html.escape(title)}</h2><img alt='{html.escape(title)}' style='max-width:100%' "
        f"src='data:image/png;base64,{base64.b64encode(p.read_bytes()).decode()}'>"
        for title, p in zip(("Metrics against the threshold", "Score distributions per label"),
                            pngs))
    body = "".join(f"<h2>{html.escape(title)}</h2>" + frame.to_html(index=False, border=0)
                   + (f"<p>{NOTE}</p>" if title.startswith("Classification") else "")
                   for title, frame in tables(result).items())
    body += "<h2>Signatures</h2><ul>" + "".join(
        f"<li>{html.escape(m.name)}: <code>{html.escape(m.signature)}</code></li>"
        for m in result.methods) + "</ul>"
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>nile-align evaluation"
            f"</title><style>body{{font:14px/1.45 system-ui,sans-serif;max-width:75em;"
            f"margin:2em auto;padding:0 1em}}table{{border-collapse:collapse}}td,th{{border-bottom:"
            f"1px solid #ddd;padding:.25em .6em;text-align:left}}code{{font-size:85%}}</style>"
            f"</head><body><h1>nile-align evaluation</h1>{body}{images}</body></html>\n")
    tmp = out / "report.html.tmp"
    tmp.write_text(page, encoding="utf-8")
    os.replace(tmp, out / "report.html")
    return out / "report.html"

