"""The Japanese and Traditional Chinese catalogs: complete, with the English placeholders,
fillable, never falling back to English, and using the game's terms in the engine's
explanations."""

from __future__ import annotations

import re
from importlib import resources
from string import Formatter

import pytest

import tutor.teaching.text
from tutor.play.session import PlaySession, bot_round_text
from tutor.rules.cards import Suit
from tutor.rules.trick import PlayRule, explain_trick, judge_play
from tutor.rules.trump import reveal_trump
from tutor.teaching.explain import (
    card_name,
    describe_play,
    describe_reveal,
    describe_score,
    describe_trick,
)
from tutor.teaching.quiz import TrickWinnerQuestion
from tutor.teaching.text import MissingTextError, catalog, text
from tutor.teaching.worked_example import worked_example

LANGUAGES = ("ja", "zh-Hant")

# The terms the issue fixes for each language (and RULES.md's card notation stays).
TERMS = {
    "ja": {"wizard": "ウィザード", "jester": "ジェスター", "trick": "トリック", "trump": "切り札"},
    "zh-Hant": {"wizard": "巫師", "jester": "小丑", "trick": "墩", "trump": "王牌"},
}

# Latin words a translated message may keep: key names and the game's and publisher's names.
KEPT_LATIN_WORDS = {"Tab", "Enter", "Escape", "Esc", "Page", "Up", "Down", "AMIGO", "Wizard"}


def placeholders(template: str) -> dict[str, str]:
    """Each {placeholder} name of ``template`` with its format spec (e.g. ``+d``)."""
    return {
        name: spec or "" for _, name, spec, _ in Formatter().parse(template) if name is not None
    }


def all_keys(lang: str) -> set[str]:
    return {f"{section}.{key}" for section, messages in catalog(lang).items() for key in messages}


def message_ids() -> list[str]:
    return sorted(all_keys("en"))


