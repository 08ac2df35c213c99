"""Write a checked graph out: alignments.jsonl, flags.jsonl, summary.json, one
self-contained report.html (no network, no external assets) and, up to a size, graph.json
and graph.graphml.

Every file is written to a temporary name and renamed when complete, so an interrupted run
(a crash, Ctrl-C) never leaves half a file: each output is either the new one or absent (or
the previous run's). The JSON Lines files are streamed, one record at a time, and the report
stays small at any corpus size: it shows the summary, the systems and up to
:data:`REPORT_FLAGS` flags per rule in full, and the first :data:`REPORT_ROWS` alignments,
with a line pointing to the JSON Lines for the rest.
"""

from __future__ import annotations

import html
import io
import itertools
import json
import logging
import shutil
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import networkx as nx

from ..graph.checker import RULES, Flag
from ..graph.translation import align_edges
from ..guard import atomic_file, printable, write_whole

__all__ = ["ALIGNED_FORMATS", "GRAPH_FILES_EDGES", "REPORT_FLAGS", "REPORT_ROWS",
           "aligned_lines", "aligned_records", "alignment_records", "atomic_file",
           "write_aligned", "write_outputs", "write_streams", "write_summary"]

log = logging.getLogger("nile_align")

#: graph.json and graph.graphml are written up to this many edges (``graph_files="auto"``):
#: beyond, node-link JSON and GraphML repeat every attribute of every edge (hundreds of MB
#: at NEAT size) and no tool opens them comfortably; alignments.jsonl and flags.jsonl hold
#: every pair and flag.
GRAPH_FILES_EDGES = 200_000
#: Flags the report shows per rule, and alignment rows (the JSON Lines files hold them all).
REPORT_FLAGS = 200
REPORT_ROWS = 1000


def alignment_records(g: nx.Graph, *, keys: bool = False) -> Iterator[Any]:
    """One record per corpus row of an intent–sentence pair, plus one per inferred pair, in
    corpus order (the inferred pairs, which have no row, last). ``verdict`` is the composed
    judge's (with its ``reasons``); ``decision`` the final one, from ``source`` (None while
    the pair is uncertain). Generated one at a time; with ``keys``, as (record, the key
    that orders it in the whole corpus)."""
    order = []
    for i, s, e in align_edges(g):
        for k, r in enumerate(e["rows"] or [None]):
            pos = None if r is None else r["pos"]
            order.append((pos is None, pos or 0, g.nodes[i]["canonical"], g.nodes[s]["text"],
                          i, s, k))
    order.sort()
    for key in order:
        *_, i, s, k = key
        e = g.edges[i, s]
        r = e["rows"][k] if e["rows"] else {"row": None, "id": None, "system": None,
                                            "nile": g.nodes[i]["canonical"]}
        record = {"row": r["row"], "id": r["id"], "system": r["system"], "nile": r["nile"],
                  "canonical": g.nodes[i]["canonical"], "text": g.nodes[s]["text"],
                  "score": e["score"], "verdict": e["verdict"], "reasons": e["reasons"],
                  "gold": e["gold"], "reviewed": e["reviewed"], "decision": e["decision"],
                  "source": e["source"], "evidence": e.get("evidence")}
        yield (record, key) if keys else record


#: Formats of the aligned corpus: its file name and columns.
ALIGNED_FORMATS = {"csv": ("aligned.csv", ("nile", "text", "source", "system", "rows")),
                   "neat": ("aligned.tsv", ("text", "nile"))}


