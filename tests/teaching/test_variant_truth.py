"""Every sentence is true in every variant the tutor offers (issue 31, point 2).

A sentence about a rule that holds only in some variants says which. Such sentences are
declared in ``variant_claims.toml``: where the sentence is (a lesson's text or a catalog
message), what it claims (a claim below, checked by the engine) and its scope (the variants
it says it holds in). The tests:

- render every lesson text, every catalog message the play screen shows (its tips
  included) and every explanation of the questions, under each variant where it can
  appear, recording which message appeared in which variant;
- check each declared claim with the engine in every variant where its text appears: true
  exactly in its scope (and where the text appears outside its scope, it names the scope);
  a sentence that describes a named variant ("with hidden bids, nobody sees...") is
  declared ``about`` it instead, and checked true of that variant wherever it is shown;
- check that a sentence no claim declares makes no variant-dependent claim: no sentence of
  a lesson or a catalog, in any language, matches the claim patterns unless a declared
  claim covers it (``says``).

The engine answers the claims: the schedule (:func:`cards_per_round`), the deal of the
last round (:class:`Round`: is a card left to turn?), :meth:`Round.bid_visible` and, for
plus/minus one, :meth:`Round.legal_bids` of the last bidder.
"""

from __future__ import annotations

import re
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

import tutor.teaching.text as text_module
from tutor.errors import InvalidRulesError
from tutor.rules.cards import DECK, Suit
from tutor.rules.round import Phase, Round
from tutor.rules.schedule import GameLength, cards_per_round
from tutor.rules.trump import RevealRule
from tutor.rules.variants import PRESETS, Bidding, Rules, variant_names
from tutor.teaching.kinds.bid_visibility import BidTime, BidVisibilityQuestion
from tutor.teaching.kinds.legal_bids import LegalBidsQuestion
from tutor.teaching.kinds.round_setup import ready_to_bid
from tutor.teaching.kinds.rule_check import RULE_CHECKS, RuleCheckQuestion
from tutor.teaching.kinds.schedule import ScheduleAsk, ScheduleQuestion
from tutor.teaching.kinds.trump import TrumpQuestion
from tutor.teaching.lesson_loader import list_lessons
from tutor.teaching.question import Question
from tutor.teaching.text import LANGUAGES, catalog
from tutor.teaching.worked_example import worked_example

CLAIMS_FILE = Path(__file__).with_name("variant_claims.toml")
PLAYER_COUNTS = (3, 4, 5, 6)


# -- the variants ---------------------------------------------------------------------------


def offered_rules() -> list[Rules]:
    """Every rules value the tutor offers: each preset, and each combination of presets
    :meth:`Rules.preset` accepts (lesson 10: a game length goes with any way of bidding)."""
    found: dict[Rules, None] = {}
    for size in range(1, len(PRESETS) + 1):
        for names in combinations(PRESETS, size):
            try:
                found[Rules.preset(*names)] = None
            except InvalidRulesError:
                continue
    return list(found)


OFFERED_RULES = offered_rules()


@dataclass(frozen=True, slots=True)
class Context:
    """Where a text appears: under these rules, with these numbers of players."""

    rules: Rules
    players: tuple[int, ...] = PLAYER_COUNTS

    def __str__(self) -> str:
        rules = self.rules
        words = [f"length {rules.length.value}", f"{rules.bidding.value} bids"]
        if rules.plus_minus_one:
            words.append("plus/minus one")
        return ", ".join(words) + f", players {'/'.join(map(str, self.players))}"


EVERYWHERE = tuple(Context(rules) for rules in OFFERED_RULES)
"""A lesson is read whatever game the learner plays: its texts appear under every variant."""


# -- the claims, answered by the engine ------------------------------------------------------


@cache
def _last_round(rules: Rules, players: int) -> Round:
    """The last round of a game, dealt by the engine."""
    cards = cards_per_round(players, rules.length)[-1]
    return Round(players=players, cards=cards, dealer=0, seed=0, rules=rules)


