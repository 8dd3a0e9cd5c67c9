"""The lesson page: Voila's page admitted, watched while its notebook runs, and its
template's code and files found once.

A page waits for its turn (:mod:`tutor.app.admission`), gets the ``_xsrf`` cookie that
makes its browser the owner of its kernel (:mod:`tutor.app.kernel_access`), and has the
classroom token taken out of its address before the kernel's environment is made
(:func:`drop_token`). A page whose kernel died, or whose notebook could not be rendered,
ends with a notice and reloads by itself (:class:`PageHandler`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qsl, urlencode

import jinja2
import jinja2.bccache
import tornado.web
import voila.static_file_handler
from voila.exporter import VoilaExporter
from voila.notebook_renderer import NotebookRenderer
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler

from tutor.teaching.text import text
from tutor.web.pages import page_language

from .admission import RETRY_SECONDS, Admission, busy_page
from .kernel_access import browser_key

TOKEN_PARAMETER = "token"
"""The query parameter of Jupyter's token login (classroom mode)."""


def drop_token(request: Any) -> None:
    """Take the classroom token out of the request's address, so that the kernel's
    environment (Voila passes the page's query string and URL to it) never holds it. The
    browser is logged in by then: Jupyter sets its login cookie."""
    pairs = parse_qsl(request.query, keep_blank_values=True)
    kept = [(name, value) for name, value in pairs if name != TOKEN_PARAMETER]
    if len(kept) == len(pairs):
        return
    request.query = urlencode(kept)
    request.uri = request.path + (f"?{request.query}" if request.query else "")
    request.query_arguments = {}
    for name, value in kept:
        request.query_arguments.setdefault(name, []).append(value.encode())
    request.arguments = dict(request.query_arguments)


RENDER_LIMIT = 300.0
"""Seconds a page may take to start its kernel and run its notebook (the last resort: a
lesson takes about a second, Voila gives a kernel 60 s to start)."""

WATCH_INTERVAL = 2.0


def failed_page_tail(lang: str) -> str:
    """The end of a page whose notebook could not be run: the page says so and reloads by
    itself, as static/tutor-page.js does (the same counter: at most three times)."""
    incomplete = json.dumps(text("page-notice.incomplete", lang), ensure_ascii=False)
    gave_up = json.dumps(text("page-notice.gave-up", lang), ensure_ascii=False)
    return f"""
<script>
(function () {{
  var key = "wizard-tutor/reloads:" + window.location.pathname, count = 3;
  try {{ count = Number(window.sessionStorage.getItem(key) || "0"); }} catch (error) {{}}
  var box = document.createElement("div");
  box.className = "tutor-page-notice";
  box.setAttribute("role", "alert");
  box.dataset.notice = count < 3 ? "incomplete" : "gave-up";
  box.textContent = count < 3 ? {incomplete} : {gave_up};
  (document.body || document.documentElement).prepend(box);
  if (count < 3) {{
    try {{ window.sessionStorage.setItem(key, String(count + 1)); }} catch (error) {{}}
    window.setTimeout(function () {{ window.location.reload(); }}, 3000 + Math.random() * 5000);
  }}
}})();
</script>
</body>
</html>
"""


