"""The live room's pages from their templates (tutor/web/templates/room-*.html): the
learner's phone page (one stylesheet, one script, its data, the tutor's one language
switcher) and the teacher's summary, everything a learner or a lesson wrote escaped. The
app and the hub write them with the same functions; tests/web/test_room_http.py serves
them, tests/browser/test_room_phone.py draws them on a phone."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tutor.teaching.language import LANGUAGE_NAMES
from tutor.teaching.text import LANGUAGES, catalog, text
from tutor.web.room import Room
from tutor.web.room_checks import NICKNAME_LENGTH
from tutor.web.room_server import RoomFiles, learner_page, summary_page, unknown_room_page
from tutor.web.room_store import RoomStore

HUB_BASE = "/services/class-results/room/"


class Elements(HTMLParser):
    """Every start tag of a page as (tag, attributes), and the text inside each element
    that has an id (the page's data, its title)."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text_of: dict[str, str] = {}
        self._open: list[str | None] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in ("meta", "link", "br"):
            self._open.append(dict(attrs).get("id"))
            if self._open[-1]:
                self.text_of[str(self._open[-1])] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag not in ("meta", "link", "br") and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for name in self._open:
            if name:
                self.text_of[name] += data

    def all(self, tag: str, **wanted: str | None) -> list[dict[str, str | None]]:
        return [
            attrs
            for name, attrs in self.tags
            if name == tag and all(k in attrs and attrs[k] == v for k, v in wanted.items())
        ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("base", ["/room/", HUB_BASE])
def test_the_learner_page_is_one_stylesheet_one_script_and_its_data(lang: str, base: str) -> None:
    page = Elements(learner_page("ABCD", lang, base))
    assert page.all("html") == [{"lang": lang}]
    stylesheets = page.all("link", rel="stylesheet")
    scripts = [attrs for attrs in page.all("script") if attrs.get("src")]
    assert [attrs["href"] for attrs in stylesheets] == [RoomFiles.url(base, "room.css")]
    assert [attrs["src"] for attrs in scripts] == [RoomFiles.url(base, "room.js")]
    assert not page.all("style")  # the stylesheet is the page's only style
    # nothing from outside the page's origin: every address is a path of its own server
    addresses = [v for _, attrs in page.tags for k, v in attrs.items() if k in ("src", "href")]
    assert all(a and (a.startswith(base) or a.startswith("data:")) for a in addresses), addresses
    data = json.loads(page.text_of["room-data"])
    assert data == {
        "code": "ABCD",
        "lang": lang,
        "words": {language: dict(catalog(language)["room"]) for language in LANGUAGES},
        "nicknameLimit": NICKNAME_LENGTH,
        "base": base,
    }
    title = text("room.title", lang, code="ABCD")
    assert page.text_of["room-title"] == title and f"<title>{title}</title>" in str(
        learner_page("ABCD", lang, base)
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_learner_page_offers_every_language_with_the_tutors_one_switcher(lang: str) -> None:
    page = Elements(learner_page("ABCD", lang, HUB_BASE))
    nav = page.all("nav", id="room-languages")
    assert nav == [
        {
            "id": "room-languages",
            "aria-label": text("room.language", lang),
            "class": "room-languages",
        }
    ]
    links = [attrs for attrs in page.all("a") if attrs.get("lang")]
    assert [(a["lang"], a["href"]) for a in links] == [
        (code, f"{HUB_BASE}ABCD?lang={code}") for code in LANGUAGE_NAMES
    ]
    assert [a["lang"] for a in links if a.get("aria-current") == "page"] == [lang]
    names = [name for name in LANGUAGE_NAMES.values() if name in page.text_of["room-languages"]]
    assert names == list(LANGUAGE_NAMES.values())


def test_the_hubs_page_data_cannot_end_its_script_element() -> None:
    """The hub's XSRF token (or anything else in the data) is JSON in a script element:
    a ``</script>`` in it stays text of the data, never markup."""
    hostile = "</script><script>alert(1)</script>"
    html = learner_page("ABCD", "en", HUB_BASE, {"hub": True, "xsrf": hostile})
    assert hostile not in html and "<script>alert" not in html
    data = json.loads(Elements(html).text_of["room-data"])
    assert (data["hub"], data["xsrf"]) == (True, hostile)


@pytest.fixture
def room(tmp_path: Path) -> Room:
    return Room(RoomStore.open_file(tmp_path / "room.sqlite3"), join="http://192.0.2.1:8866")


def test_the_summary_page_escapes_what_the_room_shows_and_links_its_csv(room: Room) -> None:
    room.add_learner("<b>Aiko</b>")
    rows = [
        {
            "question": "Who takes <i>this</i> trick?",
            "lesson": "06_trick_winner",
            "item": "quiz-a&b",
            "answered": 3,
            "right_first": 2,
            "most_chosen_wrong": "yellow 3 (A) <script>",
            "most_chosen_wrong_count": 1,
        },
        {
            "question": "Q2",
            "lesson": "07_scoring",
            "item": "quiz-b",
            "answered": 0,
            "right_first": 0,
            "most_chosen_wrong": "",
            "most_chosen_wrong_count": 0,
        },
    ]
    html = summary_page(room, rows, "ja", HUB_BASE)
    assert "<i>" not in html and "<script>" not in html
    assert "Who takes &lt;i&gt;this&lt;/i&gt; trick?" in html and "quiz-a&amp;b" in html
    page = Elements(html)
    assert page.all("html") == [{"lang": "ja"}]
    assert page.all("main") == [{"class": "tutor-room-summary"}]
    assert text("room.summary-title", "ja", code=room.code) in html
    assert text("room.summary-learners", "ja", count=1) in html
    heads = [text(f"room.summary-{key}", "ja") for key in ("question", "answered", "right-first")]
    assert all(f'<th scope="col">{head}</th>' in html for head in heads)
    assert "<td>3</td><td>2</td>" in html and "<td>yellow 3 (A) &lt;script&gt; (1)</td>" in html
    assert "<td>0</td><td>0</td>\n<td></td>" in html  # no wrong answer: no count either
    assert page.all("a", href=f"{HUB_BASE}summary.csv?lang=ja", download=None)


def test_a_summary_without_questions_says_so(room: Room) -> None:
    html = summary_page(room, [], "zh-Hant")
    assert text("room.summary-empty", "zh-Hant") in html
    assert not Elements(html).all("table")
    assert Elements(html).all("a", href="/room/summary.csv?lang=zh-Hant", download=None)


def test_an_unknown_room_code_is_a_short_page_in_the_phones_language() -> None:
    html = unknown_room_page("ZZZZ", "ja")
    assert Elements(html).all("main") == [{"class": "tutor-room-unknown"}]
    assert text("room.error-unknown-room", "ja", code="ZZZZ") in html