@cache
def _bid_seen(rules: Rules, players: int, when: BidTime) -> bool:
    """Whether the next seat sees the first bidder's bid at ``when``, as the engine
    plays a round of one card under ``rules``."""
    rnd = ready_to_bid(Round(players=players, cards=1, dealer=0, seed=0, rules=rules))
    first = rnd.to_act
    assert first is not None
    rnd.bid(rnd.legal_bids()[0])
    if when is not BidTime.BIDDING:
        while rnd.phase is Phase.BIDDING:
            rnd.bid(rnd.legal_bids()[0])
    if when is BidTime.SCORING:
        while not rnd.finished:
            rnd.play(rnd.legal_plays()[0])
    return rnd.bid_visible(first, to=(first + 1) % players)


@cache
def _last_bidder_free(rules: Rules, players: int, *, others_over: bool) -> bool:
    """Whether the last bidder of a round of 2 cards may bid 0, 1 or 2, as the engine
    says, after the others bid 0 (a bid of 2 would make the total 2), or over 2 in all."""
    rnd = ready_to_bid(Round(players=players, cards=2, dealer=0, seed=0, rules=rules))
    for bid in [2, 1] + [0] * (players - 3) if others_over else [0] * (players - 1):
        rnd.bid(bid)
    return rnd.legal_bids() == [0, 1, 2]


def _schedule(rules: Rules, players: int) -> list[int]:
    return cards_per_round(players, rules.length)


Claim = Callable[[Rules, int, Mapping[str, Any]], bool]

CLAIMS: dict[str, Claim] = {
    # cards per round
    "rounds-grow-by-one": lambda rules, players, _: (
        _schedule(rules, players) == list(range(1, len(_schedule(rules, players)) + 1))
    ),
    "rounds-until-deck-runs-out": lambda rules, players, _: (
        len(_schedule(rules, players)) == len(DECK) // players
    ),
    "rounds": lambda rules, players, given: len(_schedule(rules, players)) == given["rounds"],
    "next-round-cards": lambda rules, players, given: (
        len(_schedule(rules, players)) == given["count"]
        and _schedule(rules, players)[given["number"] - 1] == given["cards"]
    ),
    # trump in the last round
    "last-round-no-trump": lambda rules, players, _: (
        _last_round(rules, players).reveal.rule is RevealRule.NOTHING_LEFT
    ),
    "last-round-trump-turned": lambda rules, players, _: (
        _last_round(rules, players).reveal.rule is not RevealRule.NOTHING_LEFT
    ),
    # bidding visibility
    "bids-seen-as-made": lambda rules, players, _: _bid_seen(rules, players, BidTime.BIDDING),
    "bids-unseen-as-made": lambda rules, players, _: not _bid_seen(rules, players, BidTime.BIDDING),
    "bids-seen-in-play": lambda rules, players, _: _bid_seen(rules, players, BidTime.PLAYING),
    "bids-unseen-in-play": lambda rules, players, _: not _bid_seen(rules, players, BidTime.PLAYING),
    "bids-seen-at-scoring": lambda rules, players, _: _bid_seen(rules, players, BidTime.SCORING),
    # the total of the bids (plus/minus one)
    "any-bid-total": lambda rules, players, _: _last_bidder_free(rules, players, others_over=False),
    "last-bidder-restricted": lambda rules, players, _: (
        not _last_bidder_free(rules, players, others_over=False)
    ),
    "any-bid-when-over": lambda rules, players, _: _last_bidder_free(
        rules, players, others_over=True
    ),
}
"""What a sentence may claim, each answered by the engine for one variant and player count
(``given``: the claim's values in the claims file and the values the message was filled
with)."""


# -- the declared claims --------------------------------------------------------------------


def setting_value(rules: Rules, setting: str) -> str:
    """A setting of ``rules`` as the claims file writes it ("tournament", "true")."""
    value = getattr(rules, setting)
    return str(value).lower() if isinstance(value, bool) else str(value.value)


