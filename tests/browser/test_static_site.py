"""The course as a static site (``wizard-tutor build-site``), used as learners use it: built
once, served by a plain static file server on 127.0.0.1 (Python's http.server: no kernel,
no tutor code on the server), opened in Chromium with every request outside that origin
aborted and recorded. Python runs in the browser (Pyodide), so every page takes a few
seconds to start; the waits are for conditions, with generous timeouts.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

import tutor.site
from tests.scenarios.learner import feedback_of, give, question_titled
from tutor.display.course import course_entries
from tutor.resources import jupyter_data_dir, notebooks_dir
from tutor.rules.cards import Suit
from tutor.site.build_pages import (
    KERNEL_WORKER_SETTING,
    PAGE_STYLESHEETS,
    SHARED_FOLDER,
    SHARED_STYLESHEET,
)
from tutor.site.build_wheels import SITE_PACKAGES_ARCHIVE
from tutor.teaching.explain import card_name, suit_name
from tutor.teaching.language import LANGUAGE_NAMES
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.progress_events import EVENT_VERSION
from tutor.teaching.quiz import TrickWinnerQuestion
from tutor.teaching.text import text
from tutor.teaching.worked_example import worked_example

from .fixtures import SITE_CONSOLE_ERRORS, StaticSite, reach_every_question, wait_until
from .play_hand import LEGAL_CARD, MESSAGE, after_one_played, ready_to_play

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOAD_TIMEOUT = 240_000  # ms: a page starts Python in the browser, then runs its notebook
ACTION_TIMEOUT = 30_000
PROGRESS_KEY = "wizard-tutor/progress/v1"


@dataclass
class SiteLog:
    """Requests refused for leaving the origin, and the console errors of every page."""

    origin: str
    outside: list[str] = field(default_factory=list)
    served: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.served, "no request was recorded: the log is not attached"
        assert self.outside == [], "requests left the site's origin"
        unexpected = [e for e in self.errors if e.strip() not in SITE_CONSOLE_ERRORS]
        assert unexpected == []


@pytest.fixture
def learner(browser: Any, site: StaticSite) -> Iterator[tuple[Any, SiteLog]]:
    """A browser context of its own (a learner's browser: its own localStorage), where
    every request outside the site's origin is aborted."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    log = SiteLog(origin=site.base)
    own_host = urlparse(site.base).netloc

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if urlparse(url).scheme in ("data", "blob") or urlparse(url).netloc == own_host:
            log.served.append(url)
            request_route.continue_()
        else:
            log.outside.append(url)
            request_route.abort()

    context.route("**/*", route)
    context.on(
        "console",
        lambda message: log.errors.append(message.text) if message.type == "error" else None,
    )
    context.on("weberror", lambda error: log.errors.append(f"page error: {error.error}"))
    try:
        yield context, log
    finally:
        context.close()


def _expect() -> Any:
    from playwright.sync_api import expect

    expect.set_options(timeout=ACTION_TIMEOUT)
    return expect


def _no_error_shown(page: Any) -> None:
    """No traceback, and not the site's short error message either."""
    shown = page.locator("body").inner_text()
    for word in ("Traceback", 'File "/lib/python', "Error:"):
        assert word not in shown, f"{page.url} shows {word!r}"
    for lang in LANGUAGE_NAMES:
        assert text("site-notice.error", lang) not in shown, f"{page.url} reports an error"


def _number(cell: str) -> int:
    match = re.match(r"\s*([+\-−]?\d+)", cell)
    assert match, f"no number in {cell!r}"
    return int(match.group(1).replace("−", "-"))


def _notebooks() -> list[str]:
    """Every page of the site but the course page (the review page too)."""
    return sorted(p.name for p in notebooks_dir().glob("*.ipynb") if p.name != "index.ipynb")


def _trick_questions(lesson: str) -> list[TrickWinnerQuestion]:
    return [q for q in load_lesson(lesson).questions() if isinstance(q, TrickWinnerQuestion)]


def _answer(page: Any, question: TrickWinnerQuestion, lang: str, *, right: bool) -> None:
    """Answer the page's quiz on ``question``; the feedback must be the engine's."""
    expect = _expect()
    labels = [
        text("widgets.pick-card", lang, card=card_name(card, lang), player=name)
        for card, name in zip(question.plays, question.names(), strict=True)
    ]
    choices = "button.tutor-quiz-choice:visible"
    reach_every_question(page, LOAD_TIMEOUT)  # each is built when the learner scrolls to it

    def quiz_with_labels() -> Any:
        """The quiz showing ``labels``, once drawn (the page's widgets appear one by one)."""
        for q in page.locator(".tutor-quiz").all():
            if [t.strip() for t in q.locator(choices).all_inner_texts()] == labels:
                return q
        return None

    quiz = wait_until(quiz_with_labels, LOAD_TIMEOUT, f"a quiz showing the buttons {labels}")
    correct = question.correct_answer()
    answer = correct if right else (correct + 1) % len(question.plays)
    quiz.get_by_role("button", name=labels[answer], exact=True).click()
    feedback = quiz.locator(".quiz-feedback")
    expect(feedback).to_have_count(1)
    expected = question.check(answer, lang)
    assert expected.correct is right
    shown = feedback.inner_text()
    if right:
        assert expected.verdict in shown and expected.answer in shown, shown
        assert expected.explanation in shown, shown
    else:  # a first miss: the engine's hint, not yet the answer
        assert expected.verdict in shown and question.hint(lang) in shown, shown
        assert expected.answer not in shown, shown
    expect(quiz.locator(choices).first).to_be_disabled()


def _answer_whatever_is_asked(quiz: Any) -> None:
    """Give practice's question (of whatever kind) some answer: the first choice picked;
    or the first of several cards selected, then Check; or a number typed, then Enter."""
    choice = quiz.locator("button.tutor-quiz-choice:visible")
    toggle = quiz.locator(".widget-toggle-button:visible")  # several to choose
    number = quiz.locator(".tutor-quiz-number input:visible")
    quiz.locator(
        "button.tutor-quiz-choice:visible, .widget-toggle-button:visible, "
        ".tutor-quiz-number input:visible"
    ).first.wait_for(timeout=LOAD_TIMEOUT)
    if choice.count():
        choice.first.click()
    elif toggle.count():
        toggle.first.click()
        quiz.locator("button.tutor-quiz-check:visible").click()
    else:
        # Enter grades it; no Check after it, which would race the kernel locking the button.
        number.first.fill("0")
        number.first.press("Enter")


# -- the tests -----------------------------------------------------------------------------


def test_the_readme_states_the_size_of_the_site_the_build_makes(site: StaticSite) -> None:
    """The README's "about N MB" next to the build command is this build's size (every file
    of the folder, the gzip copies too, as the build's own report counts it), within 10%."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    stated = re.findall(r"wizard-tutor build-site site/ .*\(about (\d+(?:\.\d+)?) MB\)", readme)
    assert len(stated) == 1, "the README's build command no longer states the site's size"
    size = sum(path.stat().st_size for path in site.folder.rglob("*") if path.is_file()) / 1e6
    assert abs(size - float(stated[0])) <= 0.1 * size, (
        f"the README says about {stated[0]} MB; the build made {size:.1f} MB"
    )


def test_every_page_links_the_app_s_page_scripts_as_files_of_the_site_and_carries_none(
    site: StaticSite,
) -> None:
    """The keyboard, the links, the presenter and the rest of the app's page scripts
    (tutor/app/.../tutor/static), and the site's page.js, are files of the site that every
    page links once, by an address that changes with the file (a new build is not hidden by
    the browser's cache), and carries no copy of: the shared settings first and the widgets'
    recovery before Voici's own script; not tutor-page.js, which watches a server's kernel
    (the site has none)."""
    static = jupyter_data_dir() / "nbconvert" / "templates" / "tutor" / "static"
    scripts = {path.name: path.read_text(encoding="utf-8") for path in static.glob("*.js")}
    scripts["page.js"] = (Path(tutor.site.__file__).parent / "page.js").read_text("utf-8")
    wanted = sorted(set(scripts) - {"tutor-page.js"})
    render = site.folder / "voici" / "render"
    addresses: dict[str, set[str]] = {name: set() for name in wanted}
    for notebook in _notebooks():
        html = (render / notebook.replace(".ipynb", ".html")).read_text(encoding="utf-8")
        assert [name for name in scripts if scripts[name] in html] == [], notebook
        linked = re.findall(r'<script src="([^"]+)"', html)
        at = {}
        for name in wanted:
            links = [link for link in linked if urlparse(link).path.endswith(f"/{name}")]
            assert len(links) == 1 and "v=" in urlparse(links[0]).query, (notebook, links)
            file = (render / urlparse(links[0]).path).resolve()
            assert file.is_relative_to(site.folder.resolve()), links[0]
            assert file.read_text(encoding="utf-8") == scripts[name], links[0]
            addresses[name].add(links[0])
            at[name] = linked.index(links[0])
        assert not [link for link in linked if "tutor-page.js" in link], notebook
        assert min(at, key=at.__getitem__) == "page.js", notebook
        voici = linked.index("../build/voici.js")
        assert at["tutor-settings.js"] < at["tutor-widgets.js"] < voici, notebook
        assert voici < at["tutor-presenter.js"], notebook
    # one copy of each in the site, one address for it on every page
    assert {name: len(found) for name, found in addresses.items()} == dict.fromkeys(wanted, 1)
    names = [path.name for path in site.folder.rglob("*.js")]
    assert {name: names.count(name) for name in wanted} == dict.fromkeys(wanted, 1)


def test_the_wheels_and_the_stdlib_carry_bytecode_of_pyodide_s_python_for_what_pages_import(
    site: StaticSite,
) -> None:
    import zipfile

    folder = site.folder / "static" / "pyodide"
    lock = json.loads((folder / "pyodide-lock.json").read_text())
    # CPython 3.12's magic number (Pyodide 0.27.6's Python), then the flags of
    # unchecked hash-based bytecode (PEP 552)
    header = (3531).to_bytes(2, "little") + b"\r\n" + (1).to_bytes(4, "little")
    compiled: dict[str, list[str]] = {}
    for name in ("wizard-tutor", "ipython", "pygments"):
        with zipfile.ZipFile(folder / lock["packages"][name]["file_name"]) as archive:
            pycs = [n for n in archive.namelist() if n.endswith(".cpython-312.pyc")]
            assert {archive.read(n)[:8] for n in pycs} == {header}
            compiled[name] = pycs
    tutor = compiled["wizard-tutor"]
    assert "tutor/teaching/__pycache__/worked_example.cpython-312.pyc" in tutor
    assert "tutor/display/__pycache__/worked_summary.cpython-312.pyc" in tutor
    assert "IPython/core/__pycache__/interactiveshell.cpython-312.pyc" in compiled["ipython"]
    # what no page imports stays source only (pygments' lexers of other languages, IPython's
    # terminal, which the site's loader leaves to when it is used)
    assert not any("/lexers/rust" in n for n in compiled["pygments"])
    with zipfile.ZipFile(folder / lock["packages"]["prompt-toolkit"]["file_name"]) as archive:
        assert not [n for n in archive.namelist() if n.endswith(".pyc")]
    # the standard library's zip: bytecode in place of the source of what pages import
    with zipfile.ZipFile(folder / "python_stdlib.zip") as archive:
        names = set(archive.namelist())
        pycs = [n for n in names if n.endswith(".pyc")]
        assert {archive.read(n)[:8] for n in pycs} == {header}
    for module in ("encodings/__init__", "inspect", "asyncio/events", "json/decoder"):
        assert f"{module}.pyc" in names and f"{module}.py" not in names, module
    assert "smtplib.py" in names and "smtplib.pyc" not in names


def test_the_front_door_opens_the_index_and_every_page_keeps_the_chosen_language(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    context, log = learner
    expect = _expect()
    page = context.new_page()
    page.goto(f"{site.base}/")
    entries = page.locator(".tutor-course-entry a.tutor-open")
    entries.first.wait_for(timeout=LOAD_TIMEOUT)
    assert page.url.startswith(f"{site.base}/voici/render/index.html")
    course = [entry.file for entry in course_entries(notebooks_dir())]  # the review page aside
    hrefs = entries.evaluate_all("links => links.map(a => a.getAttribute('href'))")  # at once
    assert hrefs == [f"{name.removesuffix('.ipynb')}.html?lang=en" for name in course]

    page.get_by_role("link", name=LANGUAGE_NAMES["ja"], exact=True).click()
    page.wait_for_url(re.compile(r"index\.html\?lang=ja$"))
    expect(page.locator("h1").first).to_have_text(text("course.title", "ja"), timeout=LOAD_TIMEOUT)
    links = page.locator(".tutor-course-entry a").evaluate_all(
        "links => links.map(a => a.getAttribute('href') || '')"
    )
    assert links and all(".html?" in h and h.endswith("lang=ja") for h in links), links

    lesson = load_lesson("06")
    page.get_by_role("link", name=lesson.title("ja"), exact=True).click()
    page.wait_for_url(re.compile(r"06_trick_winner\.html\?lang=ja$"))
    _answer(page, _trick_questions("06")[0], "ja", right=False)
    assert page.evaluate("document.documentElement.lang") == "ja"
    _no_error_shown(page)
    log.assert_clean()


@pytest.mark.parametrize("lang", list(LANGUAGE_NAMES))
def test_a_lesson_quiz_answers_right_and_wrong_in_each_language(
    site: StaticSite, learner: tuple[Any, SiteLog], lang: str
) -> None:
    context, log = learner
    page = context.new_page()
    page.goto(site.page_url("06_trick_winner.ipynb", f"lang={lang}"))
    title = load_lesson("06").title(lang)
    page.get_by_role("heading", level=1, name=title, exact=True).wait_for(timeout=LOAD_TIMEOUT)
    first, second = _trick_questions("06")[:2]
    _answer(page, first, lang, right=True)
    _answer(page, second, lang, right=False)
    _no_error_shown(page)
    log.assert_clean()


def test_the_worked_example_steps_to_the_end_with_the_engine_s_winners_and_totals(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    context, log = learner
    expect = _expect()
    page = context.new_page()
    page.goto(site.page_url("08_worked_example.ipynb"))
    next_button = page.locator("button.tutor-step-next")
    next_button.wait_for(state="visible", timeout=LOAD_TIMEOUT)
    position = page.locator(".tutor-step-position")
    title = page.locator(".tutor-step-page h3")
    # Each step's title is waited for, not read once: the widgets of a step arrive one
    # message at a time, the position before the title.
    titles = [step.title for step in worked_example("en").steps]
    total = len(titles)
    expect(position).to_have_text(f"Step 1 of {total}")
    winners = []
    for step in range(1, total):
        if step % 2:
            next_button.click()
        else:
            page.keyboard.press("ArrowRight")  # the tutor's keys work on the site too
        expect(position).to_have_text(f"Step {step + 1} of {total}")
        expect(title).to_have_text(titles[step])
        found = re.fullmatch(r"Trick \d: (\w) takes it", title.inner_text())
        if found:
            winners.append(found.group(1))
    expect(next_button).to_be_disabled()
    grand_totals = page.locator(".score-sheet .grand-total")

    def shown_totals() -> list[int] | None:
        try:
            return [_number(cell) for cell in grand_totals.all_inner_texts()]
        except AssertionError:  # a cell not drawn yet
            return None

    wait_until(
        lambda: shown_totals() == [40, 10, 0, 30],
        30_000,
        lambda: f"the score sheet's totals 40, 10, 0, 30; shown: {grand_totals.all_inner_texts()}",
    )
    assert winners == ["C", "B", "D"]
    # The last step is not the page's end: the quiz about the example under it is (issue
    # 31). Answered through, it finishes the page, and the course page gives its score.
    questions = load_lesson("08_worked_example").questions()
    for number, question in enumerate(questions, start=1):
        quiz = question_titled(page.locator("body"), number, len(questions), "en")
        give(quiz, question, question.correct_answer(), "en")
        feedback_of(quiz, right=True)
    page.wait_for_function(
        f"(JSON.parse(localStorage.getItem({json.dumps(PROGRESS_KEY)}) || '[]'))"
        ".some(event => event.kind === 'finished' && event.page === '08_worked_example')",
        timeout=ACTION_TIMEOUT,
    )
    page.goto(site.page_url("index.ipynb"))
    worked = page.locator(".tutor-course-entry", has=page.locator('a[href^="08_worked_example"]'))
    done = text("course.status-done", right=len(questions), items=len(questions))
    expect(worked.locator(".tutor-course-status")).to_have_text(f"✓ {done}", timeout=LOAD_TIMEOUT)
    _no_error_shown(page)
    log.assert_clean()


def test_a_page_whose_packages_archive_fails_loads_the_wheels_instead(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    """The loader's way back (tutor/site/loader.js): the archive refused by the server,
    the page installs the same packages from their wheels and works."""
    context, log = learner
    context.route(f"**/{SITE_PACKAGES_ARCHIVE}", lambda route: route.fulfill(status=404))
    expect = _expect()
    page = context.new_page()
    page.goto(site.page_url("08_worked_example.ipynb"))
    total = len(worked_example("en").steps)
    position = page.locator(".tutor-step-position")
    expect(position).to_have_text(f"Step 1 of {total}", timeout=LOAD_TIMEOUT)
    page.locator("button.tutor-step-next").click()
    expect(position).to_have_text(f"Step 2 of {total}")
    _no_error_shown(page)
    wheels = {urlparse(url).path.rsplit("/", 1)[1] for url in log.served if ".whl" in url}
    assert {name.split("-")[0] for name in wheels} >= {"ipython", "wizard_tutor", "ipywidgets"}
    assert log.outside == []


# The loader's memory snapshot (tutor/site/loader.js): its record in the browser's IndexedDB,
# read or changed by the page (same origin) as "read", "another build" or "broken".
SNAPSHOT_RECORD = """async (change) => {
  const database = await new Promise((done, failed) => {
    const opening = indexedDB.open("wizard-tutor-runtime", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("snapshots");
    opening.onsuccess = () => done(opening.result);
    opening.onerror = () => failed(opening.error);
  });
  const store = () => database.transaction("snapshots", "readwrite").objectStore("snapshots");
  const asked = (operation) => new Promise((done) => { operation.onsuccess = () => done(operation.result); });
  const record = await asked(store().get("pyodide"));
  if (change === "read" || !record) return record ? { build: record.build, size: record.heap.size } : null;
  if (change === "another build") record.build = "an-older-build";
  if (change === "broken") record.heap = new Blob([new Uint8Array(4096).fill(7)]);
  await asked(store().put(record, "pyodide"));
  return null;
}"""


def _loader_steps(page: Any) -> set[str]:
    """The steps the site's loader marked in the page's kernel worker."""
    steps: set[str] = set()
    for worker in page.workers:
        try:
            names = worker.evaluate("performance.getEntriesByType('mark').map(m => m.name)")
        except Exception:  # a worker of the page that has gone
            continue
        steps.update(
            n.removeprefix("tutor-loader: ") for n in names if n.startswith("tutor-loader: ")
        )
    return steps


def _worked_example_one_step_on(page: Any, site: StaticSite, lang: str, opens_at: int) -> None:
    """Open the worked example: it opens at step ``opens_at`` (0: the first; later, the
    step the learner reached, read from the browser's store), and Next works."""
    expect = _expect()
    page.goto(site.page_url("08_worked_example.ipynb", f"lang={lang}"))
    steps = worked_example(lang).steps
    title = page.locator(".tutor-step-page h3")
    expect(title).to_have_text(steps[opens_at].title, timeout=LOAD_TIMEOUT)
    page.locator("button.tutor-step-next").click()
    expect(title).to_have_text(steps[opens_at + 1].title)
    _no_error_shown(page)


def test_a_second_visit_starts_from_the_first_s_snapshot_and_never_from_a_foreign_or_broken_one(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    context, log = learner
    build = re.search(
        r'const SITE_BUILD = "(\w+)";',
        (site.folder / "static" / "pyodide" / "tutor-loader.js").read_text(encoding="utf-8"),
    )
    assert build is not None and build.group(1) != "unbuilt"
    page = context.new_page()
    _worked_example_one_step_on(page, site, "en", 0)
    assert {"runtime started", "imports done"} <= _loader_steps(page)
    kept = wait_until(
        lambda: page.evaluate(SNAPSHOT_RECORD, "read"), 60_000, "the first visit's snapshot kept"
    )
    assert kept["build"] == build.group(1) and kept["size"] > 10_000_000

    # the next visit, in another language: restored, and the page's own query is read
    _worked_example_one_step_on(page, site, "ja", 1)  # the place kept, in any language
    steps = _loader_steps(page)
    assert "runtime restored" in steps and "runtime started" not in steps

    # another build's snapshot is not restored; this build's replaces it
    page.evaluate(SNAPSHOT_RECORD, "another build")
    _worked_example_one_step_on(page, site, "en", 2)
    assert "runtime started" in _loader_steps(page)
    wait_until(
        lambda: (page.evaluate(SNAPSHOT_RECORD, "read") or {}).get("build") == build.group(1),
        60_000,
        "this build's snapshot in place of the other's",
    )

    # a broken one: the page starts afresh and works
    page.evaluate(SNAPSHOT_RECORD, "broken")
    _worked_example_one_step_on(page, site, "zh-Hant", 3)
    assert "runtime started" in _loader_steps(page)
    log.assert_clean()


# The marks the page's script and the site's loader leave (tutor/site/page.js, loader.js),
# each with its time since the page's own time origin (the worker's origin is its own).
PAGE_MARKS = """() => performance.getEntriesByType("mark")
  .filter((m) => m.name.startsWith("tutor-page: "))
  .map((m) => [m.name.slice("tutor-page: ".length), m.startTime + performance.timeOrigin])"""
WORKER_MARKS = """() => performance.getEntriesByType("mark")
  .filter((m) => m.name.startsWith("tutor-loader: "))
  .map((m) => [m.name.slice("tutor-loader: ".length), m.startTime + performance.timeOrigin])"""


def _kernel_marks(page: Any) -> list[tuple[str, float]]:
    """The loader's marks in the page's kernel worker (the one that has them), in order."""
    for worker in page.workers:
        try:
            marks = worker.evaluate(WORKER_MARKS)
        except Exception:  # a worker of the page that has gone
            continue
        if marks:
            return sorted(((name, when) for name, when in marks), key=lambda mark: mark[1])
    raise AssertionError("no worker of the page has the loader's marks")


def test_the_kernel_s_runtime_starts_with_the_page_before_the_front_end_asks_for_it(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    """page.js starts the kernel's worker and the runtime at once; Voici's front end, when
    it asks for the kernel, is handed that worker, and the kernel the start under way."""
    context, log = learner
    page = context.new_page()
    _worked_example_one_step_on(page, site, "en", 0)
    asked = dict(page.evaluate(PAGE_MARKS))
    marks = _kernel_marks(page)
    names = [name for name, _ in marks]
    assert "kernel's worker asked for" in asked
    assert names.count("loader started") == 1  # one start, the early one
    assert "early start taken" in names and "runtime started" in names
    started = dict(marks)["loader started"]
    assert started < asked["kernel's worker asked for"] <= dict(marks)["kernel asked"]
    log.assert_clean()


# Given to the page before its scripts: the early worker's options made to differ from
# what the kernel will ask for (another language), as a page.js out of step would.
OTHER_EARLY_OPTIONS = """(() => {
  const PageWorker = window.Worker;
  const prefix = "tutor-early-start:";
  function Worker(url, options) {
    if (options && typeof options.name === "string" && options.name.startsWith(prefix)) {
      const early = JSON.parse(options.name.slice(prefix.length));
      early.options.env.QUERY_STRING = "lang=ja";
      options = Object.assign({}, options, { name: prefix + JSON.stringify(early) });
    }
    return new PageWorker(url, options);
  }
  Worker.prototype = PageWorker.prototype;
  window.Worker = Worker;
})();"""


def _kernel_worker_script(site: StaticSite) -> str:
    """The file name of JupyterLite's kernel worker script, as the site's pages name it."""
    page = (site.folder / "voici" / "render" / "08_worked_example.html").read_text("utf-8")
    found = re.search(rf'"{KERNEL_WORKER_SETTING}": "([^"]+)"', page)
    assert found, "the page config names no kernel worker script"
    return found.group(1).rsplit("/", 1)[1]


@pytest.mark.parametrize(
    "failing",
    ["the loader missing", "JupyterLite's worker script missing, late", "other options"],
)
def test_a_page_whose_early_start_fails_starts_its_kernel_as_it_would_without(
    site: StaticSite, learner: tuple[Any, SiteLog], failing: str
) -> None:
    """The early start's ways back: its script not served, before the front end asks for
    the kernel (the worker is ended, the front end makes its own) or after (what the front
    end sent it goes to a worker made in its place), or begun with options the kernel
    does not ask for (the kernel's own start, with the page's language, in that worker)."""
    context, log = learner
    refused: list[str] = []
    held: list[Any] = []
    if failing == "other options":
        context.add_init_script(OTHER_EARLY_OPTIONS)
    elif failing == "the loader missing":

        def refuse_first(route: Any) -> None:
            if refused:
                route.fallback()
            else:
                refused.append(route.request.url)
                route.fulfill(status=404, body="")

        context.route("**/tutor-loader.js", refuse_first)
    else:  # the early worker's request only: the kernel's own adds a query (?v=)
        context.route(f"**/{_kernel_worker_script(site)}", lambda route: held.append(route))
    expect = _expect()
    page = context.new_page()
    page.goto(site.page_url("08_worked_example.ipynb", "lang=en"))
    if held:  # answered once the front end has asked for the kernel's worker
        wait_until(
            lambda: "kernel's worker asked for" in dict(page.evaluate(PAGE_MARKS)),
            LOAD_TIMEOUT,
            "the front end asking for the kernel's worker",
        )
        held[0].fulfill(status=404, body="")
        refused.append(held[0].request.url)
    steps = worked_example("en").steps  # English: the kernel's options
    title = page.locator(".tutor-step-page h3")
    expect(title).to_have_text(steps[0].title, timeout=LOAD_TIMEOUT)
    page.locator("button.tutor-step-next").click()
    expect(title).to_have_text(steps[1].title)
    _no_error_shown(page)
    marks = _kernel_marks(page)
    assert "early start taken" not in dict(marks)
    starts = [when for name, when in marks if name == "loader started"]
    asked = [when for name, when in marks if name == "kernel asked"]
    if failing == "other options":  # the early start, then the kernel's own, in one worker
        assert len(starts) == 2 and len(asked) == 1 and starts[0] < asked[0] < starts[1]
    else:  # the early worker ended: the kernel's own started when it asked
        assert len(refused) == 1 and len(held) <= 1
        assert [name for name, _ in marks[:2]] == ["kernel asked", "loader started"]
    assert log.outside == []
    refusal = "Failed to load resource: the server responded with a status of 404"
    unexpected = [e for e in log.errors if e.strip() not in SITE_CONSOLE_ERRORS]
    assert all(refusal in e for e in unexpected), unexpected


def test_presenter_mode_works_on_the_site_in_japanese(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    context, log = learner
    expect = _expect()
    page = context.new_page()
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(site.page_url("08_worked_example.ipynb", "present=1&lang=ja"))
    expect(page.locator(".tutor-present-bar")).to_be_visible(timeout=LOAD_TIMEOUT)
    expect(page.locator(".tutor-stepper.tutor-present")).to_have_count(1, timeout=LOAD_TIMEOUT)
    # the bar's Next is named "次へ"; on a slide that asks the room it also says it shows the answer
    expect(page.locator(".tutor-present-next")).to_have_accessible_name(text("present.next", "ja"))
    assert page.evaluate("document.documentElement.lang") == "ja"
    position = page.locator(".tutor-step-position")
    first = position.inner_text()
    # a slide that asks the room shows its answer on the first press, then moves on
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(position).not_to_have_text(first)
    _no_error_shown(page)
    log.assert_clean()


def _red_trump_button(page: Any) -> Any:
    """The button choosing red as trump (shown when the dealer, the learner, turns a Wizard)."""
    return page.get_by_role(
        "button",
        name=text(
            "play-screen.trump-button", "en", colour=suit_name(Suit.RED), letter=Suit.RED.value
        ),
    )


def _play_screen_bid_zero(site: StaticSite, context: Any) -> Any:
    """The play screen opened in a new page of ``context``, the learner's bid 0 made."""
    expect = _expect()
    page = context.new_page()
    page.goto(site.page_url("11_play_a_round.ipynb"))
    page.locator(".tutor-play-table .tutor-felt").first.wait_for(timeout=LOAD_TIMEOUT)
    # The deal is random and the learner deals first: one deal in fourteen turns up a
    # Wizard, and then the learner chooses trump before anyone bids. Both screens wait
    # for the learner, so whichever shows stays.
    bid = page.get_by_role("button", name=text("play-screen.bid-button", "en", bid=0))
    trump = _red_trump_button(page)
    expect(bid.or_(trump).first).to_be_visible(timeout=LOAD_TIMEOUT)
    if trump.is_visible():
        trump.click()
    bid.click(timeout=ACTION_TIMEOUT)
    return page


def test_a_card_is_played_on_the_play_screen_against_the_bots(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    context, log = learner
    page = _play_screen_bid_zero(site, context)
    # the whole hand marked first: a card found half-way could still lack its ✕
    held = ready_to_play(page, "en", ACTION_TIMEOUT)
    card = page.locator(LEGAL_CARD).first
    name = card.inner_text().strip()
    said = page.locator(MESSAGE).inner_text()
    card.click()
    # the card left the hand, and the engine's judgement names it and approves it
    now = after_one_played(page, held, said, "en", ACTION_TIMEOUT)
    assert Counter(held) - Counter(now) == Counter([name])
    _no_error_shown(page)
    log.assert_clean()


def test_every_page_of_the_course_runs_in_the_browser_without_an_error(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    """Each page until its last cell's output is on the screen; lesson 07 draws the score
    chart (an SVG drawn by the tutor: no Matplotlib in the browser). Every page is styled
    by the site's one stylesheet, which it links, and carries no copy of it."""
    context, log = learner
    page = context.new_page()
    shared = (site.folder / SHARED_STYLESHEET).read_text(encoding="utf-8")
    parts = [part.strip()[:400] for part in re.split(r"/\* static/\S+ \*/", shared)[1:]]
    assert len(parts) == len(PAGE_STYLESHEETS) and all(parts)
    for notebook in _notebooks():
        html = (site.folder / "voici/render" / notebook.replace(".ipynb", ".html")).read_text()
        assert [part for part in parts if part in html] == [], f"{notebook} carries the CSS"
        page.goto(site.page_url(notebook))
        page.locator("#rendered_cells").wait_for(state="visible", timeout=LOAD_TIMEOUT)
        rules = page.evaluate(
            "(name) => [...document.styleSheets]"
            ".filter(s => s.href && new URL(s.href).pathname.endsWith(name))"
            ".map(s => s.cssRules.length)",
            SHARED_STYLESHEET,
        )
        assert len(rules) == 1 and rules[0] > 1000, f"{notebook}: {rules}"
        # JupyterLab's light theme (in the shared file) sets the page's colours
        assert page.evaluate(
            "getComputedStyle(document.body).getPropertyValue('--jp-layout-color0').trim()"
        ) in ("white", "#fff", "#ffffff")
        page.wait_for_function(
            "() => !document.querySelector('#rendered_cells .jp-Cell:not(.jp-mod-noOutputs)"
            " .jp-OutputArea:empty') && window.voila_finished !== false",
            timeout=LOAD_TIMEOUT,
        )
        _no_error_shown(page)
        if notebook.startswith("07_"):
            page.locator("svg.score-chart-svg").first.wait_for(timeout=LOAD_TIMEOUT)
    log.assert_clean()
    # every page's packages came in the site's one archive (tutor/site/loader.js), none
    # of them wheel by wheel, the loader's way back if the archive fails
    paths = [urlparse(url).path for url in log.served]
    assert any(path.endswith(f"/{SITE_PACKAGES_ARCHIVE}") for path in paths)
    # the pages' scripts and stylesheet came from the site's shared files, by their versions
    shared_files = {
        urlparse(url).path.rsplit("/", 1)[1]
        for url in log.served
        if f"/{SHARED_FOLDER}/" in url and "v=" in urlparse(url).query
    }
    assert {"page.css", "page.js", "tutor-settings.js", "tutor-keys.js"} <= shared_files
    assert [path for path in paths if path.endswith(".whl")] == []


def test_practice_keeps_the_learner_s_progress_in_the_browser_across_a_reload(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    """The answer goes to the browser's localStorage (the progress store's browser backend,
    an anywidget), and the reloaded page's Python reads it back: the tally is kept."""
    context, log = learner
    expect = _expect()
    page = context.new_page()
    page.goto(site.page_url("09_practice.ipynb"))
    tally = page.locator(".practice-tally")
    expect(tally).to_contain_text(text("practice.tally-empty"), timeout=LOAD_TIMEOUT)
    _answer_whatever_is_asked(page.locator(".tutor-quiz").first)
    page.wait_for_function(
        f"(JSON.parse(localStorage.getItem({json.dumps(PROGRESS_KEY)}) || '[]')).length == 1",
        timeout=ACTION_TIMEOUT,
    )
    expect(tally).not_to_contain_text(text("practice.tally-empty"))
    rows = tally.locator("li").all_inner_texts()
    assert len(rows) == 1 and re.search(r": (1 right, 0 wrong|0 right, 1 wrong)$", rows[0]), rows
    page.reload()
    expect(tally.locator("li")).to_have_text(rows, timeout=LOAD_TIMEOUT)
    stored = json.loads(page.evaluate(f"localStorage.getItem({json.dumps(PROGRESS_KEY)})"))
    assert [(event["kind"], event["v"]) for event in stored] == [("practice", EVENT_VERSION)]
    _no_error_shown(page)
    log.assert_clean()


# -- what a page hides and shows again --------------------------------------------------------
# The site's Python sends a widget's "show again" (layout.display None) as the browser's
# null, as the app's kernel does: these reach what only appears after something was hidden.


def test_a_wrong_answer_is_tried_again_then_answered_right_on_the_site(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    context, log = learner
    expect = _expect()
    page = context.new_page()
    page.goto(site.page_url("06_trick_winner.ipynb"))
    question = _trick_questions("06")[0]
    _answer(page, question, "en", right=False)
    quiz = page.locator(".tutor-quiz").filter(has=page.locator(".quiz-feedback")).first
    try_again = quiz.get_by_role("button", name=text("widgets.try-again", "en"), exact=True)
    expect(try_again).to_be_visible()
    try_again.click()
    expect(try_again).to_be_hidden()
    expect(quiz.locator(".quiz-feedback")).to_have_count(0)
    _answer(page, question, "en", right=True)
    expect(try_again).to_be_hidden()
    _no_error_shown(page)
    log.assert_clean()


def test_practice_asks_the_next_question_after_each_answer_on_the_site(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    context, log = learner
    expect = _expect()
    page = context.new_page()
    page.goto(site.page_url("09_practice.ipynb"))
    quiz = page.locator(".tutor-quiz").first
    next_button = quiz.locator("button.tutor-quiz-next")
    for answered in range(1, 4):
        # the question's own controls, unlocked (not the last question's, locked)
        quiz.locator(
            "button.tutor-quiz-choice:enabled:visible, .widget-toggle-button:enabled:visible, "
            ".tutor-quiz-number input:enabled:visible"
        ).first.wait_for(timeout=LOAD_TIMEOUT)
        _answer_whatever_is_asked(quiz)
        expect(quiz.locator(".quiz-feedback")).to_have_count(1)
        expect(next_button).to_be_visible()
        next_button.click()
        # a fresh question: no feedback, Next hidden until it is answered
        expect(quiz.locator(".quiz-feedback")).to_have_count(0)
        expect(next_button).to_be_hidden()
        page.wait_for_function(
            f"(JSON.parse(localStorage.getItem({json.dumps(PROGRESS_KEY)}) || '[]')).length"
            f" == {answered}",
            timeout=ACTION_TIMEOUT,
        )
    _no_error_shown(page)
    log.assert_clean()


def test_the_play_screen_deals_the_next_round_and_opens_the_settings_on_the_site(
    site: StaticSite, learner: tuple[Any, SiteLog]
) -> None:
    """Round 1 (one card each) played to its end: the round's results, the last trick and
    the replay appear, "Deal the next round" deals round 2, and the settings open."""
    context, log = learner
    expect = _expect()
    page = _play_screen_bid_zero(site, context)
    ready_to_play(page, "en", ACTION_TIMEOUT)
    page.locator(LEGAL_CARD).first.click()

    next_round = page.get_by_role("button", name=text("play-screen.next-round", "en"))
    expect(next_round).to_be_visible()
    expect(page.get_by_text(text("play-screen.turn-over", "en"))).to_be_visible()
    expect(
        page.get_by_role("heading", name=text("play-screen.trick-last", "en", number=1))
    ).to_be_visible()
    replay = page.locator(".widget-dropdown").filter(has_text=text("play-screen.replay-trick"))
    expect(replay.locator("select")).to_be_visible()
    next_round.click()
    expect(next_round).to_be_hidden()
    expect(page.locator(".tutor-play-status")).to_contain_text("Round 2 of")
    two = page.get_by_role("button", name=text("play-screen.bid-button", "en", bid=2))
    expect(two.or_(_red_trump_button(page)).first).to_be_visible()

    settings = page.locator(".tutor-play-settings")
    expect(settings).to_be_hidden()
    page.get_by_role("button", name=text("play-screen.settings", "en")).click()
    expect(settings).to_be_visible()
    expect(settings.get_by_role("button", name=text("play-screen.start", "en"))).to_be_visible()
    _no_error_shown(page)
    log.assert_clean()
