"""Plain words for the engine's reasons: why a card wins, why a play is (il)legal, how a
score was made, what the turned card means.

The engine returns reasons as data; this module is the one place that turns them into
sentences, in the learner's language (catalogs in :mod:`tutor.teaching.text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tutor.rules.cards import Card, Suit, parse_card
from tutor.rules.scoring import round_score
from tutor.rules.trick import Lead, PlayJudgement, PlayRule, TrickExplanation, WinRule
from tutor.rules.trump import RevealRule, TrumpReveal
from tutor.teaching.text import DEFAULT_LANGUAGE, join_words, text


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


def describe_trick(
    why: TrickExplanation, players: Sequence[str] | None = None, lang: str = DEFAULT_LANGUAGE
) -> str:
    """One sentence: who takes the trick and which rule decided it.

    ``players`` names the player of each card in play order; by default the card itself.

    >>> from tutor.rules.trick import explain_trick
    >>> describe_trick(explain_trick("J B5 B11 B7", "R"), ["A", "B", "C", "D"])
    'C takes the trick with blue 11: no Wizard and no trump was played, so the highest blue card wins.'
    >>> describe_trick(explain_trick("R4 R12 R2 W", "R"), ["C", "D", "A", "B"])
    'B takes the trick with the Wizard: the first Wizard played always wins.'
    >>> describe_trick(explain_trick("G5 G11", None))
    'Green 11 takes the trick with green 11: no Wizard and no trump was played, so the highest green card wins.'
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
    sentence = text(f"trick.{key}", lang, **values)
    return sentence[:1].upper() + sentence[1:]  # the default winner is a card name: "blue 11"


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
    values = {
        "player": player or "",
        "card": card_name(judgement.card, lang),
        "led": suit_name(judgement.led_suit, lang),
        "followers": join_words((card_name(card, lang) for card in judgement.followers), lang),
    }
    if had_to_follow:
        if player is None:
            raise TypeError("describe_play(had_to_follow=True) names the player: give player=")
        key = _BOUND_BY_LEAD.get(judgement.lead) or (
            "worked.follow-yes" if judgement.followers else "worked.follow-no"
        )
    else:
        section = "play" if player is not None else "play-you"
        key = f"{section}.{judgement.rule.value}"
        if judgement.rule is PlayRule.NO_SUIT_YET and judgement.card.is_number:
            values["led"] = suit_name(judgement.card.suit, lang)
            key = f"{section}.no-suit-yet-sets"
    sentence = text(key, lang, **values)
    return sentence[:1].upper() + sentence[1:]


_BOUND_BY_LEAD = {
    Lead.NOTHING_PLAYED: "worked.follow-leads",
    Lead.ONLY_JESTERS: "worked.follow-no-suit-yet",
    Lead.WIZARD_FIRST: "worked.follow-wizard-first",
}
"""Whether the led suit bound the player, when no suit was led: the reason why not.
(With a led suit, it bound them exactly when they held it.)"""


def describe_score(bid: int, taken: int, lang: str = DEFAULT_LANGUAGE) -> str:
    """The score of one round with its formula.

    >>> describe_score(2, 2)
    'Bid 2, took 2: bid met, so 20 + 10 × 2 = 40.'
    >>> describe_score(1, 3)
    'Bid 1, took 3: 2 off, so -10 × 2 = -20. Tricks taken earn nothing when the bid is missed.'
    """
    points = round_score(bid, taken)
    if bid == taken:
        key = "score.met-zero" if bid == 0 else "score.met"
        return text(key, lang, bid=bid, taken=taken, points=points)
    return text("score.missed", lang, bid=bid, taken=taken, off=abs(bid - taken), points=points)


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
