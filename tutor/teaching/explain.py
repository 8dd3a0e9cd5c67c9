"""Plain words for the engine's reasons: why a card wins, why a play is (il)legal, how a
score was made, what the turned card means.

The engine returns reasons as data; this module is the one place that turns them into
sentences, in the learner's language (catalogs in :mod:`tutor.teaching.text`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import pairwise

from tutor.rules.cards import DECK, Card, Suit, parse_card
from tutor.rules.scoring import (
    PENALTY_PER_TRICK_OFF,
    POINTS_FOR_MEETING_BID,
    POINTS_PER_TRICK_WHEN_MET,
    round_score,
)
from tutor.rules.trick import Lead, PlayJudgement, PlayRule, TrickExplanation, WinRule
from tutor.rules.trump import RevealRule, TrumpReveal
from tutor.teaching.text import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    MANY,
    catalog,
    join_alternatives,
    join_none_of,
    join_words,
    text,
)

MINUS = "\u2212"
"""The minus sign (not a hyphen): read as "minus" and as wide as the plus sign. Every
score a learner reads is written with it, through :func:`format_points`."""


def format_points(points: int, *, signed: bool = False) -> str:
    """Points with a real minus sign; ``signed`` also puts a plus sign on gains.

    >>> format_points(-20), format_points(40, signed=True), format_points(0, signed=True)
    ('−20', '+40', '0')
    """
    if points < 0:
        return f"{MINUS}{-points}"
    return f"+{points}" if signed and points > 0 else str(points)


def suit_name(suit: Suit | None, lang: str = DEFAULT_LANGUAGE) -> str:
    """The suit's colour word, or the words for no trump.

    >>> suit_name(Suit.BLUE), suit_name(None)
    ('blue', 'no trump')
    """
    return text("card.no_trump", lang) if suit is None else text(f"suit.{suit.value}", lang)


def card_name(card: Card | str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The card in words.

    >>> card_name("B11"), card_name("W"), card_name("J")
    ('blue 11', 'Wizard', 'Jester')
    """
    card = parse_card(card)
    if card.is_wizard:
        return text("card.wizard", lang)
    if card.is_jester:
        return text("card.jester", lang)
    return text("card.number", lang, colour=suit_name(card.suit, lang), rank=card.rank)


@cache
def _unbroken_pattern() -> re.Pattern[str]:
    # Every card's name in every language that a line could break inside: words with a
    # space ("blue 11") or in Japanese or Chinese ("黄の1", "ウィザード", "巫師"), longest
    # first ("blue 11" before "blue 1"), never a part of a longer number or word.
    names = {card_name(card, lang) for lang in LANGUAGES for card in set(DECK)}
    breakable = sorted((name for name in names if " " in name or not name.isascii()), key=len)
    # an English name starts a word ("red 1", never the end of "bored 1")
    cards = "|".join(
        ("(?<![A-Za-z])" if name[0].isascii() else "") + re.escape(name)
        for name in reversed(breakable)
    )
    # and a Latin word inside Japanese or Chinese words ("Wizard巫師牌"), where nothing
    # but its own letters marks where the word ends
    latin = r"[A-Za-z][A-Za-z0-9'’-]*[A-Za-z0-9]"
    return re.compile(rf"(?:{cards})(?![0-9])|{latin}")


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
"""A Japanese or Chinese character (kana, ideographs, full-width forms)."""


