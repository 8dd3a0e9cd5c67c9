"""A class on a real JupyterHub as deploy/hub.sh starts it by default (each learner's own
password: NativeAuthenticator plus the tutor's failed-login limits), with two learners and
a teacher in Chromium, on 127.0.0.1 only:

- each learner signs up with a password of their own; one cannot log in as the other, and
  an unlisted name waits for the teacher's approval;
- the sixth wrong password in a row waits (the log names the name and the address), and
  the right one is taken once the wait is over; the teacher (and only the teacher)
  resets a forgotten password and approves the unlisted name;
- the answers a learner's server finds in the learner's progress file reach the teacher's
  page (tutor/hub/teacher_service.py), exactly, each once, and only under that learner;
  so does where a learner is in the worked example (the latest step, on a laptop's and a
  phone's screen);
  a learner cannot open that page; a restarted service keeps every result and receives
  what was answered while it was down;
- Voila's page-close kernel shutdown asks the server's authorizer; no password is in the
  hub's environment block, no hub token in a server's or kernel's; and each server still
  reports its activity to the hub with its token.

Runs in the test command (markers ``hub``, ``browser``, ``slow``). About 1.5 minutes on
2 cores.
"""

from __future__ import annotations

import json
import re
import secrets
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest
from browser.fixtures import reach_question, wait_until

from tutor.hub.class_progress import WORKED_EXAMPLE_PAGE, stepped_pages
from tutor.teaching.lesson_loader import load_lesson
from tutor.teaching.progress_events import StepEvent
from tutor.teaching.text import text

from .hub_harness import INDEX_PAGE, RunningHub, is_loopback_url, running_hub
from .hub_pages import log_in

pytestmark = [pytest.mark.hub, pytest.mark.browser, pytest.mark.slow]

TEACHER = "teach"
LEARNERS = ("ada", "bo")
PASSWORDS = {name: f"{name}-{secrets.token_urlsafe(9)}" for name in (TEACHER, *LEARNERS)}
SERVICE_PAGE = "services/class-results/"
PAGE_TIMEOUT_MS = 180_000
"""ms a page of the hub or a learner's server may take, its kernel with it: two servers,
their kernels and the other worker's tests share 2 cores."""
REPORT_TIMEOUT_MS = 240_000
"""ms for what a learner's server reports to reach the teacher's page. A server reports
every 2 s; the deadline is for a loaded machine, and a test waits for the report itself."""


def event(
    kind: str,
    topic: str,
    correct: bool,
    *,
    lesson: str | None = None,
    item: str | None = None,
    first_try: bool = True,
) -> dict[str, Any]:
    """A progress event as the contract writes it (docs/progress.md; version 1 is still read)."""
    return {
        "v": 1,
        "id": uuid.uuid4().hex,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "kind": kind,
        "lesson": lesson,
        "item": item,
        "topic": topic,
        "correct": correct,
        "first_try": first_try,
    }


@pytest.fixture(scope="module")
def class_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningHub]:
    with running_hub(
        tmp_path_factory.mktemp("class-hub"),
        auth="native",
        password="",
        admins=[TEACHER],
        admin_password=PASSWORDS[TEACHER],
        learners=LEARNERS,
        # each server reports its activity to the hub every 10 s (default 300 s)
        extra_config='c.Spawner.environment["JUPYTERHUB_ACTIVITY_INTERVAL"] = "10"',
    ) as hub:
        yield hub