def aligned_records(g: nx.Graph, *, keys: bool = False) -> Iterator[Any]:
    """The aligned corpus, the deliverable of a check: one record per sentence–intent pair
    decided aligned, in corpus order (pairs without a corpus row last), with the Nile as the
    corpus writes it (the intent's canonical form for an inferred or reviewed intent the
    corpus never wrote), the sentence, where the alignment comes from (``source``: gold,
    judged, inferred, reviewed), its systems and its input rows. With ``keys``, as
    (record, the key that orders it in the whole corpus)."""
    order = []
    for i, s, e in align_edges(g):
        if e["decision"]:
            first = min((r["pos"] for r in e["rows"]), default=None)
            order.append((first is None, first or 0, g.nodes[s]["text"], i, s))
    order.sort()
    for key in order:
        *_, i, s = key
        e = g.edges[i, s]
        written = next((r["nile"] for r in e["rows"] if r["nile"]), None) or \
            (g.nodes[i]["written"] or [g.nodes[i]["canonical"]])[0]
        record = {"nile": written, "text": g.nodes[s]["text"], "source": e["source"],
                  "system": ";".join(dict.fromkeys(r["system"] for r in e["rows"]
                                                   if r["system"])),
                  "rows": ";".join(str(r["row"]) for r in e["rows"])}
        yield (record, key) if keys else record


def aligned_lines(records: Iterable[dict], fmt: str = "csv") -> Iterator[str]:
    """Records of the aligned corpus as lines of its file (:data:`ALIGNED_FORMATS`)."""
    import csv

    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t" if fmt == "neat" else ",", lineterminator="\n")
    columns = ALIGNED_FORMATS[fmt][1]
    for record in records:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([record[c] for c in columns])
        yield buffer.getvalue()


def write_aligned(g: nx.Graph, out: Path, fmt: str = "csv") -> tuple[Path, int]:
    """Write the aligned corpus (:func:`aligned_records`) into ``out`` as ``fmt`` (see
    :data:`ALIGNED_FORMATS`: ``csv``, or ``neat``'s two-column TSV), streamed; returns the
    file and its number of pairs."""
    return _write_aligned(out, aligned_lines(aligned_records(g), fmt), fmt)


def aligned_header(fmt: str = "csv") -> str:
    """The first line of the aligned corpus' file (:data:`ALIGNED_FORMATS`): its columns."""
    columns = ALIGNED_FORMATS[fmt][1]
    return next(aligned_lines([dict(zip(columns, columns))], fmt))


def _write_aligned(out: Path, lines: Iterable[str], fmt: str) -> tuple[Path, int]:
    name = ALIGNED_FORMATS[fmt][0]
    n = 0
    with atomic_file(out / name) as f:
        f.write(aligned_header(fmt))
        for line in lines:
            f.write(line)
            n += 1
    return out / name, n


def write_outputs(g: nx.Graph, flags: list[Flag], summary: dict, out: str | Path,
                  *, graphml: bool = True, graph_files: str = "auto",
                  aligned_format: str = "csv", progress: bool | None = False) -> Path:
    """Write every output file into ``out`` (created) and return the report's path.
    ``graph_files``: ``auto`` writes graph.json and graph.graphml up to
    :data:`GRAPH_FILES_EDGES` edges, ``always`` at any size, ``never`` not at all;
    ``graphml`` False leaves out graph.graphml. ``aligned_format``: the aligned corpus as
    ``csv`` (aligned.csv) or ``neat`` (aligned.tsv). ``progress``: a bar on stderr (None:
    only on a terminal)."""
    return write_streams(
        out, summary,
        alignments=(json.dumps(r, ensure_ascii=False) + "\n" for r in alignment_records(g)),
        alignment_rows=sum(max(1, len(e["rows"])) for _, _, e in align_edges(g)),
        flags=(json.dumps(f.to_dict(), ensure_ascii=False) + "\n" for f in flags),
        aligned=aligned_lines(aligned_records(g), aligned_format),
        edges=g.number_of_edges(), graph=lambda: g, graphml=graphml, graph_files=graph_files,
        aligned_format=aligned_format, progress=progress)