# -- completeness ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_has_every_english_section_and_no_other(lang: str) -> None:
    assert sorted(catalog(lang)) == sorted(catalog("en"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_has_every_english_message_and_no_other(lang: str) -> None:
    missing = sorted(all_keys("en") - all_keys(lang))
    extra = sorted(all_keys(lang) - all_keys("en"))
    assert (missing, extra) == ([], [])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_files_mirror_the_english_files(lang: str) -> None:
    folder = resources.files("tutor.teaching") / "locale"
    names = {part.name for part in (folder / "en").iterdir() if part.name.endswith(".toml")}
    assert {part.name for part in (folder / lang).iterdir() if part.name.endswith(".toml")} == names


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", message_ids())
def test_message_has_the_english_placeholders(lang: str, key: str) -> None:
    section, _, name = key.partition(".")
    english = placeholders(catalog("en")[section][name])
    translated = placeholders(catalog(lang)[section][name])
    assert set(translated) == set(english)
    assert translated == english  # same format specs too: "{points:+d}" keeps its sign


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", message_ids())
def test_message_formats_with_dummy_values(lang: str, key: str) -> None:
    section, _, name = key.partition(".")
    names = placeholders(catalog("en")[section][name])
    # 7 fits every spec the catalogs use ("+d", "+.1f", ".1%").
    filled = text(key, lang, **dict.fromkeys(names, 7))
    assert filled.strip()
    assert "{" not in filled and "}" not in filled
    if names:
        assert "7" in filled


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", message_ids())
def test_message_is_translated_not_copied(lang: str, key: str) -> None:
    section, _, name = key.partition(".")
    words = set(re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}", "", catalog(lang)[section][name])))
    assert words <= KEPT_LATIN_WORDS, f"{key} in {lang!r} keeps English words {words}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_ascii_space_follows_a_full_width_stop(lang: str) -> None:
    """「？」 and 「。」 carry their own space: "フォローする必要は？ いいえ" reads as a typo."""
    spaced = [
        f"{section}.{name}"
        for section, messages in catalog(lang).items()
        for name, words in messages.items()
        if re.search(r"[。！？：] ", words)
    ]
    assert spaced == []


# -- no silent fallback ---------------------------------------------------------------------


def test_unknown_language_raises() -> None:
    with pytest.raises(MissingTextError, match=re.escape("no catalog for language 'xx-fake'")):
        text("suit.R", "xx-fake")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_unknown_message_raises(lang: str) -> None:
    with pytest.raises(
        MissingTextError, match=re.escape(f"no message 'suit.purple' in the '{lang}'")
    ):
        text("suit.purple", lang)


def test_message_missing_from_a_translation_raises_instead_of_using_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    partial = {section: dict(messages) for section, messages in catalog("ja").items()}
    del partial["suit"]["R"]

    def catalogs(lang: str = "en") -> dict[str, dict[str, str]]:
        return partial if lang == "ja" else catalog(lang)

    monkeypatch.setattr(tutor.teaching.text, "catalog", catalogs)
    assert text("suit.B", "ja") == "青"
    with pytest.raises(
        MissingTextError, match=re.escape("no message 'suit.R' in the 'ja' catalog")
    ):
        text("suit.R", "ja")


# -- the engine's explanations in each language --------------------------------------------


def test_card_names_read_naturally() -> None:
    assert [card_name(card, "ja") for card in ("R9", "B11", "W", "J")] == [
        "赤の9",
        "青の11",
        "ウィザード",
        "ジェスター",
    ]
    # The Chinese source writes colour + rank without a particle: 紅9, 藍11.
    assert [card_name(card, "zh-Hant") for card in ("R9", "B11", "W", "J")] == [
        "紅9",
        "藍11",
        "巫師",
        "小丑",
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_wizard_trick_names_the_winner_and_the_wizard(lang: str) -> None:
    # RULES.md, worked example trick 2: B's Wizard beats D's red (trump) 12.
    sentence = describe_trick(explain_trick("R4 R12 R2 W", "R"), ["C", "D", "A", "B"], lang)
    assert sentence.startswith("B")
    assert TERMS[lang]["wizard"] in sentence
    assert TERMS[lang]["trick"] in sentence


@pytest.mark.parametrize(
    ("lang", "blue", "eleven"), [("ja", "青", "青の11"), ("zh-Hant", "藍", "藍11")]
)
def test_led_suit_trick_names_the_card_and_the_led_colour(
    lang: str, blue: str, eleven: str
) -> None:
    # Trick 1: the Jester leads, B's blue 5 sets blue, C's blue 11 is highest.
    sentence = describe_trick(explain_trick("J B5 B11 B7", "R"), ["A", "B", "C", "D"], lang)
    assert sentence.startswith("C")
    assert eleven in sentence and blue in sentence
    assert TERMS[lang]["trump"] in sentence  # "no trump was played"


@pytest.mark.parametrize(
    ("lang", "rule_word", "blue", "card"),
    [("ja", "マストフォロー", "青", "赤の12"), ("zh-Hant", "跟", "藍", "紅12")],
)
def test_must_follow_names_the_rule_the_led_colour_and_the_card(
    lang: str, rule_word: str, blue: str, card: str
) -> None:
    judgement = judge_play("B7 R12 G10", "J B5", "R12")
    assert judgement.rule is PlayRule.MUST_FOLLOW
    for player in ("D", None):  # a named player, and the learner ("you")
        sentence = describe_play(judgement, player, lang)
        assert rule_word in sentence and blue in sentence and card in sentence
        assert TERMS[lang]["wizard"] in sentence and TERMS[lang]["jester"] in sentence
    assert "D" in describe_play(judgement, "D", lang)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("bid", "taken", "points"), [(2, 2, "40"), (0, 0, "20"), (1, 3, "−20")])
def test_score_states_the_points(lang: str, bid: int, taken: int, points: str) -> None:
    sentence = describe_score(bid, taken, lang)
    assert points in sentence
    if bid != taken:
        assert f"× {abs(bid - taken)}" in sentence


@pytest.mark.parametrize(("lang", "red"), [("ja", "赤"), ("zh-Hant", "紅")])
def test_reveal_names_the_trump_colour(lang: str, red: str) -> None:
    sentence = describe_reveal(reveal_trump("R9"), lang=lang)
    assert red in sentence and TERMS[lang]["trump"] in sentence
    chosen = describe_reveal(reveal_trump("W"), Suit.RED, lang)
    assert red in chosen and TERMS[lang]["wizard"] in chosen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_quiz_without_names_speaks_of_the_card_played_first(lang: str) -> None:
    feedback = TrickWinnerQuestion.of("W R13 W", trump=None).check(0, lang)
    assert "1" in feedback.answer and TERMS[lang]["wizard"] in feedback.answer


# -- whole screens, filled from the engine ---------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_worked_example_is_told_in_the_language(lang: str) -> None:
    example = worked_example(lang)
    sentences = [step.title for step in example.steps]
    sentences += [sentence for step in example.steps for sentence in step.sentences]
    for sentence in sentences:
        assert not re.search(r"[a-z]{3,}", sentence), sentence  # no English left over
    assert sum(TERMS[lang]["wizard"] in sentence for sentence in sentences) >= 2


@pytest.mark.parametrize(("lang", "you"), [("ja", "あなた"), ("zh-Hant", "你")])
def test_play_session_addresses_the_learner(lang: str, you: str) -> None:
    session = PlaySession(players=4, seed=7, cards=3, lang=lang)
    assert session.names[0] == text("play-screen.you-name", lang, name="A")
    assert you in session.names[0]
    session.bid(1)
    # Seed 7: B leads yellow 13 and A holds yellow 12, so A's blue 2 is refused.
    refused = [c for c in session.round.hands[0] if c not in session.round.legal_plays()]
    assert refused
    outcome = session.play(refused[0])
    assert not outcome.accepted and you in outcome.reason
    outcome = session.play(session.round.legal_plays()[0])
    assert outcome.accepted and you in outcome.reason


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bot_round_is_told_in_the_language(lang: str) -> None:
    story = bot_round_text(players=3, cards=2, seed=3, lang=lang)
    assert not re.search(r"[a-z]{3,}", story), story
    assert TERMS[lang]["trump"] in story and TERMS[lang]["trick"] in story


# -- one word for one thing -----------------------------------------------------------------

OTHER_NAMES_FOR_THE_BOTS = {"ja": ("ロボット",), "zh-Hant": ("機器人",)}
"""The bots are ボット in Japanese and 電腦對手 in Chinese, nowhere anything else."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_bots_have_one_name(lang: str) -> None:
    named = [
        f"{section}.{name}"
        for section, messages in catalog(lang).items()
        for name, words in messages.items()
        if any(other in words for other in OTHER_NAMES_FOR_THE_BOTS[lang])
    ]
    assert named == []


@pytest.mark.parametrize("lang", ["en", *LANGUAGES])
def test_a_bid_reads_alike_on_its_button_and_on_the_seat(lang: str) -> None:
    """ "預報0" on the button and "預報 0" on the seat read as two things."""
    assert text("table.bid", lang, bid=0) == text("play-screen.bid-button", lang, bid=0)
