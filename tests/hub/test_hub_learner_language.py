"""A learner's language on a real hub, in Chromium: the page while their server starts is
in their language (JupyterHub's "Your server is starting up" is not), and their course
keeps their language across visits without ``?lang=``: the hub's root and a lesson's
bookmarked address open in their last choice, else their browser's language.

The hub shows the starting page when a server takes longer than slow_spawn_timeout
(10 s; a class logging in at once on one machine): here 0, so it is shown every time.
Markers ``hub``, ``browser``, ``slow``: about a minute on 2 cores.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tutor.teaching.text import text

from .hub_harness import RunningHub, running_hub
from .hub_pages import log_in

pytestmark = [pytest.mark.hub, pytest.mark.browser, pytest.mark.slow]

CLASS_PASSWORD = f"class-{secrets.token_urlsafe(9)}"
TIMEOUT_MS = 120_000
COURSE = "voila/render/index.ipynb"
LESSON = "voila/render/06_trick_winner.ipynb"


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHub]:
    with running_hub(
        tmp_path_factory.mktemp("language-hub"),
        auth="shared-password",
        password=CLASS_PASSWORD,
        learners=["aiko"],
        extra_config='c.JupyterHub.tornado_settings = {"slow_spawn_timeout": 0}',
    ) as running:
        yield running


def test_a_japanese_learner_sees_their_server_start_and_their_course_in_japanese(
    hub: RunningHub, browser: Any
) -> None:
    context = browser.new_context(locale="ja-JP", viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        # Logged in at the hub's root (no ?lang anywhere): the hub starts the server and
        # shows its starting page, in Japanese, until the server is ready.
        with page.expect_response(
            lambda response: "/hub/spawn-pending/aiko" in response.url and response.status == 200,
            timeout=TIMEOUT_MS,
        ) as pending:
            log_in(page, hub.url, "aiko", CLASS_PASSWORD)
        starting = pending.value.text()
        assert '<html lang="ja"' in starting
        assert text("spawn.title", "ja") in starting and text("spawn.wait", "ja") in starting
        assert "Your server is starting" not in starting and "Event log" not in starting
        page.wait_for_url(f"**/user/aiko/{COURSE}?lang=ja", timeout=TIMEOUT_MS)
        expect(page.get_by_text(text("course.title", "ja")).first).to_be_visible()

        # Another visit, straight to a lesson's address with no ?lang: Japanese still.
        page.goto(f"{hub.url}/user/aiko/{LESSON}")
        page.wait_for_url(f"**/user/aiko/{LESSON}?lang=ja")
        # The learner picks traditional Chinese; the hub's root and the lesson keep it,
        # though the browser asks for Japanese.
        page.goto(f"{hub.url}/user/aiko/{COURSE}?lang=zh-Hant")
        page.goto(f"{hub.url}/")
        page.wait_for_url(f"**/user/aiko/{COURSE}?lang=zh-Hant")
        expect(page.get_by_text(text("course.title", "zh-Hant")).first).to_be_visible()
        page.goto(f"{hub.url}/user/aiko/{LESSON}")
        page.wait_for_url(f"**/user/aiko/{LESSON}?lang=zh-Hant")
    finally:
        context.close()
    assert "Traceback" not in hub.log_path.read_text(errors="replace")