def unbroken_parts(words: str) -> list[tuple[int, int]]:
    """Where in ``words`` no line may break: each card's name (in any of the tutor's
    languages) and, in Japanese or Chinese words, each Latin word; as (start, end) indices.

    A narrow column must not end a line with 「黄の」 and start the next with 「1」. The
    words stay plain text; a page's HTML keeps each part on one line
    (:func:`tutor.display.words.words_html`), plain text joins it (:func:`unbroken`).

    >>> words = "C takes the trick with blue 11."
    >>> [words[start:end] for start, end in unbroken_parts(words)]
    ['blue 11']
    >>> words = "Cが黄の1で取ります。Wizardは巫師"
    >>> [words[start:end] for start, end in unbroken_parts(words)]
    ['黄の1', 'Wizard', '巫師']
    >>> unbroken_parts("red 12 and Wizards"), unbroken_parts("3 tricks")
    ([(0, 6)], [])
    """
    cjk = _CJK.search(words) is not None
    return [
        found.span()
        for found in _unbroken_pattern().finditer(words)
        if cjk or " " in found.group() or not found.group().isascii()
    ]


WORD_JOINER = "\u2060"
"""An invisible character that forbids a line break on either side of it (U+2060)."""


def _joined(name: str) -> str:
    # a word joiner between two characters unless both are Latin letters or digits
    # (which never break apart): 「緑⁠の⁠12」
    joined = name[0]
    for before, after in pairwise(name):
        latin = before.isascii() and before.isalnum() and after.isascii() and after.isalnum()
        joined += ("" if latin else WORD_JOINER) + after
    return joined


def unbroken(words: str) -> str:
    """``words`` as plain text in which no line breaks inside a card's name nor a Latin word
    in Japanese or Chinese (:func:`unbroken_parts`): a no-break space for a space, and a
    word joiner (invisible, silent) between the characters of a Japanese or Chinese name.
    For text that is shown as plain text (the live room's phone page), not as HTML.

    >>> unbroken("A plays blue 11.") == "A plays blue\N{NO-BREAK SPACE}11."
    True
    >>> unbroken("Aが黄の12を出す") == "Aが黄\N{WORD JOINER}の\N{WORD JOINER}12を出す"
    True
    """
    kept = ""
    start = 0
    for begin, end in unbroken_parts(words):
        part = words[begin:end]
        part = part.replace(" ", "\u00a0") if part.isascii() else _joined(part)
        kept += words[start:begin] + part
        start = end
    return kept + words[start:]


def describe_trick(
    why: TrickExplanation, players: Sequence[str] | None = None, lang: str = DEFAULT_LANGUAGE
) -> str:
    """One sentence: who takes the trick and which rule decided it.

    ``players`` names the player of each card in play order; by default the card itself.

    >>> from tutor.rules.trick import explain_trick
    >>> describe_trick(explain_trick("J B5 B11 B7", "R"), ["A", "B", "C", "D"])
    'C takes the trick with blue 11: nobody played a Wizard or a trump, so the highest blue card wins.'
    >>> describe_trick(explain_trick("R4 R12 R2 W", "R"), ["C", "D", "A", "B"])
    'B takes the trick with the Wizard: the first Wizard played always wins.'
    >>> describe_trick(explain_trick("G5 G11", None))
    'Green 11 takes the trick with green 11: nobody played a Wizard and this round has no trump, so the highest green card wins.'
    """
    winner_card = why.winning_card
    winner = players[why.winner] if players is not None else card_name(winner_card, lang)
    values = {
        "winner": winner,
        "card": card_name(winner_card, lang),
        "trump": suit_name(why.trump, lang),
        "led": suit_name(why.led_suit, lang),
    }
    key = why.rule.value
    if why.rule is WinRule.FIRST_WIZARD and len(why.contenders) > 1:
        key = "first-wizard-later"
    elif why.rule is WinRule.HIGHEST_TRUMP and why.trump is why.led_suit:
        key = "highest-trump-led"
    elif why.rule is WinRule.HIGHEST_LED and why.trump is None:
        key = "highest-led-no-trump"
    return _sentence(f"trick.{key}", lang, **values)


