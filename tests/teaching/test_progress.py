"""Progress: right and wrong answers per topic, the weights they give the next topic, and
the JSON file that keeps them (tmp files only: never the repo, never the real home)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tutor.teaching.progress import (
    BASE_WEIGHTS,
    PROGRESS_FILE_VARIABLE,
    Progress,
    ProgressFileError,
    TopicCount,
    default_progress_path,
    topic_weight,
)
from tutor.teaching.quiz import Topic

pytestmark = pytest.mark.usefixtures("progress_in_tmp")


# -- weights --------------------------------------------------------------------------------


def test_a_topics_weight_grows_with_mistakes_and_shrinks_with_right_answers() -> None:
    for topic in BASE_WEIGHTS:
        weights = [topic_weight(topic, TopicCount(right=3, wrong=wrong)) for wrong in range(6)]
        assert weights == sorted(weights) and len(set(weights)) == 6
        weights = [topic_weight(topic, TopicCount(right=right, wrong=2)) for right in range(6)]
        assert weights == sorted(weights, reverse=True) and min(weights) > 0


def test_hard_topics_start_with_more_weight() -> None:
    fresh = Progress().weights()
    for hard in (Topic.JESTER_LEAD, Topic.WIZARD_AFTER_NUMBER, Topic.TRUMP_VS_LED, Topic.BID_ZERO):
        assert fresh[hard] > fresh[Topic.SCORE] == fresh[Topic.TRUMP_REVEAL]
    assert set(fresh) == set(BASE_WEIGHTS) and set(BASE_WEIGHTS) < set(Topic)


# -- progress file ----------------------------------------------------------------------------


def test_progress_path_comes_from_the_environment_or_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, progress_in_tmp: Path
) -> None:
    assert default_progress_path() == progress_in_tmp
    monkeypatch.delenv(PROGRESS_FILE_VARIABLE)
    assert default_progress_path() == tmp_path / "home" / ".wizard-tutor" / "progress.json"


def test_loading_a_missing_file_gives_empty_progress_and_writes_nothing(
    progress_in_tmp: Path,
) -> None:
    progress = Progress.load()
    assert list(progress) == [(topic, TopicCount()) for topic in BASE_WEIGHTS]
    assert progress.path == progress_in_tmp and not progress_in_tmp.parent.exists()


def test_progress_survives_a_save_and_a_load(progress_in_tmp: Path) -> None:
    progress = Progress.load()
    progress.record(Topic.JESTER_LEAD, correct=False)
    progress.record(Topic.JESTER_LEAD, correct=True)
    progress.record(Topic.BID_ZERO, correct=False)
    progress.save()
    again = Progress.load()
    assert again.count(Topic.JESTER_LEAD) == TopicCount(right=1, wrong=1)
    assert again.count(Topic.BID_ZERO) == TopicCount(right=0, wrong=1)
    assert json.loads(progress_in_tmp.read_text())["topics"]["jester-lead"] == {
        "right": 1,
        "wrong": 1,
    }
    assert [p.name for p in progress_in_tmp.parent.iterdir()] == ["progress.json"]  # no temp left


def test_a_topic_from_a_newer_tutor_is_kept(progress_in_tmp: Path) -> None:
    progress_in_tmp.parent.mkdir(parents=True)
    data = {"format": "wizard-tutor-progress", "version": 1, "topics": {"future": {"right": 2, "wrong": 0}}}
    progress_in_tmp.write_text(json.dumps(data))
    progress = Progress.load()
    progress.record(Topic.SCORE, correct=True)
    progress.save()
    assert json.loads(progress_in_tmp.read_text())["topics"]["future"] == {"right": 2, "wrong": 0}


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "is not valid JSON"),
        ('{"topics": {}}', 'is not a Wizard tutor progress file (expected "format"'),
        ('{"format": "wizard-tutor-progress", "version": 7}', "has progress version 7"),
        (
            '{"format": "wizard-tutor-progress", "version": 1, "topics": {"score": {"right": -1, "wrong": 0}}}',
            "topic 'score' needs whole numbers \"right\" and \"wrong\"",
        ),
    ],
)
def test_a_broken_progress_file_is_reported_by_name(
    progress_in_tmp: Path, content: str, message: str
) -> None:
    progress_in_tmp.parent.mkdir(parents=True)
    progress_in_tmp.write_text(content)
    with pytest.raises(ProgressFileError) as caught:
        Progress.load()
    assert str(progress_in_tmp) in str(caught.value) and message in str(caught.value)


def test_reset_forgets_everything_and_deletes_the_file(progress_in_tmp: Path) -> None:
    progress = Progress.load()
    progress.record(Topic.SCORE, correct=False)
    progress.save()
    progress.reset()
    assert not progress_in_tmp.exists()
    assert progress.count(Topic.SCORE) == TopicCount()
    assert Progress.load().count(Topic.SCORE) == TopicCount()


def test_in_memory_progress_writes_no_file(tmp_path: Path) -> None:
    progress = Progress()
    progress.record(Topic.SCORE, correct=True)
    progress.save()
    assert not any(tmp_path.rglob("*.json"))
