"""A browser's part in the hub's forms, without a browser: a session with its own cookies
that fetches a form (for its XSRF token, as the page's hidden field carries it) and posts
it, raw bytes allowed. Shared by test_hub_login.py and test_hub_forms.py."""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote_from_bytes

import requests

from .hub_harness import RunningHub

TEACHER = "teach"
TEACHER_PASSWORD = f"teach-{secrets.token_urlsafe(12)}"
_XSRF = re.compile(r'name="_xsrf" value="([^"]+)"')


@dataclass
class Answer:
    status: int
    text: str
    location: str
    seconds: float


def form_body(fields: list[tuple[str | bytes, str | bytes]]) -> bytes:
    """``fields`` url-encoded in order (repeated names kept; bytes sent as they are).

    >>> form_body([("a", "x y"), ("a", b"\\xff"), (b"b\\x00", "")])
    b'a=x%20y&a=%FF&b%00='
    """

    def encode(value: str | bytes) -> str:
        raw = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value
        return quote_from_bytes(raw, safe="")

    return "&".join(f"{encode(k)}={encode(v)}" for k, v in fields).encode()


class Visitor:
    """One browser: its own cookies, trusting only the hub's certificate."""

    def __init__(self, hub: RunningHub) -> None:
        self.hub = hub
        self.session = requests.Session()
        self.session.trust_env = False  # REQUESTS_CA_BUNDLE and proxies would override
        context = hub.ssl_context()
        self.session.verify = str(hub.certificate) if context is not None else True

    def get(self, path: str) -> Answer:
        started = time.monotonic()
        response = self.session.get(f"{self.hub.url}/{path}", allow_redirects=False, timeout=60)
        return self._answer(response, started)

    def xsrf(self, path: str) -> str:
        """The XSRF token of the form on ``path`` (fetching it sets the cookie too)."""
        page = self.get(path)
        found = _XSRF.search(page.text)
        assert found, f"no XSRF field on {path} ({page.status}): {page.text[:300]}"
        return found[1]

    def post(
        self,
        path: str,
        fields: list[tuple[str | bytes, str | bytes]],
        *,
        xsrf: bool = True,
        xsrf_from: str = "",
        content_type: str = "application/x-www-form-urlencoded",
    ) -> Answer:
        """Post ``fields`` to the form on ``path`` (with the XSRF token of the form on
        ``xsrf_from``, by default ``path`` itself, first)."""
        if xsrf:
            fields = [("_xsrf", self.xsrf(xsrf_from or path)), *fields]
        started = time.monotonic()
        response = self.session.post(
            f"{self.hub.url}/{path}",
            data=form_body(fields),
            headers={"Content-Type": content_type},
            allow_redirects=False,
            timeout=120,
        )
        return self._answer(response, started)

    def log_in(self, name: str, password: str) -> Answer:
        return self.post("hub/login", [("username", name), ("password", password)])

    def log_out(self) -> None:
        """Log out as the hub's logout link does (the device cookie stays)."""
        answer = self.get("hub/logout")
        assert answer.status in (200, 302), answer.status
        assert "jupyterhub-hub-login" not in self.session.cookies

    def sign_up(self, name: str, password: str) -> Answer:
        return self.post(
            "hub/signup",
            [
                ("username", name),
                ("signup_password", password),
                ("signup_password_confirmation", password),
            ],
        )

    @staticmethod
    def _answer(response: Any, started: float) -> Answer:
        return Answer(
            response.status_code,
            response.text,
            response.headers.get("Location", ""),
            time.monotonic() - started,
        )