class Person:
    """One person's browser context (their own cookies) and page."""

    def __init__(self, name: str, hub: RunningHub, browser: Any) -> None:
        self.name = name
        self.hub = hub
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.requests: list[str] = []
        self.context.route(
            "**/*",
            lambda route: (
                route.continue_() if is_loopback_url(route.request.url) else route.abort()
            ),
        )
        self.page = self.new_page()

    def new_page(self) -> Any:
        page = self.context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        page.on("request", lambda request: self.requests.append(request.url))
        return page

    def sign_up(self, name: str, password: str) -> str:
        """Sign up on the hub's sign-up page; the message it answers with."""
        page = self.page
        page.goto(f"{self.hub.url}/hub/signup")
        page.fill("#username_input", name)
        page.fill("#password_input", password)
        page.fill("#password_confirmation_input", password)
        page.click("#signup_submit")
        page.wait_for_load_state()
        return str(page.locator(".alert").inner_text())

    def log_in(self, name: str, password: str, next_path: str = "") -> Any:
        """Submit the login form; the response to the form's POST."""
        return log_in(self.page, self.hub.url, name, password, next_path)

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def people(class_hub: RunningHub, browser: Any) -> Iterator[dict[str, Person]]:
    everyone = {name: Person(name, class_hub, browser) for name in (TEACHER, *LEARNERS)}
    yield everyone
    for person in everyone.values():
        person.close()


def progress_file(hub: RunningHub, learner: str) -> Path:
    """Where the tutor writes ``learner``'s answers on this hub (their home folder, under
    the hub's state folder, and the contract's default path in it)."""
    return hub.state_dir / "learners" / learner / ".wizard-tutor" / "progress.jsonl"


def append_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        for line in lines:
            handle.write(line + "\n")


def shows(page: Any, words: str) -> None:
    """Wait until ``page`` (the document the last navigation brought) says ``words``."""
    page.locator("body").filter(has_text=words).wait_for(timeout=PAGE_TIMEOUT_MS)


def results_page(teacher: Person, lang: str = "") -> dict[str, Any]:
    """The teacher's page, reloaded, read as a person reads it: each table by learner and
    column heading, and the list of most-missed topics."""
    page = teacher.page
    response = page.goto(f"{teacher.hub.url}/{SERVICE_PAGE}" + (f"?lang={lang}" if lang else ""))
    assert response is not None and response.status == 200, response and response.status
    shown = dict(
        page.evaluate(
            """() => {
              const table = (id) => {
                const t = document.getElementById(id);
                if (!t) return null;
                const heads = [...t.tHead.rows[0].cells].map((c) => c.innerText.trim());
                const rows = {};
                for (const row of t.tBodies[0].rows) {
                  const cells = [...row.cells].map((c) => c.innerText.trim());
                  rows[cells[0]] = Object.fromEntries(heads.slice(1).map((h, i) => [h, cells[i + 1]]));
                }
                return rows;
              };
              const missed = document.getElementById('most-missed');
              return {lessons: table('lesson-results'), practice: table('practice-results'),
                      places: table('step-places'),
                      missed: missed ? [...missed.children].map((li) => li.innerText.trim()) : []};
            }"""
        )
    )
    assert shown["lessons"] is not None, f"not the teacher's page: {page.url} ({page.title()!r})"
    return shown


def wait_for(check: Callable[[], Any], what: str, timeout_ms: float = REPORT_TIMEOUT_MS) -> Any:
    """What ``check()`` returns once it is true, tried every second (a try may reload a
    page); after ``timeout_ms``, an AssertionError naming ``what``."""
    return wait_until(check, timeout_ms, what, every=1)


def cells(shown: dict[str, Any], table: str, learner: str) -> dict[str, str]:
    """The row of ``learner`` in ``table`` of the teacher's page as :func:`results_page`
    read it, by column heading (empty while the page has no such table or row yet)."""
    return dict((shown[table] or {}).get(learner, {}))


def lesson_heading(lesson_id: str) -> str:
    lesson = load_lesson(lesson_id)
    return f"{lesson.number}. {lesson.title()}"


def topic_name(topic: str) -> str:
    return text(f"practice-topic.{topic}")


def service_process(hub: RunningHub) -> psutil.Process:
    for proc in psutil.Process(hub.process.pid).children(recursive=True):
        try:
            if "tutor.hub.teacher_service" in " ".join(proc.cmdline()):
                return proc
        except psutil.NoSuchProcess:
            continue
    raise AssertionError("the class-results service is not running under the hub")