@dataclass(frozen=True)
class Declared:
    """One sentence whose truth depends on the variant, as ``variant_claims.toml`` says."""

    where: str
    claims: tuple[str, ...]
    scope: Mapping[str, tuple[str, ...]]
    says: Mapping[str, str]
    values: Mapping[str, Any] = field(default_factory=dict)
    why: str = ""
    about: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The variants the sentence describes ("with hidden bids, nobody sees..."): its claims
    are checked in those, whatever game it is shown in (no scope then)."""

    def in_scope(self, rules: Rules) -> bool:
        return all(
            setting_value(rules, setting) in allowed for setting, allowed in self.scope.items()
        )

    def is_about(self, rules: Rules) -> bool:
        return bool(self.about) and all(
            setting_value(rules, setting) in allowed for setting, allowed in self.about.items()
        )

    def holds(self, context: Context, given: Mapping[str, Any]) -> bool:
        values = {**self.values, **given}
        return all(
            CLAIMS[claim](context.rules, players, values)
            for claim in self.claims
            for players in context.players
        )

    def __str__(self) -> str:
        return f"{self.where} ({' + '.join(self.claims)}; says {self.says['en']!r})"


def _load_claims() -> tuple[list[Declared], dict[str, dict[str, dict[str, list[str]]]]]:
    with CLAIMS_FILE.open("rb") as handle:
        data = tomllib.load(handle)
    declared = []
    for entry in data["sentence"]:
        scope, about = (
            {
                setting: tuple(str(value).lower() for value in values)
                for setting, values in entry.get(key, {}).items()
            }
            for key in ("scope", "about")
        )
        declared.append(
            Declared(
                where=entry["where"],
                claims=tuple(entry["claims"]),
                scope=scope,
                says=entry["says"],
                values=entry.get("values", {}),
                why=entry.get("why", ""),
                about=about,
            )
        )
    return declared, data["names"]


DECLARED, NAMES = _load_claims()


# -- the claim patterns: what a sentence without a declared claim may not say -------------

CLAIM_PATTERNS: dict[str, tuple[str, ...]] = {
    "en": (
        r"\blast round",  # what the last round deals, and its trump
        r"\bone (?:more )?card more\b|\bone more card\b|\bby one card\b|\bgrows? by one\b",
        r"60 ÷|÷ players|\b60 / ",  # how many rounds a game has
        r"\b(?:hears?|heard|hearing|aloud)\b|\brevealed (?:all )?together\b"
        r"|\bbids? (?:\w+ ){0,3}(?:revealed|hidden|shown|secret)\b|\bknows? every bid"
        r"|\bsee (?:\w+ )?bids?\b|\blearn what\b",  # who sees the bids, and when
        r"\bany total\b|\badd up to anything\b|\blast bidder\b[^.]*\bmay bid any"
        r"|\bmay not (?:choose|make|bid)\b[^.]*\btotal",  # what the total may be
    ),
    "ja": (
        r"最終ラウンド|最後のラウンド",
        r"1枚ずつ(?:増|多)|1枚多く",
        r"60 ÷",
        r"声に出|聞きます|聞かず|伏せ(?:られ)?たまま|公開(?:します|され)|ビッドがわかる|ビッドが見え",
        r"いくつ(?:に(?:なって)?)?でもかまいません|いくつになってもかまいません"
        r"|どの数でもビッドできます|何をビッドしてもかまいません|等しくなる数を(?:ビッドでき|選べ)ません",
    ),
    "zh-Hant": (
        r"最後一輪",
        r"多發|多一張",
        r"60 ÷",
        r"聽得到|聽不到|一起公開|同時公開|才公開|一直保密|一直隱藏|保持隱藏|看得到|才知道",
        r"可以是任何數|不限制預報的合計|可以報[^。]*任何數|不能(?:讓|選會讓)所有預報的?總和等於",
    ),
}
"""Per language, words that make a sentence's truth depend on the variant. A variant's
own name (``[names]`` of the claims file) is not a claim: it is taken out first."""


def _all_names(lang: str) -> list[str]:
    names = [name for kinds in NAMES.values() for by in kinds.values() for name in by[lang]]
    return sorted(names, key=len, reverse=True)


def claim_words(sentence: str, lang: str) -> list[str]:
    """The claim patterns ``sentence`` matches, once the variants' names are taken out."""
    bare = sentence
    for name in _all_names(lang):
        bare = re.sub(re.escape(name), " ", bare, flags=re.IGNORECASE)
    return [pattern for pattern in CLAIM_PATTERNS[lang] if re.search(pattern, bare, re.I)]


