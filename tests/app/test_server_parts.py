"""The app's server parts on their own (tutor/app/): admission, the busy page, the token
taken out of a page's address, the host names, the renderer guard, the kernel's traceback
guard, and where the tutor's files are. The whole app is driven in tests/browser/."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Coroutine
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine

from tutor import resources
from tutor.app import kernel as tutor_kernel
from tutor.app.admission import Admission, busy_page
from tutor.app.pages import GuardedRenderer, drop_token, failed_page_tail
from tutor.app.server import host_pattern
from tutor.app.settings import apply_settings
from tutor.display.page_words import page_words
from tutor.teaching.text import LANGUAGES, text


class Kernels:
    """A kernel manager that only counts."""

    def __init__(self, count: int = 0) -> None:
        self.count = count

    def list_kernel_ids(self) -> list[str]:
        return [f"k{n}" for n in range(self.count)]


def test_admission_lets_a_few_start_queues_the_rest_and_refuses_past_the_cap(
    run_coroutine: Callable[[Coroutine[Any, Any, Any]], Any],
) -> None:
    async def scenario() -> list[str]:
        admission = Admission(Kernels(), max_kernels=4, max_starting=2, queue_timeout=0.3)
        events: list[str] = []
        release = asyncio.Event()

        async def page(name: str) -> None:
            async with admission.admit() as refused:
                events.append(f"{name}:{refused or 'in'}")
                if refused is None:
                    await release.wait()

        tasks = [asyncio.create_task(page(f"p{n}")) for n in range(5)]
        await asyncio.sleep(0.05)
        assert (admission.starting, admission.waiting) == (2, 2)
        await asyncio.sleep(0.5)  # the two waiting pages waited too long
        release.set()
        await asyncio.gather(*tasks)
        assert (admission.starting, admission.waiting) == (0, 0)
        return events

    events = run_coroutine(scenario())
    # p0, p1 start; p2, p3 queue then time out; p4 would make five kernels: full at once.
    assert sorted(events) == ["p0:in", "p1:in", "p2:queue", "p3:queue", "p4:full"]
    assert events[-2:] in (["p2:queue", "p3:queue"], ["p3:queue", "p2:queue"])


def test_admission_hands_a_freed_place_to_the_first_in_the_queue(
    run_coroutine: Callable[[Coroutine[Any, Any, Any]], Any],
) -> None:
    async def scenario() -> list[str]:
        admission = Admission(Kernels(), max_kernels=10, max_starting=1, queue_timeout=5)
        order: list[str] = []

        async def page(name: str, hold: float) -> None:
            async with admission.admit() as refused:
                assert refused is None
                order.append(name)
                await asyncio.sleep(hold)

        await asyncio.gather(*(page(f"p{n}", 0.05) for n in range(4)))
        return order

    assert run_coroutine(scenario()) == ["p0", "p1", "p2", "p3"]


def test_admission_counts_the_kernels_already_open(
    run_coroutine: Callable[[Coroutine[Any, Any, Any]], Any],
) -> None:
    async def scenario() -> str | None:
        admission = Admission(Kernels(3), max_kernels=3, max_starting=2, queue_timeout=1)
        async with admission.admit() as refused:
            return refused

    assert run_coroutine(scenario()) == "full"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_busy_page_says_why_and_retries_by_itself(lang: str) -> None:
    page = busy_page("queue", lang, max_kernels=40)
    assert f'<html lang="{lang}">' in page
    assert text("busy.title", lang) in page and text("busy.queue", lang) in page
    assert re.search(r'http-equiv="refresh" content="\d+"', page)
    assert "window.location.reload()" in page
    full = busy_page("full", lang, max_kernels=40)
    assert text("busy.full", lang, count=40) in full


def test_a_failed_page_says_so_in_its_language_and_reloads_at_most_three_times() -> None:
    tail = failed_page_tail("ja")
    assert text("page-notice.incomplete", "ja") in tail
    assert text("page-notice.gave-up", "ja") in tail
    assert "count < 3" in tail and tail.rstrip().endswith("</html>")


def _request(uri: str) -> HTTPServerRequest:
    return HTTPServerRequest(
        start_line=RequestStartLine("GET", uri, "HTTP/1.1"),
        headers=HTTPHeaders({"Host": "127.0.0.1:8866"}),
    )


def test_the_token_leaves_the_address_and_the_rest_stays() -> None:
    request = _request("/voila/render/06.ipynb?token=s3cret&lang=ja&present=1")
    drop_token(request)
    assert request.query == "lang=ja&present=1"
    assert request.uri == "/voila/render/06.ipynb?lang=ja&present=1"
    assert request.arguments == {"lang": [b"ja"], "present": [b"1"]}
    only = _request("/voila/render/06.ipynb?token=s3cret")
    drop_token(only)
    assert (only.query, only.uri) == ("", "/voila/render/06.ipynb")
    untouched = _request("/voila/render/06.ipynb?lang=en")
    drop_token(untouched)
    assert untouched.uri == "/voila/render/06.ipynb?lang=en"


def test_the_host_pattern_matches_exactly_the_names_given() -> None:
    pattern = re.compile(host_pattern(["127.0.0.1", "localhost", "class.example"]))
    for host in ("127.0.0.1", "localhost", "class.example"):
        assert pattern.match(host)
    for host in ("127.0.0.10", "127a0a0a1", "evil.localhost", "class.example.evil", ""):
        assert not pattern.match(host), host


def test_the_renderer_guard_tells_the_page_when_rendering_fails(
    monkeypatch: pytest.MonkeyPatch, run_coroutine: Callable[[Coroutine[Any, Any, Any]], Any]
) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Any:
        yield "<html>"
        raise RuntimeError("Kernel died before replying to kernel_info")

    monkeypatch.setattr(
        "voila.notebook_renderer.NotebookRenderer.generate_content_generator",
        lambda self, *args, **kwargs: broken(),
    )
    renderer = GuardedRenderer.__new__(GuardedRenderer)
    renderer.request_handler = handler = SimpleNamespace()

    async def consume() -> list[str]:
        got = []
        async for snippet in renderer.generate_content_generator():
            got.append(snippet)
        return got

    with pytest.raises(RuntimeError, match="Kernel died"):
        run_coroutine(consume())
    assert isinstance(handler.render_failed, RuntimeError)


class FakeKernel:
    """What tutor.app.kernel.install uses of ipykernel's kernel: its shell handlers and
    its comm manager's targets."""

    def __init__(self) -> None:
        self.opened: list[Any] = []
        self.shell_handlers = {"comm_open": lambda stream, ident, msg: self.opened.append(msg)}
        self.comm_manager = SimpleNamespace(targets={"jupyter.widget": print})


