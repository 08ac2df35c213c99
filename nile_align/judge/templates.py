"""*-PLUIE prompt templates as data: load, check and render the ``templates/*.toml`` cards.

A template is a chat conversation whose last user turn holds the pair; the
scorer renders it with the model's chat template and compares the next-token
probabilities of the two answer words (``method = "pluie"``), or lets the model
generate a JSON answer (``method = "generate"``, the output-based judges).
"""

from __future__ import annotations

import hashlib
import json
import string
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import NileAlignError
from ..resources import data_dir

__all__ = ["Message", "Template", "TemplateError", "available_templates", "get_template",
           "load_template"]

METHODS = ("pluie", "generate")
_KEYS = {"name", "title", "paper_name", "method", "language", "description", "source", "notes",
         "a", "b", "extra", "optional", "answers", "values", "natural_threshold", "answer_key",
         "max_new_tokens", "messages"}


class TemplateError(NileAlignError, ValueError):
    """A template file that cannot be used (bad TOML, missing field, unknown placeholder)."""


@dataclass(frozen=True)
class Message:
    """One chat turn; ``when`` names an optional field the turn needs (e.g. rev's gold)."""

    role: str
    content: str
    when: str | None = None


@dataclass(frozen=True)
class Template:
    """A loaded template and its card (see ``templates/README.md`` for the fields)."""

    name: str
    title: str
    method: str
    language: str
    a: str
    b: str
    answers: tuple[str, ...]
    messages: tuple[Message, ...]
    description: str = ""
    source: str = ""
    notes: str = ""
    paper_name: str | None = None
    extra: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    answer_key: str = "answer"
    max_new_tokens: int = 16
    #: A generate judge's score for each answer word (default +1 / -1 for yes / no).
    values: tuple[float, ...] = (1.0, -1.0)
    #: Score above which the answer means "yes" (0 for PLUIE and yes/no judges).
    natural_threshold: float = 0.0
    path: str = field(default="", compare=False)

    @property
    def fields(self) -> tuple[str, ...]:
        """Every placeholder name, required first: a, b, extra, then optional."""
        return (self.a, self.b, *self.extra, *self.optional)

    @property
    def digest(self) -> str:
        """SHA-256 of everything that changes a score (not the card's prose)."""
        payload = {"method": self.method, "a": self.a, "b": self.b, "answers": self.answers,
                   "extra": self.extra, "optional": self.optional,
                   "messages": [(m.role, m.content, m.when) for m in self.messages],
                   "answer_key": self.answer_key, "max_new_tokens": self.max_new_tokens}
        if self.method == "generate" and self.values != (1.0, -1.0):
            payload["values"] = self.values
        return hashlib.sha256(json.dumps(payload, ensure_ascii=False).encode()).hexdigest()

    def render(self, *, a: str, b: str, **extra: str | None) -> list[dict[str, str]]:
        """The chat messages for one pair, ready for ``tokenizer.apply_chat_template``."""
        values = {self.a: a, self.b: b, **{k: v for k, v in extra.items() if v is not None}}
        missing = [f for f in self.extra if values.get(f) is None]
        if missing:
            raise TemplateError(f"template {self.name!r} needs the field(s) {', '.join(missing)}")
        return [{"role": m.role, "content": m.content.format_map(values)}
                for m in self.messages if m.when is None or values.get(m.when) is not None]

    def card(self) -> str:
        """A short human description: title, method, answers, source, notes."""
        paper = f" ({self.paper_name})" if self.paper_name else ""
        lines = [f"{self.name}: {self.title}{paper}",
                 f"  {self.description}",
                 f"  method {self.method}, language {self.language}, answers "
                 f"{'/'.join(map(repr, self.answers))}, A = {{{self.a}}}, B = {{{self.b}}}"
                 + (f", also {', '.join(self.extra)}" if self.extra else "")
                 + (f", optional {', '.join(self.optional)}" if self.optional else ""),
                 f"  source: {self.source}"]
        if self.path:
            lines.append(f"  file: {self.path}")
        return "\n".join(lines)


def _fail(path: str, message: str) -> TemplateError:
    return TemplateError(f"{path}: {message}")


