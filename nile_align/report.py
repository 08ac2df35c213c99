"""Write a checked graph out: alignments.jsonl, flags.jsonl, graph.json, graph.graphml,
summary.json and one self-contained report.html (no network, no external assets)."""

from __future__ import annotations

import html
import json
import os
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

from .graph.checker import RULES, Flag
from .graph.translation import _align_edges

__all__ = ["alignment_records", "write_outputs"]


def alignment_records(g: nx.Graph) -> Iterator[dict]:
    """One record per corpus row of an intent–sentence pair, plus one per inferred pair;
    ``pos`` is the row's position among the valid corpus rows (None when inferred).
    ``verdict`` is the composed judge's (with its ``reasons``); ``decision`` the final one,
    from ``source`` (None while the pair is uncertain)."""
    for i, s, e in sorted(_align_edges(g), key=lambda x: (x[0], x[1])):
        base = {"canonical": g.nodes[i]["canonical"], "text": g.nodes[s]["text"],
                "score": e["score"], "verdict": e["verdict"], "reasons": e["reasons"],
                "gold": e["gold"], "reviewed": e["reviewed"], "decision": e["decision"],
                "source": e["source"], "evidence": e.get("evidence")}
        for r in e["rows"] or [{"pos": None, "row": None, "id": None, "system": None,
                                "nile": g.nodes[i]["canonical"]}]:
            yield {"pos": r["pos"], "row": r["row"], "id": r["id"], "system": r["system"],
                   "nile": r["nile"], **base}