def write_streams(out: str | Path, summary: dict, *, alignments: Iterable[str],
                  alignment_rows: int, flags: Iterable[str], aligned: Iterable[str],
                  edges: int, graph: Callable[[], nx.Graph | None], graphml: bool = True,
                  graph_files: str = "auto", aligned_format: str = "csv",
                  progress: bool | None = False) -> Path:
    """Write every output file from its lines, in order (:func:`write_outputs` for one
    graph; the partitions of a check merge theirs), and return the report's path. The
    report keeps the first :data:`REPORT_ROWS` alignments and :data:`REPORT_FLAGS` flags of
    each rule; ``graph``: the whole graph, called only when the graph files are written."""
    from tqdm.auto import tqdm

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    with atomic_file(out / "alignments.jsonl") as f, \
            tqdm(total=alignment_rows, desc="write", unit="row", leave=False,
                 disable=progress if progress is None else not progress) as bar:
        for line in alignments:
            f.write(line)
            if len(rows) < REPORT_ROWS:
                rows.append(json.loads(line))
            bar.update()
    shown = _Shown()
    with atomic_file(out / "flags.jsonl") as f:
        for line in flags:
            f.write(line)
            shown.see(line)
    written, pairs = _write_aligned(out, aligned, aligned_format)
    for other, _ in ALIGNED_FORMATS.values():
        if other != written.name and (out / other).exists():
            (out / other).unlink()  # a previous run's corpus in the other format
    for kind in ("alignments", "flags", "aligned"):
        if (out / kind).is_dir():
            shutil.rmtree(out / kind)  # a previous run's parts
    summary["outputs"] = {"alignment_rows": alignment_rows, "aligned": written.name,
                          "aligned_pairs": pairs}
    _graph_files(out, summary, edges, graph, graphml, graph_files)
    report = out / "report.html"
    write_whole(report, render_html(summary, shown.flags, rows))
    return report


class _Shown:
    """The flags the report shows: the first :data:`REPORT_FLAGS` of each rule, of the
    lines of flags.jsonl seen in order (only those are parsed)."""

    def __init__(self) -> None:
        self.flags: list[Flag] = []
        self._per_rule: dict[str, int] = {}

    def see(self, line: str) -> None:
        rule = line[line.index('"rule": "') + 9:].split('"', 1)[0]
        self._per_rule[rule] = self._per_rule.get(rule, 0) + 1
        if self._per_rule[rule] <= REPORT_FLAGS:
            self.flags.append(Flag(**json.loads(line)))


def writes_graph(edges: int, graph_files: str) -> bool:
    """Whether a check of ``edges`` edges writes graph.json and graph.graphml:
    ``graph_files`` ``always``, or ``auto`` up to :data:`GRAPH_FILES_EDGES` edges."""
    return graph_files == "always" or (graph_files == "auto" and edges <= GRAPH_FILES_EDGES)


def write_summary(out: Path, summary: dict) -> None:
    """summary.json, whole or not at all."""
    write_whole(out / "summary.json", json.dumps(summary, indent=2, ensure_ascii=False) + "\n")


def _graph_files(out: Path, summary: dict, edges: int, graph: Callable[[], nx.Graph | None],
                 graphml: bool, graph_files: str) -> None:
    """summary.json, then graph.json and graph.graphml where ``graph_files`` says (a
    previous run's removed where they are not written)."""
    write_graph = writes_graph(edges, graph_files)
    skipped = f"skipped: {edges:,} edges, more than {GRAPH_FILES_EDGES:,} (--graph-files " \
        f"always writes them)" if graph_files == "auto" else "skipped (--graph-files never)"
    summary["outputs"]["graph_files"] = "written" if write_graph else skipped
    write_summary(out, summary)
    whole = graph() if write_graph else None
    for name in ("graph.json", "graph.graphml"):
        if whole is None and (out / name).exists():
            (out / name).unlink()  # a previous run's graph would not match these outputs
    if whole is not None:
        data = nx.node_link_data(whole, edges="edges")
        with atomic_file(out / "graph.json") as f:
            json.dump(data, f, ensure_ascii=False)
            f.write("\n")
        if graphml:
            flat = nx.Graph()
            flat.graph.update({k: v for k, v in whole.graph.items()
                               if isinstance(v, (str, int, float))})
            for n, d in whole.nodes(data=True):
                flat.add_node(_scalar(n), **{k: _scalar(v) for k, v in d.items()})
            for u, v, d in whole.edges(data=True):
                flat.add_edge(_scalar(u), _scalar(v),
                              **{k: _scalar(x) for k, x in d.items() if x is not None})
            with atomic_file(out / "graph.graphml", "wb") as f:
                nx.write_graphml(flat, f)
    elif graph_files == "auto":
        log.info("graph files %s; alignments.jsonl and flags.jsonl hold every pair and flag",
                 skipped)