def load_template(path: str | Path, text: str | None = None) -> Template:
    """Read and check one template file (``text`` overrides reading ``path``)."""
    where = str(path)
    try:
        raw = tomllib.loads(text if text is not None else Path(path).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise _fail(where, f"not valid TOML: {e}") from None
    except OSError as e:
        raise _fail(where, f"cannot read: {e.strerror}") from None
    unknown = set(raw) - _KEYS
    if unknown:
        raise _fail(where, f"unknown key(s) {', '.join(sorted(unknown))}")
    for key in ("name", "title", "method", "language", "a", "b", "answers", "messages"):
        if key not in raw:
            raise _fail(where, f"missing key {key!r}")
    if raw["method"] not in METHODS:
        raise _fail(where, f"method must be one of {', '.join(METHODS)}, not {raw['method']!r}")
    answers = raw["answers"]
    many = raw["method"] == "generate"
    if (not isinstance(answers, list) or len(set(answers)) != len(answers)
            or not all(isinstance(w, str) and w.strip() for w in answers)
            or (len(answers) < 2 if many else len(answers) != 2)):
        raise _fail(where, "answers must be two different words: [yes_word, no_word]"
                    + (" (or more, with values, for a generate judge)" if many else ""))
    values = raw.get("values", [1, -1] if len(answers) == 2 else None)
    if (not isinstance(values, list) or len(values) != len(answers)
            or not all(isinstance(v, (int, float)) for v in values)):
        raise _fail(where, "values must give one number per answer word")
    messages = []
    for i, m in enumerate(raw["messages"], 1):
        if m.get("role") not in ("system", "user", "assistant") or not isinstance(
                m.get("content"), str):
            raise _fail(where, f"message {i} needs a role (system, user or assistant) and a "
                               f"content")
        messages.append(Message(m["role"], m["content"], m.get("when")))
    if not messages or messages[-1].role != "user":
        raise _fail(where, "the last message must be the user turn that holds the pair")
    template = Template(
        name=raw["name"], title=raw["title"], method=raw["method"], language=raw["language"],
        a=raw["a"], b=raw["b"], answers=tuple(answers), messages=tuple(messages),
        description=raw.get("description", ""), source=raw.get("source", ""),
        notes=raw.get("notes", ""), paper_name=raw.get("paper_name"),
        extra=tuple(raw.get("extra", ())), optional=tuple(raw.get("optional", ())),
        answer_key=raw.get("answer_key", "answer"),
        max_new_tokens=int(raw.get("max_new_tokens", 16)),
        values=tuple(float(v) for v in values),
        natural_threshold=float(raw.get("natural_threshold", 0.0)), path=where)
    known = set(template.fields)
    used = set()
    for m in messages:
        try:
            names = {f for _, f, _, _ in string.Formatter().parse(m.content) if f is not None}
        except ValueError as e:
            raise _fail(where, f"bad placeholder in {m.role} message: {e}") from None
        if m.when is not None and m.when not in template.optional:
            raise _fail(where, f"'when = {m.when!r}' names no optional field")
        unknown_names = names - known
        if unknown_names:
            raise _fail(where, f"unknown placeholder(s) {', '.join(sorted(unknown_names))}; "
                               f"declare them in a, b, extra or optional")
        used |= names
    missing = {template.a, template.b, *template.extra} - used
    if missing:
        raise _fail(where, f"placeholder(s) never used: {', '.join(sorted(missing))}")
    return template


def available_templates(extra_dir: str | Path | None = None) -> dict[str, Template]:
    """The shipped templates, plus those of ``extra_dir`` (names must not clash)."""
    found: dict[str, Template] = {}
    shipped = data_dir("templates")
    sources = [(entry.name, entry.read_text(encoding="utf-8"), f"templates/{entry.name}")
               for entry in shipped.iterdir() if entry.name.endswith(".toml")]
    if extra_dir is not None:
        folder = Path(extra_dir)
        if not folder.is_dir():
            raise TemplateError(f"{folder}: not a folder of template files")
        sources += [(p.name, p.read_text(encoding="utf-8"), str(p))
                    for p in sorted(folder.glob("*.toml"))]
    for _, text, where in sorted(sources, key=lambda s: s[2]):
        t = load_template(where, text)
        if t.name in found:
            raise TemplateError(f"{where}: template name {t.name!r} is already used by "
                                f"{found[t.name].path}")
        found[t.name] = t
    return found


def get_template(name: str | Template, extra_dir: str | Path | None = None) -> Template:
    """One template by name (or pass a Template through)."""
    if isinstance(name, Template):
        return name
    templates = available_templates(extra_dir)
    if name not in templates:
        raise TemplateError(f"unknown template {name!r}; available: {', '.join(sorted(templates))}")
    return templates[name]