class TemplateCodeCache(jinja2.BytecodeCache):
    """The page templates' compiled code, kept for the app's lifetime.

    Voila makes a new exporter, so a new Jinja environment, for every page: each page
    parsed and compiled the template's ~11 files again, a third of the server's CPU per
    page (cProfile of lesson 06). Jinja still reads each file and compares its checksum,
    so an edited template is compiled again."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


TEMPLATE_CODE = TemplateCodeCache()


class CachedTemplatesExporter(VoilaExporter):  # type: ignore[misc]
    """Voila's exporter, with its templates' code kept in :data:`TEMPLATE_CODE`. Voila's
    renderer builds its exporter from the name ``voila.notebook_renderer.VoilaExporter``,
    which :class:`tutor.app.server.TutorVoila` points here."""

    def _create_environment(self) -> jinja2.Environment:
        environment: jinja2.Environment = super()._create_environment()
        environment.bytecode_cache = TEMPLATE_CODE
        return environment


class GuardedRenderer(NotebookRenderer):  # type: ignore[misc]
    """Voila's notebook renderer, telling its page when it fails.

    Voila's page handler runs the renderer in a background task whose exception nobody
    reads (voila/handler.py, ``put_html``): a template that cannot be found, or a kernel
    that never became ready, left the page waiting forever. The failure is recorded on
    the page's handler (``render_failed``), which ends the page (:class:`PageHandler`).
    Voila's handler builds its renderer from the name ``voila.handler.NotebookRenderer``,
    which :class:`tutor.app.server.TutorVoila` points here."""

    def generate_content_generator(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        inner = super().generate_content_generator(*args, **kwargs)
        handler = self.request_handler

        async def guarded() -> AsyncIterator[Any]:
            try:
                async for snippet in inner:
                    yield snippet
            except Exception as error:
                handler.render_failed = error
                raise

        return guarded()


class PageHandler(TornadoVoilaHandler):  # type: ignore[misc]
    """``/voila/render/<notebook>``: Voila's page, admitted by :class:`Admission` and
    watched while its notebook runs.

    Voila runs the notebook in a background task; when the kernel dies while starting
    the task fails silently and the page would wait forever, spinner turning, holding its
    place in the queue. Here a page whose kernel died, or that took longer than
    :data:`RENDER_LIMIT`, is ended with a notice (the page reloads by itself) and its
    place and kernel are given back; so are those of a page closed before it had loaded
    (no page script is running yet to send the page-close request)."""

    def initialize(self, **kwargs: Any) -> None:
        self.admission: Admission = kwargs.pop("admission")
        self.page_left = False
        super().initialize(**kwargs)

    def on_connection_close(self) -> None:
        # The learner closed the page (or left it) before it had loaded.
        self.page_left = True
        super().on_connection_close()

    async def prepare(self) -> None:
        await super().prepare()
        if self._finished:
            return
        # The page-close request needs the _xsrf cookie: set it now (reading xsrf_token
        # does, before the page starts streaming), and remember the browser for the
        # kernel about to start.
        self.xsrf_token  # noqa: B018  (read for its effect: the cookie)
        self.page_owner = browser_key(self)
        drop_token(self.request)

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        if not (path or "").endswith(".ipynb"):  # Voila redirects other files
            await super().get(path)
            return
        loop = asyncio.get_running_loop()
        asked = loop.time()
        async with self.admission.admit() as refused:
            if refused is None:
                admitted = loop.time()
                if not self.page_left:  # gone while it waited: start nothing
                    await self._render(path)
                self.log.info(
                    "page %s: waited %.1f s, ran in %.1f s",
                    path,
                    admitted - asked,
                    loop.time() - admitted,
                )
                return
        self.log.warning(
            "busy (%s): %d kernels, %d starting, %d waiting; refused %s",
            refused,
            self.admission.kernels(),
            self.admission.starting,
            self.admission.waiting,
            path,
        )
        lang = page_language(self.request.query)
        self.set_status(503)
        self.set_header("Retry-After", str(RETRY_SECONDS[1]))
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(busy_page(refused, lang, max_kernels=self.admission.max_kernels))

    async def _render(self, path: str | None) -> None:
        render = asyncio.ensure_future(super().get(path))
        loop = asyncio.get_running_loop()
        started = loop.time()
        while True:
            done, _ = await asyncio.wait({render}, timeout=WATCH_INTERVAL)
            if done:
                render.result()
                return
            kernel_id = getattr(self, "page_kernel_id", None)
            if self.page_left:
                reason = "the learner left it before it had loaded"
                break
            failed = getattr(self, "render_failed", None)
            if failed is not None:
                reason = f"its notebook could not be rendered: {failed!r}"
                break
            if kernel_id is not None and not await self.kernel_manager.is_running(kernel_id):
                reason = "its kernel died"
                break
            if loop.time() - started > RENDER_LIMIT:
                reason = f"it took more than {RENDER_LIMIT:.0f} s"
                break
        render.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await render
        if self.page_left:
            self.log.info("page %s ended early: %s", path, reason)
        else:
            self.log.error("page %s ended early: %s", path, reason)
        kernel_id = getattr(self, "page_kernel_id", None)
        if kernel_id is not None and kernel_id in self.kernel_manager:
            with contextlib.suppress(Exception):
                await self.kernel_manager.shutdown_kernel(kernel_id, now=True)
        with contextlib.suppress(Exception):  # the learner may have gone
            self.write(failed_page_tail(page_language(self.request.query)))
            await self.finish()


@functools.lru_cache(maxsize=16)
def template_static_roots(template: str) -> tuple[str, ...]:
    """The folders a template's static files are looked for in (Voila's search over the
    Jupyter paths), found once per template: Voila searched them again twice for every
    file, a third of the time of serving a template's file (py-spy, a class of 10). A
    template installed while the app runs is seen after a restart."""
    return tuple(voila.static_file_handler.collect_static_paths(["voila", "nbconvert"], template))


class SafeTemplateStaticHandler(TemplateStaticFileHandler):  # type: ignore[misc]
    """``/voila/templates/<template>/static/<file>``: Voila's handler answers a malformed
    path (no ``static`` part, ``..``) with an assertion error, i.e. HTTP 500; 404 here.
    The template's folders are found once (:func:`template_static_roots`)."""

    _PATH = re.compile(r"[A-Za-z0-9_-]+/static/[^\\]+")

    def parse_url_path(self, path: str) -> str:
        parts = path.split("/")
        if not self._PATH.fullmatch(path) or any(part in ("", ".", "..") for part in parts):
            raise tornado.web.HTTPError(404)
        self.roots = list(template_static_roots(parts[0]))
        return path

    @classmethod
    def get_absolute_path(cls, root: str, path: str) -> str:
        # Voila's, with the folders found once: the first that holds the file, else a
        # path that does not exist (404)
        template, _static, relative = os.path.normpath(path).split(os.path.sep, 2)
        absolute = ""
        for folder in template_static_roots(template):
            absolute = os.path.abspath(os.path.join(folder, relative))
            if os.path.exists(absolute):
                break
        return absolute
