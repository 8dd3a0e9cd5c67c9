"""The hub's pages in the learner's language, without a hub: JupyterHub's page.html gets
its ``<html lang>`` from the page (not the hard-coded "en"), and every authenticator the
deployment offers shows the tutor's login page. (The pages themselves in Chromium:
test_hub_page_languages.py, test_hub_login_languages.py.)"""

from __future__ import annotations

from pathlib import Path

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader
from jupyterhub._data import DATA_FILES_PATH

from tutor.hub.login import (
    TutorAuthenticator,
    TutorPAMAuthenticator,
    TutorSharedPasswordAuthenticator,
)
from tutor.hub.login_pages import HubLoginHandler, TutorLoginHandler
from tutor.hub.page_language import HARD_CODED_LANG, PageLanguageLoader

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