def part_files(out: str | Path, kind: str) -> list[Path]:
    """The files of a JSON Lines output of ``kind`` (alignments, flags): the single file,
    or the parts of its folder in partition order (a check written as parts)."""
    out = Path(out)
    single = out / f"{kind}.jsonl"
    return [single] if single.is_file() else sorted((out / kind).glob("part-*.jsonl"))


def write_parts(out: str | Path, summary: dict, *, parts: int, alignment_rows: int,
                aligned_pairs: int, edges: int, graph: Callable[[], nx.Graph | None],
                graph_files: str = "auto", aligned_format: str = "csv") -> Path:
    """What ties the parts of a check together, once its partitions have written their own
    (a folder per kind, a file per partition): summary.json, the graph files and the report,
    whose first rows and flags are read from the parts; returns the report's path. A
    previous run's single files are removed."""
    out = Path(out)
    for name in ("alignments.jsonl", "flags.jsonl", *(n for n, _ in ALIGNED_FORMATS.values())):
        if (out / name).exists():
            (out / name).unlink()
    rows = [json.loads(line) for line in
            itertools.islice(_lines_of(part_files(out, "alignments")), REPORT_ROWS)]
    shown = _Shown()
    for line in _lines_of(part_files(out, "flags")):
        shown.see(line)
    summary["outputs"] = {"layout": "parts", "parts": parts, "alignment_rows": alignment_rows,
                          "aligned": "aligned/", "aligned_pairs": aligned_pairs}
    _graph_files(out, summary, edges, graph, True, graph_files)
    report = out / "report.html"
    write_whole(report, render_html(summary, shown.flags, rows))
    return report


def _lines_of(paths: Iterable[Path]) -> Iterator[str]:
    """The lines of files, one file after the other, read as they are asked for."""
    for path in paths:
        with path.open(encoding="utf-8") as f:
            yield from f


def _scalar(value):
    """GraphML holds scalars only: lists and dicts become JSON text; XML 1.0 forbids most
    control characters, so a text's are written as escapes (``\\x1b``)."""
    if isinstance(value, str):
        return printable(value)
    return value if isinstance(value, (int, float, bool)) else printable(json.dumps(value))


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
    from ..graph.systems import ranked, svg_chart

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
        count = summary.get("flags", {}).get(rule, len(mine))
        parts.append(f"<h3><code>{rule}</code> — {count}</h3><p>{_e(meaning)}.</p>")
        if count > REPORT_FLAGS:
            parts.append(f"<p class=more>The first {REPORT_FLAGS} of {count:,}, in queue "
                         f"order; every flag is in <code>flags.jsonl</code> (and in the review "
                         f"queue: <code>nile-align review</code>).</p>")
        for f in mine[:REPORT_FLAGS]:
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
    shown = summary.get("outputs", {}).get("alignment_rows", len(rows))
    parts.append("<h2>Alignments</h2>")
    if shown > len(rows):
        parts.append(f"<p class=more>The first {len(rows):,} of {shown:,} rows, in corpus order; "
                     f"every row is in <code>alignments.jsonl</code>.</p>")
    parts.append("<input id=q oninput=filt() placeholder='filter rows…'>"
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