# -- identity ---------------------------------------------------------------------------------


def test_each_learner_has_a_password_of_their_own(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    for name in LEARNERS:
        message = people[name].sign_up(name, PASSWORDS[name])
        assert "successful" in message, message  # listed: approved at once
    # A name is taken once: nobody can sign up again as ada and choose a new password.
    again = people["bo"].sign_up("ada", PASSWORDS["bo"])
    assert "already in use" in again, again
    # bo cannot log in as ada with his own password (nor does ada's server start).
    response = people["bo"].log_in("ada", PASSWORDS["bo"])
    assert response.status == 403
    assert "/hub/login" in people["bo"].page.url
    assert not class_hub.server_ready("ada")
    # Each logs in with their own and lands on the course index in their own server, in
    # the login page's language (the hub passes the login's ?lang= on to the next page).
    for name in LEARNERS:
        people[name].log_in(name, PASSWORDS[name])
    for name in LEARNERS:
        page = people[name].page
        page.wait_for_url(f"**/user/{name}/{INDEX_PAGE}?lang=en", wait_until="commit")
        page.wait_for_selector("a[href='08_worked_example.ipynb?lang=en']")
    # An unlisted name may sign up, but waits for a teacher's approval.
    stranger = Person("mallory", class_hub, people["ada"].context.browser)
    try:
        assert "sent to the admin" in stranger.sign_up("mallory", "mallory-pass-1")
        response = stranger.log_in("mallory", "mallory-pass-1")
        assert response.status == 403
        shows(stranger.page, "has not been authorized")
    finally:
        stranger.close()


def test_the_sixth_wrong_password_in_a_row_waits(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    guesser = Person("guesser", class_hub, people["ada"].context.browser)
    try:
        for attempt in range(1, 6):
            response = guesser.log_in("bo", f"wrong-{attempt}")
            assert response.status == 403, (attempt, response.status)
            shows(guesser.page, "Invalid username or password")
        # The sixth try waits, even with the right password (it is not even checked).
        response = guesser.log_in("bo", PASSWORDS["bo"])
        assert response.status == 429
        shows(guesser.page, "Too many failed logins. Please wait")
        shown = guesser.page.inner_text("body")
        told = re.search(r"Too many failed logins\. Please wait (\d+) seconds", shown)
        assert told, shown
        assert 0 < int(told[1]) <= 10  # the deployed first wait
        log = class_hub.log_path.read_text(errors="replace")
        assert "Failed login: name 'bo' from address 127.0.0.1 (5 in a row" in log
        assert "Login refused without checking: name 'bo' from address 127.0.0.1" in log
        # Another name from the same address is not held up (a class shares addresses)...
        assert guesser.log_in("ada", "wrong-again").status == 403
        # ...and once the wait is over, the right password is taken.
        time.sleep(int(told[1]) + 0.5)
        response = guesser.log_in("bo", PASSWORDS["bo"])
        assert response.status == 302, response.status
    finally:
        guesser.close()


# -- the teacher's page -----------------------------------------------------------------------


def test_the_teacher_sees_exactly_what_a_learners_server_reported(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    """The answers in ada's progress file, written as the contract says (two open pages
    appending in turn, one line not an event, the worked example's steps between them),
    reach the teacher's page exactly once; the steps are no results and break nothing."""
    page_one = [
        event(
            "quiz",
            "wizard-after-number",
            True,
            lesson="06_trick_winner",
            item="quiz-second-wizard-loses",
        ),
        event("practice", "score", False),
        event("practice", "score", True),
    ]
    page_two = [
        event("quiz", "trump-vs-led", False, lesson="06_trick_winner", item="quiz-trump-beats-led"),
        event(
            "quiz",
            "trump-vs-led",
            True,
            lesson="06_trick_winner",
            item="quiz-trump-beats-led",
            first_try=False,
        ),
        event("practice", "jester-lead", True),
    ]
    path = progress_file(class_hub, "ada")
    append_lines(path, [json.dumps(page_one[0]), json.dumps(page_two[0])])
    append_lines(path, ["{not an event", json.dumps(page_one[1]), json.dumps(page_two[1])])
    steps = [StepEvent("08_worked_example", step, 21).to_json() for step in (2, 3, 2)]
    append_lines(path, [json.dumps(step) for step in steps])
    append_lines(path, [json.dumps(page_one[2]), json.dumps(page_two[2])])

    teacher = people[TEACHER]
    response = teacher.log_in(TEACHER, PASSWORDS[TEACHER], next_path=SERVICE_PAGE)
    assert response.status == 302
    teacher.page.wait_for_url(f"**/{SERVICE_PAGE}")
    six = lesson_heading("06_trick_winner")

    def reported() -> Any:
        shown = results_page(teacher)
        return (
            shown
            if cells(shown, "lessons", "ada").get(six, "—") != "—" and shown["practice"]
            else None
        )

    shown = wait_for(reported, "ada's answers on the teacher's page")
    # Lesson 06: two of its quiz items answered, one right at the first try.
    items = len(load_lesson("06_trick_winner").quiz)
    assert shown["lessons"]["ada"][six] == f"2 of {items} answered, 1 right"
    assert [cell for heading, cell in shown["lessons"]["ada"].items() if heading != six] == [
        "—"
    ] * (len(shown["lessons"]["ada"]) - 1)
    assert shown["practice"]["ada"] == {
        topic_name("jester-lead"): "1 of 1 right (100%)",
        topic_name("score"): "1 of 2 right (50%)",
    }
    # bo answered nothing: nothing of ada's shows under bo.
    assert set(shown["lessons"]["bo"].values()) == {"—"}
    assert set(shown["practice"]["bo"].values()) == {"—"}
    assert TEACHER not in shown["lessons"]  # the teacher is no learner
    # where ada is in the worked example: her latest step (she went back to 2), bo nowhere
    worked = text("teacher-places.worked-example")
    assert shown["places"] == {"ada": {worked: "Step 2 of 21"}, "bo": {worked: "—"}}
    assert shown["missed"] == [  # as many wrong; the larger share wrong first
        f"{topic_name('trump-vs-led')}: 1 wrong of 1 first tries",
        f"{topic_name('score')}: 1 wrong of 2 first tries",
    ]
    log = class_hub.log_path.read_text(errors="replace")
    assert f"{path}, line 3: not a progress event, skipped" in log
    assert [url for url in teacher.requests if not is_loopback_url(url)] == []


def test_a_learner_cannot_open_the_teachers_page_nor_report_for_another(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    ada = people["ada"]
    tab = ada.new_page()
    response = tab.goto(f"{class_hub.url}/{SERVICE_PAGE}")
    assert response is not None and response.status == 403
    assert "Traceback" not in tab.content()
    tab.close()
    # With her own browser cookies she cannot report answers either (only her server's
    # token can, and it reports only hers).
    forged = ada.context.request.post(
        f"{class_hub.url}/{SERVICE_PAGE}api/events",
        data=json.dumps({"events": [event("practice", "score", False)]}),
        headers={"Content-Type": "application/json"},
        max_redirects=0,
    )
    assert forged.status in (302, 403), forged.status
    # A token of bo's, sending a report: it counts for bo only, and a malformed report
    # is refused whole with a message naming the field, nothing kept.
    token = class_hub.user_token("bo")
    bad = ada.context.request.post(
        f"{class_hub.url}/{SERVICE_PAGE}api/events",
        data=json.dumps({"events": [event("practice", "score", True), {"v": 1, "id": "x"}]}),
        headers={"Authorization": f"token {token}", "Content-Type": "application/json"},
    )
    assert bad.status == 400
    assert "event 2 of the report: event field 'id' is 'x'" in bad.json()["message"]
    shown = results_page(people[TEACHER])
    assert set(shown["practice"]["bo"].values()) == {"—"}


def test_the_service_restarted_keeps_every_result(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    before = results_page(people[TEACHER])
    service = service_process(class_hub)
    service.send_signal(signal.SIGKILL)  # the worst case: no chance to save anything
    # Answered while the service is down: ada's server keeps trying until it is back.
    append_lines(progress_file(class_hub, "ada"), [json.dumps(event("practice", "bidding", False))])

    def restarted() -> bool:
        try:
            return service_process(class_hub).pid != service.pid
        except AssertionError:
            return False

    wait_for(restarted, "the hub restarting the class-results service")

    def with_bidding() -> Any:
        try:
            shown = results_page(people[TEACHER])
        except AssertionError:  # 503 from the proxy until the new process listens
            return None
        return shown if topic_name("bidding") in cells(shown, "practice", "ada") else None

    after = wait_for(with_bidding, "the answer given while the service was down")
    assert after["lessons"] == before["lessons"]
    assert after["practice"]["ada"] == {
        **before["practice"]["ada"],
        topic_name("bidding"): "0 of 1 right (0%)",
    }


def test_a_learner_answers_in_the_browser_and_the_teacher_sees_exactly_that(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    bo = people["bo"]
    page = bo.page
    lesson = load_lesson("06_trick_winner")
    page.goto(f"{class_hub.url}/user/bo/voila/render/06_trick_winner.ipynb")
    # The first quiz item answered right, the second wrong (the engine knows which), each
    # scrolled to first: a question is built when the learner reaches it.
    for index, right in ((0, True), (1, False)):
        quiz = reach_question(page, index, PAGE_TIMEOUT_MS)
        question = lesson.quiz[index].question
        choice = question.correct_answer()
        if not right:
            choice = next(c for c in question.choices() if c != choice)
        label = question.choice_label(choice)
        quiz.get_by_role("button", name=label, exact=True).click()
        quiz.locator(".tutor-quiz-feedback").filter(has_text=re.compile(".")).wait_for()
    # Three practice questions, each answered with its first choice.
    page.goto(f"{class_hub.url}/user/bo/voila/render/09_practice.ipynb")
    practice = page.locator(".tutor-quiz").last  # the practice quiz, below the lesson
    choice = practice.locator(".tutor-quiz-choice:not([disabled])")
    toggle = practice.locator(".widget-toggle-button:not([disabled])")  # several to choose
    number_box = practice.locator(".tutor-quiz-number input:not([disabled])")
    feedback = practice.locator(".tutor-quiz-feedback")
    for number in range(3):
        practice.locator(
            ".tutor-quiz-choice:not([disabled]), .widget-toggle-button:not([disabled]), "
            ".tutor-quiz-number input:not([disabled])"
        ).first.wait_for()
        if choice.count():
            choice.first.click()
        elif toggle.count():
            toggle.first.click()
            practice.locator(".tutor-quiz-check").click()
        else:
            number_box.fill("1")
            number_box.press("Enter")
        feedback.filter(has_text=re.compile(".")).wait_for()
        if number < 2:
            practice.locator(".tutor-quiz-next").click()
            feedback.filter(has_text=re.compile("^$")).wait_for(state="attached")  # the next one

    # What bo's own page says about his practice, topic by topic ("Scoring: 1 right, 0 wrong").
    # The tally follows the last feedback in its own update: read it once it counts three.
    def read_tally() -> dict[str, str] | None:
        tally = {}
        for row in page.locator(".practice-tally li").all_inner_texts():
            found = re.fullmatch(r"(.+): (\d+) right, (\d+) wrong", row.strip())
            if found:
                right, wrong = int(found[2]), int(found[3])
                tally[found[1]] = (
                    f"{right} of {right + wrong} right ({round(100 * right / (right + wrong))}%)"
                )
        answered = sum(int(v.split(" of ")[1].split()[0]) for v in tally.values())
        return tally if answered == 3 else None

    tally = wait_for(read_tally, "three practice answers in bo's tally")
    # The tutor wrote the five answers to bo's progress file (the contract's store)...
    path = progress_file(class_hub, "bo")
    wait_for(
        lambda: path.is_file() and len(path.read_text().splitlines()) >= 5,
        f"five answers in {path}",
    )

    six = lesson_heading("06_trick_winner")

    def answered(cell: str) -> int:
        return int(cell.split(" of ")[1].split()[0]) if " of " in cell else 0

    def reported() -> Any:
        # All five answers: the forwarder may send the lesson's before the practice ones.
        shown = results_page(people[TEACHER])
        practice = sum(answered(cell) for cell in cells(shown, "practice", "bo").values())
        lesson = cells(shown, "lessons", "bo").get(six, "—")
        return shown if lesson != "—" and practice == 3 else None

    shown = wait_for(reported, "bo's answers on the teacher's page")
    assert shown["lessons"]["bo"][six] == f"2 of {len(lesson.quiz)} answered, 1 right"
    assert {t: c for t, c in shown["practice"]["bo"].items() if c != "—"} == tally


def test_a_learner_steps_through_the_worked_example_and_the_teacher_sees_where(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    """bo moves to step 6 with Next and the arrow key; the teacher's page says so, in the
    teacher's language, readable on a laptop's screen and a phone's."""
    page = people["bo"].page
    page.goto(f"{class_hub.url}/user/bo/voila/render/{WORKED_EXAMPLE_PAGE}.ipynb")
    next_button = page.locator("button.tutor-step-next")
    next_button.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
    position = page.locator(".tutor-step-position")
    total = stepped_pages()[WORKED_EXAMPLE_PAGE].steps
    for step in range(2, 7):
        if step % 2:
            page.keyboard.press("ArrowRight")
        else:
            next_button.click()
        position.filter(has_text=f"Step {step} of {total}").wait_for()

    teacher = people[TEACHER]
    worked = text("teacher-places.worked-example")

    def reported() -> Any:
        # bo's server reports every 2 s: an earlier report may bring step 2 to 5 first
        shown = results_page(teacher)
        return shown if cells(shown, "places", "bo").get(worked) == f"Step 6 of {total}" else None

    shown = wait_for(reported, f"bo's step 6 of {total} on the teacher's page")
    assert shown["places"]["bo"] == {worked: f"Step 6 of {total}"}
    for lang in ("ja", "zh-Hant"):
        shown = results_page(teacher, lang)
        here = text("teacher-places.step", lang, step=6, steps=total)
        assert shown["places"]["bo"] == {text("teacher-places.worked-example", lang): here}
    for width, height in ((1280, 720), (390, 844)):
        teacher.page.set_viewport_size({"width": width, "height": height})
        results_page(teacher)
        heading = teacher.page.get_by_role("heading", name=text("teacher-places.heading"))
        heading.scroll_into_view_if_needed()
        row = teacher.page.locator("#step-places tr", has_text="bo")
        cell = row.get_by_role("cell", name=f"Step 6 of {total}")
        assert heading.is_visible() and cell.is_visible(), (width, height)
        box = teacher.page.locator("#step-places").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (width, box)
        font = cell.evaluate("cell => parseFloat(getComputedStyle(cell).fontSize)")
        assert font >= 12, (width, font)
    teacher.page.set_viewport_size({"width": 1280, "height": 900})


# -- the lock-down and the secrets ------------------------------------------------------------


def test_voilas_page_close_shutdown_asks_the_authorizer(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    ada = people["ada"]
    base = f"{class_hub.url}/user/ada/"
    tab = ada.new_page()
    tab.goto(base + INDEX_PAGE)
    config = json.loads(tab.locator("#jupyter-config-data").text_content())
    kernel = config["kernelId"]
    xsrf = {c["name"]: c["value"] for c in ada.context.cookies(base)}["_xsrf"]
    headers = {"X-XSRFToken": xsrf}
    # Stopping a kernel by hand: refused, as before.
    by_hand = ada.context.request.delete(f"{base}api/kernels/{kernel}", headers=headers)
    assert by_hand.status == 403
    # Voila's page-close door: an unknown kernel is a clear 404 (Voila's own handler
    # answered 500 "Unhandled error"), the page's own kernel is given back.
    unknown = ada.context.request.post(f"{base}voila/api/shutdown/no-such-kernel", headers=headers)
    assert unknown.status == 404
    assert "no kernel 'no-such-kernel'" in unknown.json()["message"]
    closed = ada.context.request.post(f"{base}voila/api/shutdown/{kernel}", headers=headers)
    assert closed.status == 204
    running = ada.context.request.get(f"{base}api/kernels").json()
    assert kernel not in [k["id"] for k in running]
    tab.close()


def test_no_password_in_the_hubs_environment_no_token_in_a_kernels(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    hub_environ = psutil.Process(class_hub.process.pid).environ()
    assert [name for name in hub_environ if "PASSWORD" in name and not name.endswith("_FILE")] == []
    assert PASSWORDS[TEACHER] not in json.dumps(hub_environ)
    servers = class_hub.learner_server_processes()
    assert sorted(servers) == sorted(LEARNERS)
    for name, (server, *kernels) in servers.items():
        assert kernels, f"{name}'s server has no kernel to look at"
        for proc in (server, *kernels):
            environ = proc.environ()
            assert "JUPYTERHUB_API_TOKEN" not in environ, (name, proc.cmdline())
            assert "JPY_API_TOKEN" not in environ, (name, proc.cmdline())


def test_every_learners_server_reports_its_activity_to_the_hub(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    """With its own token: JupyterHub's extension in the server read it before the tutor's
    took it out of the environment (before, every report was 403 "Missing or invalid
    credentials" and a "Failed to notify Hub of activity" traceback)."""

    def reported() -> bool:
        log = class_hub.log_path.read_text(errors="replace")
        return all(f"200 POST /hub/api/users/{name}/activity" in log for name in LEARNERS)

    wait_for(reported, "each learner's server reporting its activity to the hub")
    log = class_hub.log_path.read_text(errors="replace")
    assert "Failed to notify Hub of activity" not in log
    assert not re.search(r"40\d POST /hub/api/users/[^/ ]+/activity", log)
    for name in LEARNERS:
        assert class_hub.api("GET", f"users/{name}")["servers"][""]["last_activity"]


def test_the_teacher_resets_a_forgotten_password_and_only_the_teacher_can(
    class_hub: RunningHub, people: dict[str, Person]
) -> None:
    # A learner cannot set another's password.
    refused = people["ada"].context.request.get(
        f"{class_hub.url}/hub/change-password/bo", max_redirects=0
    )
    assert refused.status == 403
    teacher = people[TEACHER].page
    teacher.goto(f"{class_hub.url}/hub/change-password/bo")
    new_password = f"bo-new-{secrets.token_urlsafe(6)}"
    teacher.fill("#new_password_input", new_password)
    teacher.fill("#new_password_confirmation_input", new_password)
    teacher.click("input[type=submit]")
    shows(teacher, "has been changed successfully")
    forgetful = Person("bo-again", class_hub, people["ada"].context.browser)
    try:
        assert forgetful.log_in("bo", PASSWORDS["bo"]).status == 403  # the old one is gone
        assert forgetful.log_in("bo", new_password, next_path="hub/home").status == 302
    finally:
        forgetful.close()
    # The unlisted name that signed up earlier: approved by the teacher, it may log in.
    teacher.goto(f"{class_hub.url}/hub/authorize")
    teacher.locator("tr", has_text="mallory").get_by_role(
        "button", name="Authorize", exact=True
    ).click()
    stranger = Person("mallory", class_hub, people["ada"].context.browser)
    try:
        assert stranger.log_in("mallory", "mallory-pass-1", next_path="hub/home").status == 302
    finally:
        stranger.close()