def passages(words: str) -> list[str]:
    """A text's paragraphs and list items, each on one line."""
    found = []
    for paragraph in re.split(r"\n\s*\n", words):
        for item in re.split(r"\n(?=\s*[-*] )", paragraph):
            line = " ".join(item.split())
            if line:
                found.append(line)
    return found


def sentences(passage: str, lang: str) -> list[str]:
    """A passage's sentences."""
    if lang == "en":
        parts = re.split(r"(?<=[.!?])\s+(?=[\"“(*A-Z0-9-])", passage)
    else:
        parts = re.split(r"(?<=[。！？])", passage)
    return [part.strip() for part in parts if part.strip()]


# -- every text of the course -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Written:
    """One text as written: a lesson text or a catalog message, in one language."""

    where: str
    lang: str
    words: str


def lesson_texts() -> Iterator[Written]:
    for lesson in list_lessons():
        for piece in lesson.texts():
            for lang, words in piece.translations.items():
                yield Written(piece.place, lang, words)


def catalog_texts() -> Iterator[Written]:
    for lang in LANGUAGES:
        for section, messages in catalog(lang).items():
            for key, words in messages.items():
                yield Written(f"{section}.{key}", lang, str(words))


def all_texts() -> list[Written]:
    return [*lesson_texts(), *catalog_texts()]


LESSON_PLACES = frozenset(written.where for written in lesson_texts())


def declared_at(where: str) -> list[Declared]:
    return [entry for entry in DECLARED if entry.where == where]


def undeclared_claims(written: Written) -> list[str]:
    """The sentences of ``written`` that match a claim pattern and that no declared claim
    of its place covers (a question claims nothing: it asks)."""
    found = []
    says = [entry.says[written.lang] for entry in declared_at(written.where)]
    for passage in passages(written.words):
        for sentence in sentences(passage, written.lang):
            if sentence.endswith(("?", "？")) or not claim_words(sentence, written.lang):
                continue
            if not any(words in sentence for words in says):
                found.append(f"{written.where} [{written.lang}]: {sentence!r}")
    return found


# -- rendering, with a record of which message appeared in which variant -------------------


class _Template(str):
    """A catalog message that records, when it is filled, the variants it is shown in."""

    key: str

    def format(self, /, *args: object, **values: Any) -> str:
        for context in _SHOWING_IN[-1] if _SHOWING_IN else ():
            _RENDERED[self.key].append((context, values))
        return str.format(self, *args, **values)


_SHOWING_IN: list[tuple[Context, ...]] = []
_RENDERED: dict[str, list[tuple[Context, Mapping[str, Any]]]] = defaultdict(list)


@cache
def _recording_catalog(lang: str) -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    for section, messages in _real_catalog(lang).items():
        sections[section] = {}
        for key, words in messages.items():
            template = _Template(words)
            template.key = f"{section}.{key}"
            sections[section][key] = template
    return sections


_real_catalog = catalog


class showing_in:
    """While rendering: the texts are shown in these variants."""

    def __init__(self, *contexts: Context) -> None:
        self.contexts = contexts

    def __enter__(self) -> None:
        _SHOWING_IN.append(self.contexts)

    def __exit__(self, *_exc: object) -> None:
        _SHOWING_IN.pop()


def question_contexts(question: Question) -> tuple[Context, ...]:
    """The variants a question's words are about: its own game length, way of bidding,
    plus/minus one and number of players, where it has them; every variant otherwise."""
    players = getattr(question, "players", None)
    length = getattr(question, "length", None) if players is not None else None
    bidding = getattr(question, "bidding", None)
    plus_minus_one = getattr(question, "plus_minus_one", None)
    counts = (players,) if isinstance(players, int) else PLAYER_COUNTS
    return tuple(
        Context(rules, counts)
        for rules in OFFERED_RULES
        if (length is None or rules.length is length)
        and (bidding is None or rules.bidding is bidding)
        and (plus_minus_one is None or rules.plus_minus_one == plus_minus_one)
    )


