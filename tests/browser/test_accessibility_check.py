"""The accessibility check itself (tests/accessibility.py) can fail: on a tiny page with
known serious violations (a picture without words, a button without a name) it fails and
names each rule, its impact, the element and the rule's help address; on the same page
made right, it passes; asked to check a part of a page, it sees that part only."""

from __future__ import annotations

from typing import Any

import pytest
from accessibility import assert_accessible, axe_violations

from .conftest import PageLog

pytestmark = pytest.mark.browser

BROKEN = """<!doctype html><html lang="en"><head><title>A page</title></head><body><main>
<h1>A page</h1>
<img id="no-words" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<button id="no-name" type="button"></button>
<p>Some words.</p>
</main></body></html>"""
MENDED = BROKEN.replace('id="no-words"', 'id="no-words" alt="A dot"').replace(
    '"no-name" type="button">', '"no-name" type="button">Go on'
)


def test_a_picture_without_words_and_a_nameless_button_fail_the_check(
    page: tuple[Any, PageLog],
) -> None:
    browser_page, _log = page
    browser_page.set_content(BROKEN)
    with pytest.raises(AssertionError) as failed:
        assert_accessible(browser_page, "the broken page")
    said = str(failed.value)
    assert "the broken page: 2 serious or critical" in said, said
    for rule, element in (("image-alt", "#no-words"), ("button-name", "#no-name")):
        assert f"- {rule} (critical)" in said, said
        assert element in said, said
        assert "/rules/axe/" in said and f"/{rule}" in said, said


def test_the_same_page_made_right_passes_the_check(page: tuple[Any, PageLog]) -> None:
    browser_page, _log = page
    browser_page.set_content(MENDED)
    found = assert_accessible(browser_page, "the mended page")
    assert [violation["id"] for violation in found] == []


def test_the_check_within_a_part_sees_that_part_only(page: tuple[Any, PageLog]) -> None:
    """``within`` (a host's part, as Lab's outputs among its own panels) checks the elements
    it matches and nothing else; a part that is not in the page fails, naming it."""
    browser_page, _log = page
    browser_page.set_content(BROKEN)
    assert [violation["id"] for violation in axe_violations(browser_page, "#no-name")] == [
        "button-name"
    ]
    assert [violation["id"] for violation in axe_violations(browser_page, "h1, p")] == []
    with pytest.raises(AssertionError, match=r"nothing in the page matches '\.gone'"):
        axe_violations(browser_page, ".gone")