def describe_play(
    judgement: PlayJudgement,
    player: str | None = None,
    lang: str = DEFAULT_LANGUAGE,
    *,
    had_to_follow: bool = False,
) -> str:
    """One sentence about a judged card: why ``player`` (``None``: the learner, "you")
    may, or may not, play it; or, with ``had_to_follow=True``, whether the led suit bound
    that player, and why (the question the worked example asks of every card).

    >>> from tutor.rules.trick import judge_play
    >>> describe_play(judge_play("B7 R12 G10", "J B5", "R12"), "D")
    'D may not play red 12: blue was led and D holds blue (blue 7). Follow blue, or play a Wizard or a Jester.'
    >>> describe_play(judge_play("B5 W G3", "J", "B5"), "B")
    'Only Jesters so far, so B may play anything; blue 5 sets blue as the suit to follow.'
    >>> describe_play(judge_play("B7 R12 G10", "J B5", "B7"))
    'You follow blue with blue 7.'
    >>> describe_play(judge_play("B11 R4 J", "J B5", "B11"), "C", had_to_follow=True)
    'Had to follow blue? Yes: C holds blue 11.'
    >>> describe_play(judge_play("W G3", "R4 R12 R2", "W"), "B", had_to_follow=True)
    'Had to follow red? No: B holds no red card.'
    """
    if not had_to_follow:
        return _play_sentence([judgement], player, lang)
    if player is None:
        raise TypeError("describe_play(had_to_follow=True) names the player: give player=")
    values = {
        "player": player,
        "card": card_name(judgement.card, lang),
        "led": suit_name(judgement.led_suit, lang),
        "followers": join_words((card_name(card, lang) for card in judgement.followers), lang),
    }
    key = _BOUND_BY_LEAD.get(judgement.lead) or (
        "worked.follow-yes" if judgement.followers else "worked.follow-no"
    )
    return _sentence(key, lang, **values)


_BOUND_BY_LEAD = {
    Lead.NOTHING_PLAYED: "worked.follow-leads",
    Lead.ONLY_JESTERS: "worked.follow-no-suit-yet",
    Lead.WIZARD_FIRST: "worked.follow-wizard-first",
}
"""Whether the led suit bound the player, when no suit was led: the reason why not.
(With a led suit, it bound them exactly when they held it.)"""


def describe_plays(
    judgements: Iterable[PlayJudgement], player: str | None = None, lang: str = DEFAULT_LANGUAGE
) -> list[str]:
    """The reasons for several cards of one hand, each reason said once: cards judged by
    the same rule share one sentence ("red 12 or green 10"), in the order first judged.

    >>> from tutor.rules.trick import judge_play
    >>> for sentence in describe_plays(judge_play("B7 R12 G10", "B5", card) for card in ("R12", "B7", "G10")):
    ...     print(sentence)
    You may not play red 12 or green 10: blue was led and you hold blue (blue 7). Follow blue, or play a Wizard or a Jester.
    You follow blue with blue 7.
    >>> describe_plays(judge_play("W R9 J", "", card) for card in "W R9 J".split())
    ['You lead: the first card of a trick may be anything.']
    >>> describe_plays(judge_play("B5 G3", "J", card) for card in ("B5", "G3"))
    ['Only Jesters so far, so no suit binds you yet; a number card sets the suit to follow.']
    >>> describe_plays(judge_play("J R9 W", "R4", card) for card in ("J", "R9", "W"))
    ['You may play the Wizard or the Jester: both may be played at any time, even when you could follow.', 'You follow red with red 9.']
    """
    groups: dict[tuple[object, ...], list[PlayJudgement]] = {}
    for judgement in judgements:
        groups.setdefault(_play_reason(judgement), []).append(judgement)
    rules = [key[0] for key in groups]
    # A Wizard and a Jester, both free to play: one sentence says so for both.
    both_special = PlayRule.WIZARD_ANY_TIME in rules and PlayRule.JESTER_ANY_TIME in rules
    sentences = []
    for key, group in groups.items():
        if both_special and key[0] in _ANY_TIME:
            if key[0] is next(rule for rule in rules if rule in _ANY_TIME):
                both = f"{_play_section(player)}.wizard-jester-any-time"
                sentences.append(text(both, lang, player=player or ""))
            continue
        sentences.append(_play_sentence(group, player, lang))
    return sentences