def variant_questions() -> Iterator[Question]:
    """The course's questions, and questions of each kind whose words depend on the
    variant, asked of every game length and player count and every way of bidding."""
    for lesson in list_lessons():
        for item in lesson.items():
            if isinstance(item.subject, Question):
                yield item.subject
    for length in GameLength:
        for players in PLAYER_COUNTS:
            last = len(cards_per_round(players, length))
            yield ScheduleQuestion(players=players, ask=ScheduleAsk.ROUNDS, length=length)
            for number in sorted({1, 2, last}):
                for ask in (ScheduleAsk.CARDS, ScheduleAsk.TRICKS):
                    yield ScheduleQuestion(players=players, ask=ask, round=number, length=length)
            for number in sorted({1, last}):
                try:
                    yield TrumpQuestion.of(None, players=players, round=number, length=length)
                except ValueError:  # the deal leaves cards: one is turned
                    yield TrumpQuestion.of("R2", players=players, round=number, length=length)
    for bidding in Bidding:
        for when in BidTime:
            yield BidVisibilityQuestion(bidding=bidding, when=when)
    for plus_minus_one in (False, True):
        for bids in ((), (1, 1), (1, 1, 0)):
            yield LegalBidsQuestion(players=4, cards=3, bids=bids, plus_minus_one=plus_minus_one)
    for name, check in RULE_CHECKS.items():  # some say what a way of bidding hides
        yield RuleCheckQuestion.of(name, players=4 if check.players else None)


def render_question(question: Question, lang: str) -> None:
    """Every text of a question: prompt, hint, situation, answer, each choice's feedback."""
    question.prompt(lang)
    question.hint(lang)
    question.situation_text(lang)
    question.answer_text(lang)
    choices = question.choices()
    for choice in choices:
        question.choice_label(choice, lang)
        if question.answer_kind.value == "one-choice":
            question.check(choice, lang)
    if not choices:
        right = question.correct_answer()
        assert isinstance(right, int)
        question.check(right, lang)
        question.check(right + 1, lang)


def play_through(screen: Any, *, rounds: int | None = None) -> Iterator[Any]:
    """Play the screen's game, the learner making the first allowed move each time,
    yielding the screen at the end of each round, before "Deal the next round" is pressed.

    The screen is shown at the learner's first turn in each phase of a round (a hidden bid
    hidden, then the bids in play) and at its end; the moves between go to the session,
    as the screen's buttons would send them."""
    from tutor.display.play import PlayScreen

    assert isinstance(screen, PlayScreen)
    session = screen.session
    played = 0
    while True:
        shown: set[Phase] = set()
        while not session.round.finished:
            view = session.view()
            if view.phase not in shown:
                shown.add(view.phase)
                screen.refresh()
            if view.phase is Phase.TRUMP_CHOICE:
                session.choose_trump(Suit.RED)
            elif view.phase is Phase.BIDDING:
                session.bid(view.legal_bids[0])
            else:
                session.play(view.legal_plays[0])
        screen.refresh()
        played += 1
        yield screen
        if session.finished or (rounds is not None and played >= rounds):
            return
        screen.next_round_button.click()


def play_screen_games() -> Iterator[tuple[str, int]]:
    """The games played on the play screen: each variant it offers, with 3 to 6 players;
    a way of bidding in the standard game's length with 6 players only (its words do not
    depend on the number of players, and a standard game of 3 is 20 rounds long)."""
    for name in variant_names():
        rules = Rules.preset(name)
        standard_length = rules.length is GameLength.STANDARD
        for players in PLAYER_COUNTS if name == "standard" or not standard_length else (6,):
            yield name, players


def render_play_screens() -> None:
    """A whole game on the play screen in each variant it offers."""
    from tutor.display.play import PlayScreen

    for name, players in play_screen_games():
        with showing_in(Context(Rules.preset(name), (players,))):
            screen = PlayScreen(players=players, variant=name, seed=players)
            for _ in play_through(screen):
                pass


