"""The review page: a small HTTP server over a :class:`~nile_align.review.ReviewStore`.

Standard library ``http.server`` (no framework: five routes) with Jinja2 templates, whose
autoescaping guarantees that every corpus string is shown as text. Safe by default:
loopback only; on any other ``--host`` a token is required on every request (given once
as ``?token=``, then kept in an HttpOnly SameSite=Strict cookie); every state-changing
request is a POST carrying the page's CSRF token, and cross-site POSTs are refused by
their ``Origin``/``Sec-Fetch-Site`` headers as well. A Content-Security-Policy allows
only the page's own script and style, so even a missed escape could not run a script.
"""

from __future__ import annotations

import hmac
import html
import ipaddress
import json
import secrets
import socket
import sys
import threading
from collections.abc import Sequence
from http import HTTPStatus
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from markupsafe import Markup

from ..errors import UsageError
from ..graph.checker import RULES
from .store import ReviewStore, format_records, nile_spans, suggestion_diff, suggestion_edit

__all__ = ["ReviewServer", "highlight_nile", "is_loopback", "make_server"]

_STATIC = {"review.js": "text/javascript", "review.css": "text/css"}
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
STATUSES = ["open", "decided", "accepted", "rejected", "edited", "skipped", ""]
#: Flags per page of the queue: a queue of thousands loads as fast as one of ten.
PAGE = 100


def highlight_nile(text: str) -> Markup:
    """Nile as HTML with keyword, function and string spans (each token escaped)."""
    out, at = [], 0
    for kind, start, end in nile_spans(text):
        out += [html.escape(text[at:start]),
                f'<span class="{kind}">{html.escape(text[start:end])}</span>']
        at = end
    return Markup("".join(out) + html.escape(text[at:]))


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _asset(name: str):
    """A file of the page's assets (templates, style sheet, script)."""
    return resources.files("nile_align.review").joinpath("assets", name)


def _env():
    from jinja2 import Environment, FunctionLoader, select_autoescape

    def load(name: str) -> str:
        return _asset(name).read_text(encoding="utf-8")

    return Environment(loader=FunctionLoader(load), autoescape=select_autoescape(default=True),
                       trim_blocks=True, lstrip_blocks=True)


class ReviewServer(ThreadingHTTPServer):
    """The review page for one store; ``token`` None means no token is asked (loopback)."""

    daemon_threads = True

    def __init__(self, store: ReviewStore, host: str, port: int, *, token: str | None,
                 reviewer: str = "", names: Sequence[str] = ()):
        self.store, self.token, self.reviewer = store, token, reviewer
        self.csrf = secrets.token_urlsafe(24)
        self.lock = threading.Lock()  # one SQLite connection: one request at a time uses it
        self.templates = _env()
        # A DNS-rebinding page reaches this server under its own name: only the names of
        # the address it is bound to are answered, and the ``names`` it is told.
        self.hosts = own_names(host) | {_bare(n).lower() for n in names}
        super().__init__((host, port), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that broke the handler (a client gone, a malformed request): one line
        on stderr, no traceback; the server goes on."""
        error = sys.exc_info()[1]
        print(f"nile-align review: a request from {client_address[0]} failed: "
              f"{type(error).__name__}: {error}", file=sys.stderr)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}/" + (f"?token={self.token}" if self.token else "")


def make_server(folder: str | Path, *, host: str = "127.0.0.1", port: int = 8765,
                token: str | None = None, reviewer: str = "",
                store: str | Path | None = None, names: Sequence[str] = ()) -> ReviewServer:
    """A review server for the ``check`` output in ``folder`` (not yet serving: call
    ``serve_forever``). Off loopback a token is required; one is made when not given.
    ``store``: the decision store (default ``folder/review.sqlite``); ``names``: Host
    names to answer besides the address's own (a proxy's, a DNS alias)."""
    if not is_loopback(host) and not token:
        token = secrets.token_urlsafe(18)
    opened = ReviewStore(folder, path=store)
    try:
        return ReviewServer(opened, host, port, token=token, reviewer=reviewer, names=names)
    except OSError as e:
        opened.close()
        raise UsageError(f"cannot listen on {host}:{port}: {e.strerror}; try another --port") \
            from None


def own_names(host: str) -> set[str]:
    """The Host names that reach an address: loopback's, the address itself and, bound to
    every interface, this machine's names and the addresses they resolve to."""
    names = {"localhost", "127.0.0.1", "[::1]", _bare(host).lower()}
    if host not in ("", "0.0.0.0", "::"):
        return names
    for name in {socket.gethostname(), socket.getfqdn()}:
        names.add(name.lower())
        try:
            found = socket.getaddrinfo(name, None)
        except OSError:  # a name this machine cannot resolve names only itself
            continue
        names.update(_bare(str(info[4][0])).lower() for info in found)
    return names


