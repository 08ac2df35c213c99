"""What the review tests share."""

from __future__ import annotations

import http.client
from urllib.parse import urlencode

import pytest


class Client:
    """A tiny HTTP client that keeps cookies, like a browser tab."""

    def __init__(self, port: int, host: str = "127.0.0.1"):
        self.host, self.port, self.cookies = host, port, {}

    def request(self, method: str, path: str, form: dict | None = None,
                headers: dict | None = None) -> tuple[int, dict, str]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
        body = urlencode(form) if form is not None else None
        h = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        if body is not None:
            h["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn.request(method, path, body=body, headers=h)
        resp = conn.getresponse()
        text = resp.read().decode("utf-8")
        for value in resp.headers.get_all("Set-Cookie") or []:
            k, v = value.split(";")[0].split("=", 1)
            self.cookies[k] = v
        conn.close()
        return resp.status, dict(resp.headers), text

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def post(self, path: str, form: dict, **kw):
        return self.request("POST", path, form, **kw)


@pytest.fixture(scope="session")
def http_client() -> type[Client]:
    """The review page's client, ``http_client(port, host="127.0.0.1")``: a browser tab
    over HTTP (``get``, ``post``; it keeps the cookies it is given)."""
    return Client