@pytest.fixture(scope="module")
def rendered() -> dict[str, list[tuple[Context, Mapping[str, Any]]]]:
    """Which catalog message was shown in which variants, with the values it was filled
    with: every question's words, the worked example and whole games on the play screen."""
    _RENDERED.clear()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(text_module, "catalog", _recording_catalog)
        for question in variant_questions():
            with showing_in(*question_contexts(question)):
                for lang in LANGUAGES:
                    render_question(question, lang)
        with showing_in(*(Context(rules, (4,)) for rules in OFFERED_RULES)):
            for lang in LANGUAGES:  # lesson 8's round, read whatever game is played
                worked_example(lang)
        render_play_screens()
    return dict(_RENDERED)


def contexts_of(
    where: str, rendered: Mapping[str, list[tuple[Context, Mapping[str, Any]]]]
) -> list[tuple[Context, Mapping[str, Any]]]:
    """Where a declared text appears: a lesson text under every variant; a catalog
    message wherever the rendering showed it."""
    if where in LESSON_PLACES:
        return [(context, {}) for context in EVERYWHERE]
    unique: dict[tuple[Context, tuple[tuple[str, Any], ...]], Mapping[str, Any]] = {}
    for context, values in rendered.get(where, []):
        unique[(context, tuple(sorted(values.items())))] = values
    return [(context, values) for (context, _), values in unique.items()]


# -- the tests ------------------------------------------------------------------------------


def test_every_variant_the_tutor_offers_is_checked() -> None:
    """Each preset, each way of combining them, and each game length of the play screen."""
    assert {rules for rules in OFFERED_RULES} >= set(PRESETS.values())
    assert {rules.length for rules in OFFERED_RULES} == set(GameLength)
    assert {rules.bidding for rules in OFFERED_RULES} == set(Bidding)
    # plus/minus one goes with open bids only, and with every length
    assert len(OFFERED_RULES) == (len(Bidding) + 1) * len(GameLength)
    for name in variant_names():  # the play screen's choices
        assert Rules.preset(name) in OFFERED_RULES


@pytest.mark.parametrize("claim", sorted(CLAIMS))
def test_each_claim_can_be_false(claim: str) -> None:
    """A claim the engine answers the same way in every variant could not catch a wrong
    sentence: each is true in some variant and false in another (but two, which hold in
    every variant: all bids are shown at scoring; bids over the tricks free the last
    bidder)."""
    given = {"rounds": 10, "number": 2, "count": 10, "cards": 3}
    answers = {
        CLAIMS[claim](rules, players, given) for rules in OFFERED_RULES for players in PLAYER_COUNTS
    }
    if claim in {"bids-seen-at-scoring", "any-bid-when-over"}:
        assert answers == {True}  # true in every variant: the sentences may say so
    else:
        assert answers == {True, False}


def test_a_sentence_without_a_declared_claim_claims_nothing_about_the_variant() -> None:
    """No sentence of a lesson or a catalog, in any language, says what the last round
    deals, how the rounds grow, how many rounds a game has or who sees the bids, unless
    a declared claim (checked by the engine below) covers it."""
    found = [problem for written in all_texts() for problem in undeclared_claims(written)]
    assert not found, (
        "sentences that depend on the variant without saying which; qualify them and "
        "declare them in variant_claims.toml:\n" + "\n".join(found)
    )


@pytest.mark.parametrize(
    ("where", "lang", "old"),
    [
        (
            "lessons/02_trump.toml, section 'last-round'",
            "en",
            "In the last round of a game every card is dealt, so nothing is left to turn "
            "over: the last round is always played **without trump**.",
        ),
        (
            "lessons/02_trump.toml, section 'last-round'",
            "ja",
            "ゲームの最終ラウンドではすべてのカードが配られるので、めくるカードが残りません。"
            "そのため最終ラウンドは必ず**切り札なし**でプレイします。",
        ),
        (
            "lessons/02_trump.toml, section 'last-round'",
            "zh-Hant",
            "一場遊戲的最後一輪會把所有牌都發完，沒有牌可以翻開，所以最後一輪一定**沒有王牌**。",
        ),
        (
            "play-screen.next-round-tooltip",
            "en",
            "The dealer moves one seat clockwise and deals one more card each",
        ),
        (
            "play-screen.next-round-tooltip",
            "ja",
            "ディーラーが時計回りに1つ隣へ移り、1人1枚ずつ多く配ります",
        ),
        ("play-screen.next-round-tooltip", "zh-Hant", "發牌者順時針移一個座位，每人多發一張牌"),
    ],
)
def test_the_old_wrong_sentences_are_caught(where: str, lang: str, old: str) -> None:
    """The sentences issue 31 found wrong in the five-round game and the tournament: put
    back, the check above refuses them."""
    assert undeclared_claims(Written(where, lang, old))


