"""The review queue in a terminal (``nile-align review DIR --tty``): the same store, the same
keys as the web page (a accept, r reject, e edit, f accept a suggested repair, s skip, n next,
u undo, q quit).

Rendering uses ``rich`` (tables, colour, wrapping that adapts to the terminal; plain text
when the output is not a terminal); answers are read line by line, so the mode also works
over a plain SSH session, inside tmux, or from a script feeding stdin.
"""

from __future__ import annotations

from typing import Any

from ..errors import UsageError
from ..graph.checker import RULES
from ..guard import printable
from .store import NileEditError, ReviewStore, nile_spans, suggestion_diff, suggestion_edit

__all__ = ["review_tty"]

_KEYS = {"a": "accept", "r": "reject", "e": "edit", "f": "edit", "s": "skip"}
_STYLE = {"str": "green", "fn": "blue", "kw": "bold magenta"}


def _nile(text: str):
    from rich.text import Text

    out = Text(text)
    for kind, start, end in nile_spans(text):
        out.stylize(_STYLE[kind], start, end)
    return out


def _printable(value: Any) -> Any:
    """A flag with every text's control characters escaped: corpus text is shown, never
    sent to the terminal as it is (an ESC would start a sequence)."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {k: _printable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_printable(v) for v in value]
    return value


def _show(console: Any, f: dict, counts: dict) -> None:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    f = _printable(f)
    state = f["decision"]["status"] if f["decision"] else "open"
    console.rule(f"[bold]{f['rule']}[/] {f['flag_id']} · {state} · "
                 f"{counts['open']} open, {counts['decided']} decided")
    console.print(Text(RULES.get(f["rule"], ""), style="italic"))
    console.print(Text(f["explanation"]))
    for i in f["intents"]:
        body = _nile(i["canonical"]) if i.get("canonical") else Text(" / ".join(i["written"]))
        console.print(Panel(body, title="intent", expand=False))
        for w in i.get("written", []):
            if w != i.get("canonical"):
                console.print(Text(f"  as written: {w}", style="dim"))
    for k, s in enumerate(f["sentences"], 1):
        line = Text(f"{k}. ")
        line.append(Text(s["text"]))
        line.append(Text(f"  [{', '.join(s['systems'])}]", style="dim"))
        console.print(line)
    if f["scores"]:
        table = Table("kind", "A (reference)", "B", "score", "verdict", box=None)
        for s in f["scores"]:
            score = "—" if s["score"] is None else f"{s['score']:.3f}"
            verdict = s.get("verdict") or ("" if s["score"] is None else (
                "yes" if s["score"] > f["threshold"] else "no"))
            table.add_row(s["kind"], Text(s["a"]), Text(s["b"]), score, verdict)
        console.print(table)
    if f["rule"] == "no_intent":
        draft = f.get("draft") or {}
        if f.get("suggested_nile"):
            source = "the sentence" if draft.get("route") == "reading" else \
                "the nearest corpus intent"
            console.print(Panel(_nile(f["suggested_nile"]), expand=False,
                                title=f"suggested intent (f), from {source}"))
        for line in draft.get("reasons", []):
            console.print(Text(f"  {line}", style="yellow" if not f.get("suggested_nile")
                               else "dim"))
    elif f.get("suggested_nile"):
        console.print(Panel(_nile(f["suggested_nile"]), expand=False,
                            title=f"suggested repair (f): what “{f['suggested_for']}” implies"))
        for d in suggestion_diff(f):
            console.print(Text(f"  {d}", style="green"))
    for s in f["scores"]:
        for reason in s.get("reasons") or []:
            style = "bold red" if reason.startswith("contradicted") else (
                "yellow" if reason.startswith("missing") else "dim")
            console.print(Text(f"  {reason}", style=style), Text(f"in “{s['b']}”", style="dim"))


def review_tty(store: ReviewStore, *, reviewer: str, console: Any = None,
               lexicon: Any = None) -> int:
    """Work through the open flags of ``store`` interactively; returns the decisions made.
    An accepted pair whose doubt was a name the reading did not know proposes a vocabulary
    entry (read with ``lexicon``, the check's), which the reviewer confirms or not. The end
    of the input (a pipe run dry, Ctrl-D) stops it as q does: every decision made is
    already stored."""
    from rich.console import Console

    from ..english.lexicon import shipped

    console = console or Console(highlight=False)
    made = [0]
    try:
        _review_tty(store, reviewer, console, made, lexicon or shipped())
    except EOFError:
        console.print("\nend of input: stopped")
    return made[0]


def _review_tty(store: ReviewStore, reviewer: str, console: Any, made: list[int],
                lexicon: Any) -> None:
    from rich.markup import escape
    from rich.prompt import Prompt

    current = store.next_open()
    while True:
        if current is None:
            console.print("[bold green]no open flags left[/]")
            return
        f = store.flag(current)
        _show(console, f, store.counts())
        fix = bool(f.get("suggested_nile"))
        # Escaped: rich would read "[a]" as markup and print "ccept".
        key = Prompt.ask(escape("[a]ccept [r]eject [e]dit " + ("[f]ix as suggested " if fix
                                                               else "")
                                + "[s]kip [n]ext [u]ndo [q]uit"),
                         choices=["a", "r", "e", *(["f"] if fix else []), "s", "n", "u", "q"],
                         console=console)
        if key == "q":
            return
        if key == "n":
            current = store.next_open(after=current) or current
            continue
        if key == "u":
            undone = store.undo(reviewer=reviewer)
            console.print(f"undone: {undone['status']} of {undone['flag_id']}" if undone
                          else "nothing to undo")
            current = undone["flag_id"] if undone else current
            continue
        answer: dict[str, Any] = suggestion_edit(f) if key == "f" else {}
        texts = [s["text"] for s in f["sentences"]]
        if key == "r" and f["rule"] == "cond5":
            k = Prompt.ask("which translation is wrong", choices=[str(n) for n in
                                                                   range(1, len(texts) + 1)],
                           console=console)
            answer["target"] = texts[int(k) - 1]
        if key == "e" and f["rule"] == "no_intent":  # the sentence's first intent
            answer.update(field="nile", old="", new=Prompt.ask("its Nile intent",
                                                               console=console))
        elif key == "e":
            options = [("nile", w) for i in f["intents"]
                       for w in ([i["canonical"]] if i.get("canonical") else []) + i["written"]]
            options += [("text", t) for t in texts]
            for n, (kind, value) in enumerate(options, 1):
                console.print(f"  {n}. {'Nile' if kind == 'nile' else 'sentence'}: "
                              + escape(printable(value)))
            k = Prompt.ask("edit which", choices=[str(n) for n in range(1, len(options) + 1)],
                           console=console)
            field, old = options[int(k) - 1]
            answer.update(field=field, old=old, new=Prompt.ask("new value", console=console))
        note = Prompt.ask("note (optional)", default="", console=console) or None
        try:
            d = store.decide(current, _KEYS[key], reviewer=reviewer, note=note, answer=answer)
        except NileEditError as e:
            console.print("[red]not saved: the new Nile does not validate[/]\n"
                          + escape(printable(str(e))))
            continue
        except UsageError as e:
            console.print(f"[red]not saved: {escape(printable(str(e)))}[/]")
            continue
        made[0] += 1
        console.print(f"[green]{d['status']}[/] by {escape(printable(d['reviewer']))}")
        was = d.get("replaced_decision")
        if was and was["reviewer"] != d["reviewer"]:
            console.print(f"[yellow]this replaces {escape(printable(was['reviewer']))}'s "
                          f"decision ({was['status']}, {was['decided_at']})[/]")
        if key == "a":
            _teach(store, f, reviewer, console, lexicon)
        current = store.next_open(after=current)


def _teach(store: ReviewStore, f: dict, reviewer: str, console: Any, lexicon: Any) -> None:
    """Ask, for each vocabulary entry the accepted flag proposes, whether it is right."""
    from rich.markup import escape
    from rich.prompt import Confirm

    from .vocabulary import proposals

    for p in proposals(f, lexicon):
        yes = Confirm.ask(escape(f"teach the vocabulary: {p.describe()}?"), default=False,
                          console=console)
        store.teach(p, confirmed=yes, reviewer=reviewer, flag_id=f["flag_id"])
