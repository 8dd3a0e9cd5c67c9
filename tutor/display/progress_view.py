"""The learner's progress on a page: which store keeps it, what the page says when the
store is broken or an answer could not be kept, and the reset button that asks first.

:func:`learner_progress` opens the learner's :class:`~tutor.teaching.progress.Progress`
once per kernel (one page in the app; one notebook in Lab): in the browser
(:class:`~tutor.display.browser_store.BrowserStore`) or in a file
(:class:`~tutor.teaching.progress_stores.FileStore`), as ``$TUTOR_PROGRESS_STORE`` says, else by
the frontend (the app keeps progress in the browser, Lab in the learner's file).

>>> from tutor.teaching.progress import Progress
>>> from tutor.teaching.progress_stores import MemoryStore
>>> progress = Progress(MemoryStore())
>>> reset = ResetControl(progress)
>>> reset.button.click()                     # asks first
>>> reset.question.layout.display is None, reset.button.layout.display
(True, 'none')
>>> reset.keep_button.click()                # "No, keep them"
>>> reset.question.layout.display, reset.button.layout.display is None
('none', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import ipywidgets as widgets

from tutor.display import looks
from tutor.display.browser_store import BrowserStore
from tutor.display.context import PageContext
from tutor.display.presenter import LEARNER_ONLY
from tutor.display.visibility import set_visible
from tutor.display.widgets import html_widget
from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.progress_stores import (
    FileStore,
    ProgressStoreError,
    StoreSetting,
    store_setting,
)
from tutor.teaching.text import DEFAULT_LANGUAGE, text

WARNING_COLOUR = "#b3261e"


@dataclass(slots=True)
class LearnerProgress:
    """The learner's progress and, when the browser keeps it, the widget that talks to
    the browser (every page shows it, invisibly)."""

    progress: Progress
    browser_store: BrowserStore | None = None

    def widgets(self) -> list[widgets.Widget]:
        """What a page must show for the store to work."""
        return [self.browser_store] if self.browser_store is not None else []


_opened: LearnerProgress | None = None


def learner_progress(context: PageContext) -> LearnerProgress:
    """The learner's progress for this kernel's page (opened on first use). A page run
    again in the same kernel (Lab's Run All) reads a file store again: the learner's other
    notebooks, each in its own kernel, may have added answers since."""
    global _opened
    if _opened is None:
        _opened = open_learner_progress(context)
    elif isinstance(_opened.progress.store, FileStore):
        _opened.progress.reload()
    return _opened


def open_learner_progress(context: PageContext) -> LearnerProgress:
    """A fresh :class:`LearnerProgress` from the store the settings choose."""
    setting = store_setting() or (StoreSetting.BROWSER if context.in_app else StoreSetting.FILE)
    if setting is StoreSetting.BROWSER:
        store = BrowserStore()
        progress = Progress(store)
        store.serve(progress)
        return LearnerProgress(progress, store)
    return LearnerProgress(Progress(FileStore()))


def _paragraph(words: str, *, strong: bool = False, status: bool = False) -> str:
    """``words`` as a paragraph (``status``: one a screen reader announces)."""
    inner = f"<strong>{escape(words)}</strong>" if strong else escape(words)
    role = ' role="status"' if status else ""
    # A widget's HTML has the line height of a button row unless told otherwise.
    return f'<p{role} style="margin:0.25em 0;line-height:1.45">{inner}</p>'


class ProgressNotice(widgets.VBox):  # type: ignore[misc]
    """What the page must say about the store: nothing while all is well; when the store
    cannot be read, what is wrong (naming the file) and two ways on: :attr:`afresh_button`
    (the broken store is put aside, never deleted) and :attr:`unsaved_button` (carry on,
    keeping nothing); when an answer could not be kept, that it was not.

    >>> from tutor.teaching.progress import Progress
    >>> from tutor.teaching.progress_stores import FileStore
    >>> import tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "progress.jsonl").write_bytes(b"\\xff\\n")
    >>> notice = ProgressNotice(Progress(FileStore(folder / "progress.jsonl")))
    >>> "Line 1 of" in notice.message.value and notice.layout.display is None
    True
    >>> notice.afresh_button.click()
    >>> "the old progress was kept as" in notice.message.value
    True
    """

    def __init__(self, progress: Progress, *, lang: str = DEFAULT_LANGUAGE) -> None:
        self.progress = progress
        self.lang = lang
        self.message = html_widget()
        # Every part opens whole, with the shared look (tutor.display.looks).
        self.afresh_button = widgets.Button(
            description=text("progress.start-afresh", lang),
            tooltip=text("progress.start-afresh-tip", lang),
            button_style="warning",
            layout=looks.layout(width="auto"),
            style=looks.style(widgets.Button),
        )
        self.unsaved_button = widgets.Button(
            description=text("progress.continue-unsaved", lang),
            tooltip=text("progress.continue-unsaved-tip", lang),
            layout=looks.layout(width="auto"),
            style=looks.style(widgets.Button),
        )
        self.afresh_button.on_click(lambda _button: self._start_afresh())
        self.unsaved_button.on_click(lambda _button: self._continue_unsaved())
        self.buttons = widgets.HBox(
            [self.afresh_button, self.unsaved_button], layout=looks.layout(flex_flow="row wrap")
        )
        self._done = ""  # what the last button press did, said until the next change
        super().__init__(
            [self.message, self.buttons],
            layout=looks.layout(),
            # the presenter's own progress (its problems name its file) is not the room's
            _dom_classes=("tutor-progress-notice", LEARNER_ONLY),
        )
        progress.observe(lambda _progress: self.refresh())
        with self.hold_sync():
            self.refresh()

    def refresh(self) -> None:
        progress, lang = self.progress, self.lang
        parts: list[str] = []
        broken = progress.state is ProgressState.BROKEN and progress.problem is not None
        if broken:
            assert progress.problem is not None
            parts += [
                _paragraph(text("progress.problem-heading", lang), strong=True),
                _paragraph(progress.problem.message(lang)),
                _paragraph(text("progress.until-fixed", lang)),
            ]
        elif progress.write_problem is not None:
            reason = progress.write_problem.message(lang)
            parts.append(
                _paragraph(text("progress.write-failed", lang, reason=reason), strong=True)
            )
        elif self._done:
            parts.append(_paragraph(self._done))
        set_visible(self.buttons, broken)
        if parts:
            colour = WARNING_COLOUR if (broken or progress.write_problem) else "currentColor"
            self.message.value = (
                f'<div role="alert" style="border-left:0.35em solid {colour};'
                f'padding:0.2em 0.8em;margin:0.3em 0">{"".join(parts)}</div>'
            )
            set_visible(self, True)
        else:
            self.message.value = ""
            set_visible(self, False)

    def _start_afresh(self) -> None:
        try:
            aside = self.progress.start_afresh()
        except ProgressStoreError as error:
            self._done = text(
                "page.two-sentences",
                self.lang,
                first=text(
                    "progress.cannot-start-afresh", self.lang, reason=error.message(self.lang)
                ),
                second=text("progress.where-nowhere", self.lang),
            )
            self.progress.forget_store()
            return
        if aside is not None:
            self._done = text("progress.started-afresh", self.lang, aside=aside)
        else:
            self._done = text("progress.started-afresh-browser", self.lang)
        self.refresh()

    def _continue_unsaved(self) -> None:
        self._done = text("progress.where-nowhere", self.lang)
        self.progress.forget_store()


class ResetControl(widgets.VBox):  # type: ignore[misc]
    """ "Reset my progress", which asks first ("Forget all your answers…?" Yes / No) and
    resets this learner's progress only (a reset event in their own store)."""

    def __init__(self, progress: Progress, *, lang: str = DEFAULT_LANGUAGE) -> None:
        self.progress = progress
        self.lang = lang
        self.button = widgets.Button(
            description=text("progress.reset", lang),
            tooltip=text("progress.reset-tip", lang),
            layout=widgets.Layout(width="auto"),
        )
        self.confirm_button = widgets.Button(
            description=text("progress.reset-confirm", lang),
            button_style="danger",
            layout=widgets.Layout(width="auto"),
        )
        self.keep_button = widgets.Button(
            description=text("progress.reset-cancel", lang), layout=widgets.Layout(width="auto")
        )
        self.question = widgets.VBox(
            [
                html_widget(_paragraph(text("progress.reset-ask", lang), strong=True)),
                widgets.HBox([self.confirm_button, self.keep_button]),
            ]
        )
        self.status = html_widget()
        self.button.on_click(lambda _button: self._ask())
        self.keep_button.on_click(lambda _button: self._close())
        self.confirm_button.on_click(lambda _button: self._reset())
        self.button.add_class("tutor-reset")
        self.confirm_button.add_class("tutor-reset-confirm")
        self.keep_button.add_class("tutor-reset-cancel")
        self.question.add_class("tutor-reset-question")
        set_visible(self.question, False)
        super().__init__(
            [self.button, self.question, self.status],
            layout=widgets.Layout(align_items="flex-start"),  # buttons as wide as their words
            _dom_classes=(LEARNER_ONLY,),  # the presenter's own progress: not on a projector
        )

    def _ask(self) -> None:
        self.status.value = ""
        set_visible(self.button, False)
        set_visible(self.question, True)

    def _close(self) -> None:
        set_visible(self.question, False)
        set_visible(self.button, True)

    def _reset(self) -> None:
        self.progress.reset()
        self._close()
        self.status.value = _paragraph(text("progress.reset-done", self.lang), status=True)


def where_kept_html(progress: Progress, lang: str = DEFAULT_LANGUAGE) -> str:
    """One sentence: where this learner's answers are kept (a file's path, on a server: not
    for a projector, where presenter mode hides it)."""
    words = escape(progress.store.where(lang))
    return f'<p class="tutor-progress-where {LEARNER_ONLY}" style="line-height:1.45">{words}</p>'