def test_each_declared_sentence_is_where_it_says() -> None:
    """Each declared claim names a text that exists, a claim the engine answers, and the
    words of its sentence in every language, found in that text."""
    texts = {(written.where, written.lang): written.words for written in all_texts()}
    problems = []
    for entry in DECLARED:
        unknown = set(entry.claims) - set(CLAIMS)
        if not entry.claims and not entry.why:
            problems.append(f"{entry}: no claims: say why its words claim nothing (why = ...)")
        if unknown:
            problems.append(f"{entry}: unknown claims {sorted(unknown)}")
        for key, settings in (("scope", entry.scope), ("about", entry.about)):
            for setting, allowed in settings.items():
                if set(allowed) - set(NAMES.get(setting, {})):
                    problems.append(f"{entry}: unknown {key} {setting} = {list(allowed)}")
        if entry.scope and entry.about:
            problems.append(f"{entry}: a sentence holds in a scope or describes a variant")
        for lang in LANGUAGES:
            words = texts.get((entry.where, lang))
            if words is None:
                problems.append(f"{entry}: no {lang} text at {entry.where!r}")
            elif lang not in entry.says:
                problems.append(f"{entry}: no says.{lang}")
            elif not any(
                entry.says[lang] in sentence
                for passage in passages(words)
                for sentence in sentences(passage, lang)
            ):
                problems.append(f"{entry}: {entry.says[lang]!r} is not in the {lang} text")
    assert not problems, "\n".join(problems)


def test_every_declared_message_is_shown_somewhere(rendered: Mapping[str, Any]) -> None:
    """A declared catalog message is checked where the rendering shows it: one never shown
    would go unchecked (render it below, or remove its entry)."""
    missing = [str(entry) for entry in DECLARED if not contexts_of(entry.where, rendered)]
    assert not missing, "\n".join(missing)


def test_each_declared_claim_holds_exactly_in_its_scope(rendered: Mapping[str, Any]) -> None:
    """In every variant where its text appears, a declared claim is true if the variant is
    in the sentence's scope and false if not (a scope too wide is a wrong sentence; a
    scope too narrow hides where the rule holds too)."""
    problems = []
    for entry in DECLARED:
        if entry.about:  # true of the variant it describes, whatever game is played
            continue
        for context, values in contexts_of(entry.where, rendered):
            holds, in_scope = entry.holds(context, values), entry.in_scope(context.rules)
            if holds != in_scope:
                where = "outside" if not in_scope else "in" if entry.scope else "where shown,"
                truth = "true" if holds else "false"
                scope = " its scope" if entry.scope else ""
                problems.append(f"{entry} {values or ''}: {truth} {where}{scope} in {context}")
    assert not problems, "\n".join(problems)


def about_problems(entry: Declared) -> list[str]:
    """Where a sentence that describes a variant (``about``) is false of it: its claims
    are answered by the engine in every offered variant it describes."""
    described = [Context(rules) for rules in OFFERED_RULES if entry.is_about(rules)]
    if not described:
        return [f"{entry}: describes no variant the tutor offers"]
    return [
        f"{entry}: false in {context}, a variant it describes"
        for context in described
        if not entry.holds(context, dict(entry.values))
    ]


def test_a_sentence_describing_a_variant_is_true_of_it() -> None:
    """ "With secret bids, they stay hidden until scoring" is true of secret bids, wherever
    it is shown: the engine plays that variant and answers its claims."""
    about = [entry for entry in DECLARED if entry.about]
    assert about, "no declared sentence describes a variant"
    assert [problem for entry in about for problem in about_problems(entry)] == []


