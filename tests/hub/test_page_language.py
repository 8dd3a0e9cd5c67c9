"""The hub's pages in the learner's language, without a hub: JupyterHub's page.html gets
its ``<html lang>`` from the page (not the hard-coded "en"), and every authenticator the
deployment offers shows the tutor's login page; the learner's language is kept across
visits, on the course pages and the login pages alike. (The pages themselves in Chromium:
test_hub_page_languages.py, test_hub_login_languages.py.)"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from html import escape
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
import tornado.testing
import tornado.web
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader
from jupyterhub._data import DATA_FILES_PATH

from tutor.hub.hub_pages import HARD_CODED_LANG, PageLanguageLoader, add_template_folders
from tutor.hub.login import (
    TutorAuthenticator,
    TutorPAMAuthenticator,
    TutorSharedPasswordAuthenticator,
)
from tutor.hub.login_pages import HubLoginHandler, TutorLoginHandler, TutorSpawnPendingHandler
from tutor.hub.page_language import course_page_language, remember_language, request_language
from tutor.teaching.language import current_language
from tutor.teaching.text import LANGUAGES, catalog, text
from tutor.web.templating import language_links

# Where JupyterHub keeps its templates (its default template_paths).
HUB_TEMPLATES = Path(DATA_FILES_PATH) / "templates"


def _environment() -> Environment:
    """A template environment built as JupyterHub builds its own, with the tutor's loader."""
    hub_loader = ChoiceLoader(
        [
            PrefixLoader({"templates": FileSystemLoader([str(HUB_TEMPLATES)])}, "/"),
            FileSystemLoader([str(HUB_TEMPLATES)]),
        ]
    )
    return Environment(loader=ChoiceLoader([PageLanguageLoader(hub_loader), hub_loader]))


def test_page_html_takes_its_language_from_the_page() -> None:
    source = (HUB_TEMPLATES / "page.html").read_text()
    # JupyterHub still hard-codes the tag: if a new version does not, this loader must change.
    assert source.count(HARD_CODED_LANG) == 1, "JupyterHub's page.html changed its <html>"
    page = _environment().get_template("page.html")
    names = {"static_url": lambda path, **_: path, "parsed_scopes": set(), "services": []}
    assert '<html lang="ja">' in page.render(lang="ja", **names)
    assert '<html lang="zh-Hant">' in page.render(lang="zh-Hant", **names)
    assert '<html lang="en">' in page.render(**names)  # JupyterHub's own pages give none


def test_every_offered_authenticator_shows_the_tutors_login_page() -> None:
    for authenticator, handler in [
        (TutorSharedPasswordAuthenticator, HubLoginHandler),
        (TutorPAMAuthenticator, HubLoginHandler),
        (TutorAuthenticator, TutorLoginHandler),
    ]:
        routes = authenticator.get_handlers(authenticator.__new__(authenticator), app=None)
        logins = [h for pattern, h in routes if pattern == r"/login"]
        assert logins == [handler], (authenticator.__name__, routes)
        # and the page while a server starts (the hub puts these before its own)
        pending = {p: h for p, h in routes if p.startswith("/spawn-pending/")}
        assert set(pending.values()) == {TutorSpawnPendingHandler} and len(pending) == 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_while_a_server_starts_is_in_the_learners_language(lang: str) -> None:
    env = _environment()
    settings = {"jinja2_env": env}
    add_template_folders(settings)
    words = catalog(lang)
    page = env.get_template("tutor-spawn-pending.html").render(
        lang=lang,
        languages=language_links("/hub/spawn-pending/aiko"),
        hub_words=words["hub-page"],
        spawn_words=words["spawn"],
        progress_url="/hub/api/users/aiko/server/progress?_xsrf=x",
        static_url=lambda path, **_: path,
        parsed_scopes=set(),
        services=[],
        base_url="/hub/",
    )
    assert f'<html lang="{lang}">' in page
    for key in ("title", "starting", "wait", "requested", "details"):
        assert escape(text(f"spawn.{key}", lang)) in page, key
    assert "/hub/api/users/aiko/server/progress?_xsrf=x" in page
    for english in ("Your server is starting up", "Event log", "Complete</span>"):
        assert english not in page, english  # JupyterHub's own words