class FakeShell:
    """What tutor.app.kernel.install uses of ipykernel's shell: _showtraceback, kernel."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, list[str]]] = []
        self.kernel = FakeKernel()

    def _showtraceback(self, etype: type, evalue: BaseException, stb: list[str]) -> None:
        self.sent.append((etype.__name__, str(evalue), stb))


def test_the_kernel_guard_sends_the_short_message_and_logs_the_traceback(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("QUERY_STRING", "lang=zh-Hant")
    root = logging.getLogger()
    before = list(root.handlers)
    shell = FakeShell()
    try:
        tutor_kernel.install(shell)
        stb = ["\x1b[31mTraceback\x1b[0m", 'File "/srv/secret/path.py", line 3, in helper']
        shell._showtraceback(ValueError, ValueError("detail-91"), stb)
        logging.getLogger("Comm").error("Exception in comm_msg for %s", "abc", exc_info=False)
    finally:
        root.handlers[:] = before
        tutor_kernel.log.handlers.clear()
        tutor_kernel.log.propagate = True
        logging.captureWarnings(False)
    short = text("page-notice.error", "zh-Hant")
    assert shell.sent == [("TutorError", short, [short]), ("TutorError", short, [short])]
    logged = capfd.readouterr().err  # the kernel's own standard error: the server's log
    assert "ValueError: detail-91" in logged and "/srv/secret/path.py" in logged
    assert "\x1b[" not in logged  # no terminal colours in the log
    assert "Exception in comm_msg for abc" in logged


def test_the_kernel_opens_only_comms_of_its_own_targets(caplog: pytest.LogCaptureFixture) -> None:
    kernel = FakeKernel()
    tutor_kernel.guard_comm_opens(kernel)
    widget = {"content": {"comm_id": "c1", "target_name": "jupyter.widget", "data": {}}}
    unknown = {"content": {"comm_id": "c2", "target_name": "nope", "data": {}}}
    with caplog.at_level(logging.WARNING, logger="tutor.app.kernel"):
        for msg in (widget, unknown, {"content": {"comm_id": "c3"}}, {"content": []}):
            kernel.shell_handlers["comm_open"](None, None, msg)
    assert kernel.opened == [widget]
    assert [r.getMessage() for r in caplog.records] == [
        "refused a comm_open: no comm target 'nope'",
        "refused a comm_open: no comm target None",
        "refused a comm_open: its content is not an object",
    ]


def test_every_language_has_the_pages_words() -> None:
    words = page_words({})
    assert words["default"] == "en"
    for lang in LANGUAGES:
        assert set(words["notices"][lang]) == set(words["notices"]["en"])
        assert words["words"][lang]


def test_the_settings_keep_sources_tracebacks_and_the_internet_out() -> None:
    from traitlets.config import Config

    c = Config()
    apply_settings(c, {"TUTOR_CULL_IDLE_TIMEOUT": "77", "TUTOR_LANG": "ja"})
    assert c.VoilaConfiguration.strip_sources is True
    assert c.VoilaConfiguration.show_tracebacks is False
    assert c.VoilaConfiguration.preheat_kernel is False
    assert c.VoilaExecutor.raise_on_iopub_timeout is True
    assert c.MappingKernelManager.cull_idle_timeout == 77
    assert c.VoilaConfiguration.resources["tutor"]["default"] == "ja"
    csp = c.Voila.tornado_settings["headers"]["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "connect-src 'self'" in csp


def test_a_checkout_finds_its_top_level_folders_and_the_override_wins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    top = Path(resources.__file__).resolve().parents[1]
    assert resources.notebooks_dir() == top / "notebooks"
    assert resources.builtin_lessons_dir() == top / "lessons"
    monkeypatch.setenv(resources.LESSONS_DIR_VARIABLE, str(tmp_path))
    assert resources.lessons_dir() == tmp_path
    assert resources.builtin_lessons_dir() == top / "lessons"


def test_a_wheel_finds_the_copies_inside_the_package(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    package = tmp_path / "site-packages" / "tutor"
    (package / "data" / "lessons").mkdir(parents=True)
    (package / "data" / "notebooks").mkdir(parents=True)
    monkeypatch.setattr(resources, "_package_root", lambda: package)
    assert resources.lessons_dir() == package / "data" / "lessons"
    assert resources.notebooks_dir() == package / "data" / "notebooks"
    (package / "data" / "notebooks").rmdir()
    with pytest.raises(resources.ResourceError, match="notebooks folder is missing"):
        resources.notebooks_dir()