def test_a_wrong_description_of_a_variant_is_caught() -> None:
    wrong = Declared(
        where="rule-check.plus-minus-one-secret-bids-why",
        claims=("bids-seen-in-play",),
        scope={},
        says={"en": "with secret bids they are seen during play"},
        about={"bidding": ("secret",)},
    )
    secret = [rules for rules in OFFERED_RULES if rules.bidding is Bidding.SECRET]
    assert len(secret) == len(GameLength)  # secret bids go with every game length
    assert about_problems(wrong) == [
        f"{wrong}: false in {Context(rules)}, a variant it describes" for rules in secret
    ]


def test_a_scoped_sentence_names_its_variants(rendered: Mapping[str, Any]) -> None:
    """A sentence shown in a variant outside its scope says which variants it holds in:
    its paragraph names each of them, in the course's words."""
    texts = {(written.where, written.lang): written.words for written in all_texts()}
    problems = []
    for entry in DECLARED:
        outside = [
            context
            for context, _ in contexts_of(entry.where, rendered)
            if not entry.in_scope(context.rules) or entry.about
        ]
        if not outside:
            continue
        for lang in LANGUAGES:
            passage = next(
                (p for p in passages(texts[entry.where, lang]) if entry.says[lang] in p), ""
            )
            for setting, allowed in {**entry.scope, **entry.about}.items():
                for value in allowed:
                    names = NAMES[setting][value][lang]
                    if not any(name.lower() in passage.lower() for name in names):
                        problems.append(
                            f"{entry} [{lang}]: shown in {outside[0]} but does not name "
                            f"its scope {setting} = {value} ({' / '.join(names)})"
                        )
    assert not problems, "\n".join(problems)


def test_the_names_are_the_course_terms() -> None:
    """The names a scoped sentence uses for a variant include the catalogs' own."""
    catalog_keys = {
        ("length", "standard"): "lesson-variant.standard",
        ("length", "five"): "play-variant.five-rounds",
        ("length", "tournament"): "lesson-variant.tournament",
        ("bidding", "open"): "round-quiz.visibility-mode-open",
        ("bidding", "hidden"): "round-quiz.visibility-mode-hidden",
        ("bidding", "secret"): "round-quiz.visibility-mode-secret",
        ("plus_minus_one", "true"): "play-variant.plus-minus-one",
    }
    for (setting, value), key in catalog_keys.items():
        for lang in LANGUAGES:
            words = text_module.text(key, lang).lower()
            assert any(name.lower() in words for name in NAMES[setting][value][lang]), (
                setting,
                value,
                lang,
                words,
            )


@pytest.mark.parametrize(
    ("variant", "lang"),
    [
        ("standard", "en"),
        ("five-rounds", "en"),
        ("tournament", "en"),
        ("tournament", "ja"),
        ("tournament", "zh-Hant"),
    ],
)
def test_the_next_round_tip_says_what_the_next_round_deals(variant: str, lang: str) -> None:
    """Over a whole game, "Deal the next round" says how many cards the next round deals;
    pressed, the engine deals that many (the tournament's rounds grow by 2, then 1)."""
    from tutor.display.play import PlayScreen

    players = 4 if lang == "en" else 3
    schedule = cards_per_round(players, Rules.preset(variant).length)
    said = []
    for screen in play_through(PlayScreen(players=players, variant=variant, seed=11, lang=lang)):
        tip = screen.next_round_button.tooltip
        if screen.session.finished:
            assert not screen.session.can_deal_next
            continue
        assert screen.session.can_deal_next
        numbers = [int(n) for n in re.findall(r"\d+", tip)]  # round, rounds, ..., cards
        assert len(numbers) >= 3, f"the tip does not say which round deals how many: {tip!r}"
        number, count, cards = numbers[0], numbers[1], numbers[-1]
        said.append(cards)
        assert (number, count) == (screen.session.round_number + 1, len(schedule)), tip
        screen.next_round_button.click()
        assert screen.session.round.cards == cards, tip
    assert said == schedule[1:]
