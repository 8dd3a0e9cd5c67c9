"""The hub's pages in a browser (Playwright), shared by the hub's browser tests
(test_class_hub.py, test_room_hub.py); without a browser: hub_forms.py."""

from __future__ import annotations

from typing import Any


def log_in(page: Any, hub_url: str, name: str, password: str, next_path: str = "") -> Any:
    """Submit the hub's login form in ``page``, then on to ``next_path`` (as a join
    address does); the response to the form's POST."""
    suffix = f"?next=/{next_path}" if next_path else ""
    page.goto(f"{hub_url}/hub/login{suffix}")
    page.fill("#username_input", name)
    page.fill("#password_input", password)
    with page.expect_response(lambda response: response.request.method == "POST") as posted:
        page.click("#login_submit")
    return posted.value