def _bare(host: str) -> str:
    """A Host header's or an address's name without its port ("[::1]:8765" -> "[::1]";
    an IPv6 address is written in brackets)."""
    if host.startswith("["):
        return host[:host.find("]") + 1]
    if host.count(":") > 1:
        return f"[{host}]"
    return host.rpartition(":")[0] if ":" in host else host


#: The largest form a decision posts (a note, an edited intent).
MAX_BODY = 1_000_000


class _Handler(BaseHTTPRequestHandler):
    server: ReviewServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 — stdlib signature
        pass  # stdout is data, stderr is for the CLI's own summary

    # --- plumbing ----------------------------------------------------------------------

    def _cookies(self) -> SimpleCookie:
        return SimpleCookie(self.headers.get("Cookie", ""))

    def _send(self, status: int, body: bytes | str, ctype: str = "text/html; charset=utf-8",
              headers: dict[str, str] | None = None) -> None:
        data = body.encode("utf-8") if isinstance(body, str) else body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Content-Security-Policy", _CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        # Not no-referrer: Chromium then sends "Origin: null" on same-origin POSTs.
        self.send_header("Referrer-Policy", "same-origin")
        self.send_header("Cache-Control", "no-store")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _redirect(self, location: str, cookie: str | None = None) -> None:
        headers = {"Location": location}
        if cookie:
            headers["Set-Cookie"] = cookie
        self._send(HTTPStatus.SEE_OTHER, b"", "text/plain", headers)

    def _authorised(self, query: dict[str, list[str]]) -> bool | None:
        """True: go on; False: refused (sent); None: token taken from the URL (redirected)."""
        token = self.server.token
        if token is None:
            return True
        given = query.get("token", [None])[0]
        if given is not None and hmac.compare_digest(given, token):
            rest = {k: v for k, v in query.items() if k != "token"}
            path = urlsplit(self.path).path + ("?" + urlencode(rest, doseq=True) if rest else "")
            self._redirect(path, f"nile_align_token={token}; HttpOnly; SameSite=Strict; Path=/")
            return None
        cookie = self._cookies().get("nile_align_token")
        if cookie is not None and hmac.compare_digest(cookie.value, token):
            return True
        self._send(HTTPStatus.FORBIDDEN, "forbidden: this review server needs its token; open "
                   "the URL it printed at start-up\n", "text/plain; charset=utf-8")
        return False

    def _same_origin(self) -> bool:
        if self.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return False
        origin = self.headers.get("Origin")
        if origin and origin != "null":
            return urlsplit(origin).netloc == self.headers.get("Host")
        return origin != "null"

    def _render(self, name: str, status: int = 200, **context: Any) -> None:
        with self.server.lock:
            counts = self.server.store.counts()
        page = self.server.templates.get_template(name).render(
            csrf=self.server.csrf, counts=counts, folder=str(self.server.store.folder),
            highlight=highlight_nile, **context)
        self._send(status, page)

    # --- routes ------------------------------------------------------------------------

    def do_HEAD(self) -> None:
        self.do_GET()

    def _known_host(self) -> bool:
        """Whether the request names this server by a name of its address; a 400 when
        not (a DNS-rebinding page names its own)."""
        hosts = self.server.hosts
        if hosts is None or _bare(self.headers.get("Host", "")).lower() in hosts:
            return True
        self._send(HTTPStatus.BAD_REQUEST, "bad request: this review server answers only "
                   "its own address's names (Host header); name others with "
                   "--allow-host\n", "text/plain; charset=utf-8")
        return False

    def _body(self) -> str | None:
        """The posted form's text, or None after a 400, 411 or 413 that says why."""
        said = self.headers.get("Content-Length")
        refused = None
        if said is None:
            refused = (HTTPStatus.LENGTH_REQUIRED, "a form needs a Content-Length")
        elif not said.strip().isdigit():
            refused = (HTTPStatus.BAD_REQUEST, "Content-Length is not a length")
        elif int(said) > MAX_BODY:
            refused = (HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too large")
        if refused is None:
            try:
                return self.rfile.read(int(said or 0)).decode("utf-8")
            except UnicodeDecodeError:
                refused = (HTTPStatus.BAD_REQUEST, "the form is not UTF-8")
        self.close_connection = True
        self._send(refused[0], f"bad request: {refused[1]}\n", "text/plain; charset=utf-8")
        return None

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if not self._known_host() or self._authorised(query) is not True:
            return
        path = url.path
        if path == "/":
            self._redirect("/queue")
        elif path == "/queue":
            self._queue(query)
        elif path.startswith("/flag/"):
            self._flag(path[len("/flag/"):], query)
        elif path.startswith("/static/") and path[len("/static/"):] in _STATIC:
            name = path[len("/static/"):]
            body = _asset(name).read_bytes()
            self._send(200, body, _STATIC[name] + "; charset=utf-8")
        elif path.startswith("/export/"):
            self._export(path[len("/export/"):])
        elif path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
        else:
            self._send(HTTPStatus.NOT_FOUND, "not found\n", "text/plain; charset=utf-8")

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if not self._known_host() or self._authorised(query) is not True:
            return
        body = self._body()
        if body is None:
            return
        form = {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}
        if not self._same_origin() or not hmac.compare_digest(form.get("csrf", ""),
                                                              self.server.csrf):
            self._send(HTTPStatus.FORBIDDEN, "forbidden: cross-site request refused (no valid "
                       "CSRF token); reload the review page and try again\n",
                       "text/plain; charset=utf-8")
            return
        if url.path == "/undo":
            with self.server.lock:
                undone = self.server.store.undo()
            where = f"/flag/{undone['flag_id']}" if undone else "/queue"
            note = (f"undone: {undone['status']} by {undone['reviewer']}" if undone
                    else "nothing to undo")
            self._redirect(f"{where}?{urlencode({'msg': note})}")
        elif url.path.startswith("/flag/"):
            self._decide(url.path[len("/flag/"):], query, form)
        else:
            self._send(HTTPStatus.NOT_FOUND, "not found\n", "text/plain; charset=utf-8")

    def _filters(self, query: dict[str, list[str]]) -> dict[str, str]:
        return {k: query.get(k, [""])[0] for k in ("rule", "status", "system", "intent")}

    @staticmethod
    def _where(filters: dict[str, str]) -> dict[str, str | None]:
        """The filters that choose the next flag (status aside: next is always open)."""
        return {k: filters.get(k) or None for k in ("rule", "system", "intent")}

    @staticmethod
    def _query(filters: dict[str, str]) -> str:
        kept = {k: v for k, v in filters.items() if v}
        return "?" + urlencode(kept) if kept else ""

    def _queue(self, query: dict[str, list[str]]) -> None:
        filters = self._filters(query)
        if "status" not in query:
            filters["status"] = "open"
        page = int(query.get("page", ["1"])[0]) if query.get("page", ["1"])[0].isdigit() else 1
        chosen = {k: v or None for k, v in filters.items()}
        store = self.server.store
        with self.server.lock:
            total = store.count(**chosen)
            pages = max(1, -(-total // PAGE))
            page = min(max(1, page), pages)
            flags = store.flags(**chosen, offset=(page - 1) * PAGE, limit=PAGE)
            systems = store.systems()
            next_id = store.next_open(**self._where(filters))
        self._render("queue.html", flags=flags, filters=filters, rules=list(RULES),
                     statuses=STATUSES, systems=systems, next_id=next_id, total=total,
                     page=page, pages=pages, first=(page - 1) * PAGE + 1,
                     query=self._query(filters), message=query.get("msg", [""])[0],
                     message_kind="info")

    def _flag(self, flag_id: str, query: dict[str, list[str]], *, status: int = 200,
              error: str = "", form: dict | None = None, message: str = "",
              message_kind: str = "info") -> None:
        store = self.server.store
        try:
            with self.server.lock:
                f = store.flag(flag_id)
                next_id = store.next_open(after=flag_id, **self._where(self._filters(query)))
        except UsageError:
            self._send(HTTPStatus.NOT_FOUND, f"no flag {flag_id}\n", "text/plain; charset=utf-8")
            return
        texts = {s["text"] for s in f["sentences"]}
        findings = [{**x, "sentence": s["b"]} for s in f["scores"] if s["kind"] == "align"
                    for x in s.get("facts") or []]
        spans: dict[str, list[tuple[int, int, str]]] = {}
        for x in findings:
            if x["status"] == "contradicted" and x.get("span") and x["sentence"] in texts:
                spans.setdefault(x["sentence"], []).append((*x["span"], x["fact"]))
        evidence = self._evidence(f)

        def marked(text: str) -> Markup:
            out, at = [], 0
            for start, end, fact in sorted(spans.get(text, [])):
                if start < at:
                    continue
                out += [html.escape(text[at:start]), f'<mark class="contradicted" title="'
                        f'{html.escape(fact)}">{html.escape(text[start:end])}</mark>']
                at = end
            return Markup("".join(out) + html.escape(text[at:]))

        repair = [str(d) for d in suggestion_diff(f)]
        cookie = self._cookies().get("nile_align_reviewer")
        reviewer = (form or {}).get("reviewer") or (cookie.value if cookie else "") \
            or self.server.reviewer
        self._render("flag.html", status, f=f, rule_text=RULES.get(f["rule"], ""),
                     next_id=next_id, query=self._query(self._filters(query)),
                     findings=findings, evidence=evidence, marked=marked, error=error,
                     repair=repair,
                     form=form or {}, reviewer=reviewer,
                     message=message or query.get("msg", [""])[0], message_kind=message_kind)

    @staticmethod
    def _evidence(f: dict) -> list[dict]:
        """The inferred alignment's chain from the flag's align scores, with its texts."""
        steps = []
        for s in f["scores"]:
            for step in s.get("evidence") or []:
                # Sentence node ids are "s:" + the normalised text.
                steps.append({**step, "from_text": step["from"][2:], "to_text": step["to"][2:]})
        return steps

    def _decide(self, flag_id: str, query: dict[str, list[str]], form: dict[str, str]) -> None:
        action = form.get("action", "")
        answer: dict[str, Any] = {}
        if form.get("target"):
            answer["target"] = form["target"]
        if action == "edit":
            answer.update(field=form.get("field"), old=form.get("old", ""),
                          new=form.get("new", ""))
        seen = int(form["seen"]) if form.get("seen", "").isdigit() else None
        try:
            with self.server.lock:
                if action == "repair":  # the suggestion, as the check wrote it: an edit
                    action, repair = "edit", suggestion_edit(self.server.store.flag(flag_id))
                    answer.update(repair)
                d = self.server.store.decide(flag_id, action, reviewer=form.get("reviewer", ""),
                                             note=form.get("note"), answer=answer, seen=seen)
                next_id = self.server.store.next_open(after=flag_id,
                                                      **self._where(self._filters(query)))
        except UsageError as e:  # a bad answer, or a Nile edit that does not validate
            self._flag(flag_id, query, status=HTTPStatus.UNPROCESSABLE_ENTITY, error=str(e),
                       form=form)
            return
        msg = f"{d['status']} by {d['reviewer']}"
        if d["replaced_decision"]:
            old = d["replaced_decision"]
            msg += (f" — this replaced a decision made meanwhile elsewhere ({old['status']} by "
                    f"{old['reviewer']} at {old['decided_at']}); both are kept in the history")
        where = f"/flag/{next_id}" if next_id and action != "edit" else f"/flag/{flag_id}"
        filters = {k: v for k, v in self._filters(query).items() if v}
        cookie = f"nile_align_reviewer={quote(d['reviewer'])}; SameSite=Strict; Path=/"
        self._redirect(where + "?" + urlencode({**filters, "msg": msg}), cookie)

    def _export(self, name: str) -> None:
        from .labelstudio import tasks

        store = self.server.store
        with self.server.lock:
            if name in ("decisions.jsonl", "decisions.csv"):
                fmt = name.rsplit(".", 1)[1]
                body = format_records(list(store.export_records()), fmt)
                ctype = {"jsonl": "application/x-ndjson", "csv": "text/csv"}[fmt]
            elif name == "labelstudio.json":
                body = json.dumps(tasks(store), ensure_ascii=False, indent=1)
                ctype = "application/json"
            else:
                self._send(HTTPStatus.NOT_FOUND, "not found\n", "text/plain; charset=utf-8")
                return
        self._send(200, body, ctype + "; charset=utf-8",
                   {"Content-Disposition": f'attachment; filename="{name}"'})