# -- the learner's language across visits (tutor/hub/page_language.py) ----------------------


class CoursePage(tornado.web.RequestHandler):
    """A course page of a learner's server as Voila serves it: the prelaunch hook first,
    then the page in the language of its address (what the kernel reads)."""

    def get(self) -> None:
        course_page_language(self, None, "")
        self.write(current_language(query=self.request.query, environ={}))


class LoginPage(tornado.web.RequestHandler):
    """A hub page choosing its language as the login's does (PageLanguage)."""

    def get(self) -> None:
        remember_language(self, "/")
        self.write(request_language(self))


@pytest.fixture
def pages(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("JUPYTERHUB_BASE_URL", "/")
    monkeypatch.delenv("TUTOR_LANG", raising=False)
    app = tornado.web.Application(
        [(r"/user/ada/voila/render/.*", CoursePage), (r"/hub/login", LoginPage)]
    )

    class Case(tornado.testing.AsyncHTTPTestCase):
        def get_app(self) -> tornado.web.Application:
            return app

        def runTest(self) -> None:
            pass

    with ThreadPoolExecutor(1) as thread:  # (see test_room_rules.py: its own event loop)
        case = Case()
        thread.submit(case.setUp).result()
        yield lambda path, **headers: thread.submit(
            case.fetch, path, headers=headers, follow_redirects=False, raise_error=False
        ).result()
        thread.submit(case.tearDown).result()


def test_a_course_page_without_lang_takes_the_learners_choice_else_their_browsers(
    pages: Any,
) -> None:
    """The hub's root and a bookmarked lesson have no ``?lang=``: the page is sent on with
    the learner's choice (the cookie a language link or the login set), else their
    browser's language, as the login pages choose it; a page with ``?lang=`` keeps it as
    the learner's choice (for the next visit, and the login pages)."""
    lesson = "/user/ada/voila/render/06_trick_winner.ipynb"
    for accept, cookie, lang in [
        ("ja-JP,ja;q=0.9", "", "ja"),
        ("zh-TW", "", "zh-Hant"),
        ("fr", "", "en"),
        ("ja", "tutor-lang=zh-Hant", "zh-Hant"),
        ("zh-TW", "tutor-lang=en", "en"),
        ("ja", "tutor-lang=xx", "ja"),  # not a language of the tutor: the browser's
    ]:
        headers = {"Accept-Language": accept, **({"Cookie": cookie} if cookie else {})}
        sent = pages(lesson, **headers)
        assert (sent.code, sent.headers["Location"]) == (302, f"{lesson}?lang={lang}"), headers
        login = pages("/hub/login", **headers)
        assert login.body.decode() == lang, headers  # the login pages' rule is the same
    presented = pages(f"{lesson}?present=1", **{"Accept-Language": "ja"})
    assert presented.headers["Location"] == f"{lesson}?present=1&lang=ja"

    chosen = pages(f"{lesson}?lang=ja", **{"Accept-Language": "en"})
    assert chosen.code == 200 and chosen.body.decode() == "ja"
    cookie = SimpleCookie(chosen.headers["Set-Cookie"])["tutor-lang"]
    assert (cookie.value, cookie["path"], cookie["samesite"]) == ("ja", "/", "Lax")
    assert cookie["httponly"] and cookie["expires"]  # kept across visits, not for scripts
    picked = pages("/hub/login?lang=zh-hant", **{"Accept-Language": "ja"})
    assert SimpleCookie(picked.headers["Set-Cookie"])["tutor-lang"].value == "zh-Hant"
    unknown = pages(f"{lesson}?lang=xx")
    assert unknown.code == 200 and "Set-Cookie" not in unknown.headers