_ANY_TIME = (PlayRule.WIZARD_ANY_TIME, PlayRule.JESTER_ANY_TIME)


def _play_reason(judgement: PlayJudgement) -> tuple[object, ...]:
    """What makes two judgements of one trick the same reason: the rule, what was led and
    the followers."""
    return (judgement.rule, judgement.lead, judgement.led_suit, judgement.followers)


def _play_sentence(judgements: Sequence[PlayJudgement], player: str | None, lang: str) -> str:
    """The sentence of one reason, naming every card it covers."""
    first = judgements[0]
    cards = dict.fromkeys(judgement.card for judgement in judgements)
    values = {
        "player": player or "",
        "card": join_alternatives((card_name(card, lang) for card in cards), lang),
        "led": suit_name(first.led_suit, lang),
        "followers": join_words((card_name(card, lang) for card in first.followers), lang),
    }
    key = first.rule.value
    suits_set = {card.suit if card.is_number else None for card in cards}
    if first.rule is PlayRule.NO_SUIT_YET and len(suits_set) == 1 and None not in suits_set:
        # Only Jesters so far: the card(s) would set their suit. (Cards of several suits
        # share the general sentence: a number card sets the suit.)
        values["led"] = suit_name(first.card.suit, lang)
        key = "no-suit-yet-sets"
    section = _play_section(player)
    if len(cards) > 1 and f"{key}{MANY}" in catalog(lang)[section]:
        # A sentence that refuses several cards says "none of them" in its language's way.
        values["card"] = join_none_of((card_name(card, lang) for card in cards), lang)
        key += MANY
    return _sentence(f"{section}.{key}", lang, **values)


def _play_section(player: str | None) -> str:
    """The catalog section of play sentences: about a named player, or about "you"."""
    return "play" if player is not None else "play-you"


def _sentence(key: str, lang: str, **values: object) -> str:
    """A catalog sentence with a capital first letter: it may start with a filled-in card
    name ("blue 11 takes the trick" -> "Blue 11 takes the trick")."""
    sentence = text(key, lang, **values)
    return sentence[:1].upper() + sentence[1:]


def describe_score(bid: int, taken: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """The score of one round with its formula (the points written by :func:`format_points`).

    >>> describe_score(2, 2)
    'Bid 2, took 2: bid met, so 20 + 10 × 2 = 40.'
    >>> describe_score(1, 3)
    'Bid 1, took 3: 2 off, so −10 × 2 = −20. Tricks taken earn nothing when the bid is missed.'
    """
    points = round_score(bid, taken)
    values = {
        "bid": bid,
        "taken": taken,
        "points": format_points(points),
        "base": POINTS_FOR_MEETING_BID,
        "per_trick": POINTS_PER_TRICK_WHEN_MET,
        "penalty": format_points(-PENALTY_PER_TRICK_OFF),
        "off": abs(bid - taken),
    }
    if bid == taken:
        key = "score.met-zero" if bid == 0 else "score.met"
        return text(key, lang, **values)
    return text("score.missed", lang, **values)


def describe_reveal(
    reveal: TrumpReveal, chosen: Suit | None = None, lang: str = DEFAULT_LANGUAGE
) -> str:
    """What the turned card means for trump (``chosen``: the dealer's pick after a Wizard).

    >>> from tutor.rules.trump import reveal_trump
    >>> describe_reveal(reveal_trump("R9"))
    'The red 9 is turned, so red is trump this round (the whole suit, not just that card).'
    """
    if reveal.rule is RevealRule.WIZARD and chosen is not None:
        return text("reveal.wizard-chosen", lang, trump=suit_name(chosen, lang))
    turned = card_name(reveal.turned, lang) if reveal.turned is not None else ""
    return text(
        f"reveal.{reveal.rule.value}", lang, card=turned, trump=suit_name(reveal.trump, lang)
    )