def _write_atomic(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _jsonl(records) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def write_outputs(g: nx.Graph, flags: list[Flag], summary: dict, out: str | Path,
                  *, graphml: bool = True) -> Path:
    """Write every output file into ``out`` (created) and return the report's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    # Corpus order first (``pos``), then the inferred pairs, which have no row.
    rows = sorted(alignment_records(g), key=lambda r: (r["pos"] is None, r["pos"] or 0,
                                                       r["canonical"], r["text"]))
    for r in rows:
        del r["pos"]
    _write_atomic(out / "alignments.jsonl", _jsonl(rows))
    _write_atomic(out / "flags.jsonl", _jsonl(f.to_dict() for f in flags))
    _write_atomic(out / "summary.json", json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    data = nx.node_link_data(g, edges="edges")
    data["graph"] = {k: v for k, v in data["graph"].items() if not k.startswith("_")}
    _write_atomic(out / "graph.json", json.dumps(data, ensure_ascii=False) + "\n")
    if graphml:
        flat = nx.Graph()
        flat.graph.update({k: v for k, v in g.graph.items() if isinstance(v, (str, int, float))})
        for n, d in g.nodes(data=True):
            flat.add_node(n, **{k: _scalar(v) for k, v in d.items()})
        for u, v, d in g.edges(data=True):
            flat.add_edge(u, v, **{k: _scalar(x) for k, x in d.items() if x is not None})
        nx.write_graphml(flat, out / "graph.graphml.tmp")
        os.replace(out / "graph.graphml.tmp", out / "graph.graphml")
    report = out / "report.html"
    _write_atomic(report, render_html(summary, flags, rows))
    return report


def _scalar(value):
    """GraphML holds scalars only: lists and dicts become JSON text."""
    return value if isinstance(value, (str, int, float, bool)) else json.dumps(value)


_STYLE = """body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:75em;padding:0 1em}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3em .5em;
text-align:left;vertical-align:top}th{background:#f4f4f4;position:sticky;top:0}
code{font-size:90%;background:#f6f6f6;padding:0 .2em}.yes{color:#176117}.no{color:#a11}
details{margin:.4em 0;border:1px solid #ddd;border-radius:4px;padding:.4em .8em}
summary{cursor:pointer}input{width:100%;padding:.4em;font-size:1em;margin:.5em 0}
.num{text-align:right;font-variant-numeric:tabular-nums}.open{color:#8a5a00}
.judge{background:#fff8e1;border-left:4px solid #e0a800;padding:.5em .8em}"""

_SCRIPT = """function filt(){const q=document.getElementById('q').value.toLowerCase();
for(const r of document.querySelectorAll('#align tbody tr'))
r.style.display=r.textContent.toLowerCase().includes(q)?'':'none';}"""


def _e(x) -> str:
    return html.escape("" if x is None else str(x))


def _score(x) -> str:
    return "" if x is None else f"{x:.3f}"


def _decision(x) -> str:
    return "" if x == "" else {True: "yes", False: "no", None: "open"}[x]


def _systems(systems: dict) -> list[str]:
    """The translating systems compared: a ranked table and a bar chart (inline SVG)."""
    from .graph.systems import ranked, svg_chart

    def share(x: dict) -> str:
        return f"{x['share']:.0%} <small>[{x['ci'][0]:.0%}, {x['ci'][1]:.0%}]</small>"

    out = ["<section id=systems><h2>Translating systems</h2><p>Each system's NL↔Nile rows as "
           "the judge sees them, "
           "best first (95% bootstrap intervals, seed 0); (5) and (6): the violations its "
           "sentences are part of.</p><table><tr><th>rank</th><th>system</th><th>pairs</th>"
           "<th>aligned</th><th>not aligned</th><th>uncertain</th><th>(5)</th><th>(6)</th>"
           "<th>gold agreement</th><th>contradicted facts</th></tr>"]
    for n, (name, s) in enumerate(ranked(systems), 1):
        gold = s["gold"]
        agreement = "" if not gold or gold["agreement"] is None else \
            f"{gold['agreement']:.0%} of {gold['decided']}"
        kinds = ", ".join(f"{k} {v}" for k, v in s["contradicted"].items() if v) or "none"
        out.append(f"<tr><td class=num>{n}</td><td>{_e(name)}</td><td class=num>{s['pairs']}"
                   f"</td><td>{share(s['aligned'])}</td><td>{share(s['not_aligned'])}</td>"
                   f"<td>{share(s['uncertain'])}</td><td class=num>{s['violations']['cond5']}"
                   f"</td><td class=num>{s['violations']['cond6']}</td><td>{_e(agreement)}</td>"
                   f"<td>{_e(kinds)}</td></tr>")
    out += ["</table>", f"<figure class=chart>{svg_chart(systems)}</figure></section>"]
    return out


def render_html(summary: dict, flags: list[Flag], rows: list[dict]) -> str:
    """The report page: summary, flags grouped by rule, a searchable alignment table."""
    tri = summary["triplets"]
    share = tri["satisfied_share"]
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>nile-align report"
             f"</title><style>{_STYLE}</style><script>{_SCRIPT}</script></head><body>",
             "<h1>nile-align check report</h1>",
             f"<p class=judge><b>Judge:</b> {_e(summary['judge']['note'])}.</p>",
             f"<p>Threshold T = {summary['threshold']:g}; propagation max hops "
             f"{summary['max_hops']}; signature <code>{_e(summary['signature'])}</code></p>",
             "<h2>Summary</h2><table>"]
    corpus = summary["corpus"]
    skipped = corpus.get("skipped_rows", [])
    facts = [("data rows read", corpus.get("rows", "")),
             ("rows skipped", f"{len(skipped)}" + (" (" + "; ".join(
                 f"row {r['row']}: {r['reason']}" for r in skipped[:20])
                 + ("; …" if len(skipped) > 20 else "") + ")" if skipped else "")),
             ("intents", summary["corpus"]["intents"]),
             ("sentences", summary["corpus"]["sentences"]),
             ("rows with invalid Nile", summary["corpus"]["invalid_rows"]),
             ("triplets (intent, two of its sentences) checked", tri["checked"]),
             ("… failing (5)", tri["fail_cond5"]), ("… failing (6)", tri["fail_cond6"]),
             ("… satisfying both", f"{tri['satisfied']}"
              + (f" ({share:.0%})" if share is not None else ""))]
    facts += [(f"rows judged {k.replace('_', ' ')}", v) for k, v in summary["verdicts"].items()]
    agree = summary["gold_agreement"]
    if agree["labelled_rows"]:
        facts += [("labelled rows whose verdict agrees with gold",
                   f"{agree['agree']} of {agree['decided']} decided"
                   + (f" ({agree['agreement']:.0%})" if agree["agreement"] is not None else "")),
                  ("labelled rows left uncertain", f"{agree['uncertain']} of "
                   f"{agree['labelled_rows']} ({agree['uncertain_share']:.0%})")]
    facts += [(f"alignments {k.replace('_', ': ')}", v) for k, v in summary["alignments"].items()]
    parts += [f"<tr><th>{_e(k)}</th><td class=num>{_e(v)}</td></tr>" for k, v in facts]
    parts.append("</table>")
    if summary.get("systems"):
        parts += _systems(summary["systems"])
    parts.append("<h2>Flags</h2>")
    for rule, meaning in RULES.items():
        mine = [f for f in flags if f.rule == rule]
        parts.append(f"<h3><code>{rule}</code> — {len(mine)}</h3><p>{_e(meaning)}.</p>")
        for f in mine:
            title = f.intents[0]["canonical"] or f.intents[0]["written"][0] if f.intents else ""
            parts.append(f"<details><summary><code>{_e(f.flag_id)}</code> {_e(title)}"
                         f" [{_e(f.status)}]</summary><p>{_e(f.explanation)}</p><ul>")
            parts += [f"<li>{_e(s['text'])} <small>({_e(', '.join(s['systems']))}; rows "
                      f"{_e(', '.join(map(str, s['rows'])))})</small></li>" for s in f.sentences]
            parts.append("</ul>")
            if f.differ:
                parts.append("<p>Where they differ:</p><ul>" + "".join(
                    f"<li>{_e(d['kind'])} {_e(d['fact'])}: said in “{_e(d['in'])}”, "
                    f"{_e(d['status'])} in the other; the intent {_e(d['intent'])} it</li>"
                    for d in f.differ) + "</ul>")
            if f.shared:
                parts.append(f"<p>Both state: {_e(', '.join(f.shared))}</p>")
            if f.scores:
                parts.append("<table><tr><th>kind</th><th>A</th><th>B</th><th>score</th>"
                             "<th>verdict</th><th>decision</th></tr>")
                parts += [f"<tr><td>{s['kind']}</td><td>{_e(s['a'])}</td><td>{_e(s['b'])}</td>"
                          f"<td class=num>{_score(s['score'])}</td>"
                          f"<td>{_e(s.get('verdict', ''))}</td>"
                          f"<td>{_e(s.get('source', ''))} "
                          f"{_e(_decision(s.get('decision', '')))}</td></tr>"
                          + ("<tr><td></td><td colspan=5><small>"
                             + "; ".join(_e(x) for x in s["reasons"]) + "</small></td></tr>"
                             if s.get("reasons") else "")
                          for s in f.scores]
                parts.append("</table>")
            parts.append("</details>")
    parts.append("<h2>Alignments</h2><input id=q oninput=filt() placeholder='filter rows…'>"
                 "<table id=align><thead><tr><th>row</th><th>system</th><th>Nile</th>"
                 "<th>sentence</th><th>score</th><th>verdict</th><th>decision</th><th>source</th>"
                 "</tr></thead><tbody>")
    parts += [f"<tr><td>{_e(r['row'])}</td><td>{_e(r['system'])}</td><td><code>{_e(r['nile'])}"
              f"</code></td><td>{_e(r['text'])}</td><td class=num>{_score(r['score'])}</td>"
              f"<td title='{_e('; '.join(r['reasons'] or []))}'>{_e(r['verdict'])}</td>"
              f"<td class={_decision(r['decision'])}>{_decision(r['decision'])}</td>"
              f"<td>{_e(r['source'])}</td></tr>" for r in rows]
    parts.append("</tbody></table></body></html>\n")
    return "\n".join(parts)
