"""The learner's progress on a page (tutor.display.progress_view): the store chosen by
``TUTOR_PROGRESS_STORE`` or the frontend, the notice when the store is broken or an answer
could not be kept (never Voilà's generic error: the page runs on), and the reset that asks
first and resets this learner only."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from tutor.display.browser_store import BrowserStore
from tutor.display.context import Frontend, PageContext
from tutor.display.progress_view import ProgressNotice, ResetControl, open_learner_progress
from tutor.teaching.progress import Progress, ProgressState
from tutor.teaching.progress_events import AnswerSource
from tutor.teaching.progress_stores import FileStore, MemoryStore, UnknownStoreError
from tutor.teaching.quiz import Topic
from tutor.teaching.text import LANGUAGES, text

APP = PageContext("en", Frontend.APP)
LAB = PageContext("en", Frontend.LAB)


def test_the_app_keeps_progress_in_the_browser_and_lab_in_the_learners_file(
    monkeypatch: pytest.MonkeyPatch, progress_in_tmp: Path
) -> None:
    monkeypatch.delenv("TUTOR_PROGRESS_STORE", raising=False)
    assert isinstance(open_learner_progress(APP).browser_store, BrowserStore)
    lab = open_learner_progress(LAB)
    assert lab.browser_store is None and isinstance(lab.progress.store, FileStore)
    monkeypatch.setenv("TUTOR_PROGRESS_STORE", "file")  # the hub's app
    assert isinstance(open_learner_progress(APP).progress.store, FileStore)
    monkeypatch.setenv("TUTOR_PROGRESS_STORE", "browser")
    assert open_learner_progress(LAB).browser_store is not None
    monkeypatch.setenv("TUTOR_PROGRESS_STORE", "cookies")
    with pytest.raises(UnknownStoreError, match="'cookies'"):
        open_learner_progress(APP)


def test_a_page_run_again_in_its_kernel_reads_the_learners_file_again(
    monkeypatch: pytest.MonkeyPatch, progress_in_tmp: Path
) -> None:
    """Lab: the course page run again (Run All) in the kernel that showed it before sees
    the answers the learner's other notebooks wrote since (each runs in its own kernel)."""
    from tutor.display import progress_view

    monkeypatch.delenv("TUTOR_PROGRESS_STORE", raising=False)
    monkeypatch.setattr(progress_view, "_opened", None)
    first = progress_view.learner_progress(LAB)
    assert first.progress.events == []
    FileStore(progress_in_tmp).append(
        Progress(MemoryStore()).record_answer(AnswerSource.PRACTICE, topic="score", correct=True)
    )
    again = progress_view.learner_progress(LAB)
    assert again is first and len(again.progress.events) == 1


def _broken_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b'{"v": 1}\n\xff\n')


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_broken_file_is_said_on_the_page_with_a_way_to_start_afresh(
    progress_in_tmp: Path, lang: str
) -> None:
    _broken_file(progress_in_tmp)
    progress = Progress(FileStore())
    notice = ProgressNotice(progress, lang=lang)
    assert notice.layout.display is None and notice.buttons.layout.display is None
    assert text("progress.problem-heading", lang) in notice.message.value
    assert str(progress_in_tmp) in notice.message.value and 'role="alert"' in notice.message.value
    progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True)
    notice.afresh_button.click()
    aside = next(progress_in_tmp.parent.glob("progress.jsonl.broken-*"))
    assert aside.read_bytes() == b'{"v": 1}\n\xff\n'  # kept, not deleted
    assert str(aside) in notice.message.value and notice.buttons.layout.display == "none"
    assert progress.state is ProgressState.READY
    (line,) = progress_in_tmp.read_text().splitlines()  # the answer given meanwhile is kept
    assert json.loads(line)["topic"] == "score"


def test_a_store_that_cannot_be_put_aside_offers_to_carry_on_without_saving(
    progress_in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _broken_file(progress_in_tmp)
    progress = Progress(FileStore())
    notice = ProgressNotice(progress)

    def refuse(*_args: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "rename", refuse)
    notice.afresh_button.click()
    assert "could not put it aside" in notice.message.value
    assert isinstance(progress.store, MemoryStore) and progress.state is ProgressState.READY
    assert text("progress.where-nowhere") in notice.message.value


def test_continue_without_saving_keeps_the_file_untouched(progress_in_tmp: Path) -> None:
    _broken_file(progress_in_tmp)
    progress = Progress(FileStore())
    notice = ProgressNotice(progress)
    notice.unsaved_button.click()
    progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True)
    assert progress_in_tmp.read_bytes() == b'{"v": 1}\n\xff\n'
    assert notice.layout.display is None and text("progress.where-nowhere") in notice.message.value


def test_a_failed_write_is_said_on_the_page(
    progress_in_tmp: Path, full_disk: Callable[[], AbstractContextManager[None]]
) -> None:
    progress = Progress(FileStore())
    notice = ProgressNotice(progress, lang="ja")
    assert notice.layout.display == "none"
    with full_disk():
        progress.record_answer(AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True)
    assert notice.layout.display is None
    assert "最後の答えは保存されませんでした" in notice.message.value
    assert str(progress_in_tmp) in notice.message.value


def test_reset_asks_and_resets_only_this_learner(tmp_path: Path) -> None:
    mine, theirs = tmp_path / "me.jsonl", tmp_path / "you.jsonl"
    for path in (mine, theirs):
        Progress(FileStore(path)).record_answer(
            AnswerSource.PRACTICE, topic=Topic.SCORE, correct=True
        )
    progress = Progress(FileStore(mine))
    control = ResetControl(progress)
    control.button.click()
    assert control.question.layout.display is None and len(mine.read_text().splitlines()) == 1
    control.confirm_button.click()
    assert progress.count(Topic.SCORE).answered == 0
    assert text("progress.reset-done") in control.status.value
    assert control.question.layout.display == "none" and control.button.layout.display is None
    assert Progress(FileStore(theirs)).count(Topic.SCORE).answered == 1


def test_the_page_says_where_progress_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    path = tmp_path / "p.jsonl"
    assert FileStore(path).where() == text("progress.where-file", file=str(path))
    monkeypatch.setenv("JUPYTERHUB_USER", "ada")
    assert "ada" in FileStore(path).where("ja") and str(path) in FileStore(path).where("ja")
    assert BrowserStore().where() == text("progress.where-browser")
    assert MemoryStore().where("zh-Hant") == text("progress.where-nowhere", "zh-Hant")
