"""Computer opponents for Spicy: ``LEVELS`` maps a level name to ``choose(view, legal, rng)`` (weakest first).

A bot sees only ``RULES.view(state, seat)`` and its legal actions; it returns one of them, or None to let an
out-of-turn chance (a challenge or a Copy Cat copy while someone else is awaited) go by. It keeps no memory between
calls: everything it knows is on the view (its hand, its own cards in the current stack, the last revealed card,
counts, scores and the approximate depth of World's End).

Levels
------
``easy``
    Plays a random honest card (true spice and number) when it has one; otherwise mostly passes and sometimes plays
    a random card with a random legal declaration. Rarely challenges (a few percent of its turns, 15% of last
    cards), never copies or tucks.

``medium``
    Scores every legal action in points and picks the best (:func:`_decide`):

    * a *play* is worth shedding a card, plus the trophy when it is our last card, plus a bonus when the next
      player probably has no honest follow-up, minus a little for spending a wild (the most flexible card). Then
      the risk: opponents challenge more often the less believable the declaration looks to someone counting only
      the public cards (:func:`bots_odds.simple_odds`), and always a decisive last card; a challenger names each
      trait in proportion to how doubtful it looks. A caught card costs the stack and the penalty cards, a card
      that survives wins them. So honest cards come first, and a bluff keeps the trait that is most likely to be
      checked (usually the number, lying on the spice);
    * a *pass* costs one card in hand; near World's End (its approximate depth in the view) it is worth more when
      we lead, as the draw may end the game, and less when we trail;
    * a *challenge* is worth the stack plus the owner's penalty cards times the chance of winning, minus the stack
      and our penalty cards times the chance of losing. The chance is :func:`bots_odds.simple_odds`: did the owner
      hold any card making the trait true, counting the cards we have seen (our hand, the last revealed card) out
      of the deck (3 copies of each spice and number, 5 wild numbers, 5 wild spices), weighed by how readily a
      player without such a card still claims the trait: a bluffer follows the stack's spice whatever it holds but
      keeps a number it has, so an unbacked spice is about as likely as a backed one and an unbacked number a
      quarter as likely (``Profile.propensities``; naive odds, with the number doubted first, made medium's
      challenges succeed only 30% of the time, these about half). Out of turn it challenges only when that value
      clears a margin, else returns None;
    * an opponent's *last card* is challenged when that beats letting the trophy go: always when it would be their
      second trophy (an outright win); for the third trophy, when ending the game would leave us behind; and it
      declines a game-ending trophy that leaves us in front;
    * Spice It Up!: a Copy Cat copy is made only with the exact card (a copy is checked on both traits), out of
      turn too, to shed a card; under Change Your Luck an honest 5 tucks the two highest natural cards while we
      lead (the draws hasten World's End); with Spice Raider a declared 4 counts the stack it will collect, and a
      card on someone else's 4 counts the stack it hands over. We Love Chili!, Start It Up!, Turn It Up! and the
      house rules only change the legal declarations and checks, which the scoring reads from the rules' helpers.

``hard``
    The same scoring with a better reading of the table. It counts its own cards in the current stack as seen, and
    estimates challenges with :func:`bots_odds.bayes_odds`: hands of the owner's size are drawn from the unseen
    cards, and a model player (honest when it can, usually with its lowest honest card; otherwise it seldom passes
    and bluffs keeping the number by preference, else the spice) says how it would have declared; the odds are the
    share of the hands declaring what was declared whose card has a true spice or number. This weighs "held
    exactly this card" against "had nothing and chose this lie", and so catches the common "right number, wrong
    spice" lie that medium believes. It also prices the World's End risk of a challenge's penalty draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.spicy.bots_odds import (
    Odds,
    Pool,
    bayes_odds,
    chance_any,
    honest_support,
    make_pool,
    pool_size,
    simple_odds,
)
from games.spicy.cards import (
    CARD_NUMBER,
    CHANGE_YOUR_LUCK,
    CHILI,
    LUCK_NUMBER,
    RAID_NUMBER,
    SPICE_RAIDER,
    START_IT_UP,
    TURN_IT_UP,
    WE_LOVE_CHILI,
    WILD_NUMBER,
    WILD_SPICE,
    Declaration,
    claim_holds,
    legal_declarations,
)

View = dict[str, Any]
Action = dict[str, Any]
Bot = Callable[[View, list[Action], random.Random], Action | None]

WIN = 50.0  # an outright win (or loss) in points
END = 25.0  # the game ending now with us ahead (or behind), beyond the points themselves
PAW = 0.9  # Spice Raider: how surely a declared 4 collects the stack
WILDS = (WILD_NUMBER, WILD_SPICE)


@dataclass(frozen=True)
class Profile:
    """The knobs that tell medium from hard."""

    read_bayes: bool  # read opponents' cards with bots_odds.bayes_odds instead of simple_odds
    own_stack: bool  # count our own cards in the current stack as seen
    card_value: float = 2.0  # points for shedding a card (end score and the trophy race)
    stack_weight: float = 1.0  # how much a won card counts against a card in hand
    trophy: float = 14.0  # a first trophy: 10 points and half-way to an outright win
    wild_keep: float = 0.6  # reluctance to spend a wild
    block_weight: float = 0.8  # value of leaving the next player without an honest follow-up
    challenge_margin: float = 0.5  # points a challenge must clear over doing nothing
    end_aware_challenges: bool = False  # price World's End for the penalty draws of a challenge
    # medium's reading of a top card (simple_odds): how much likelier a claim is without a fitting card
    propensities: tuple[float, float, float] = (1.0, 0.25, 0.15)


MEDIUM = Profile(read_bayes=False, own_stack=False)
HARD = Profile(read_bayes=True, own_stack=True, challenge_margin=0.3, end_aware_challenges=True)


# --------------------------------------------------------------------------------------------------------------
# What the seat knows
# --------------------------------------------------------------------------------------------------------------


@dataclass
class Table:
    """The view plus what the bot derives from it once per decision."""

    view: View
    profile: Profile
    me: int
    hand: list[str]
    pool: Pool  # cards we have not seen
    public: Pool  # cards nobody has seen face up (what an observer counts with)
    active: frozenset[str]

    @classmethod
    def read(cls, view: View, profile: Profile) -> Table:
        hand = list(view["hand"] or [])
        seen = list(hand)
        if profile.own_stack:
            for entry in view["stack"]:
                if "card" in entry:
                    seen += [entry["card"], *entry["tucked_cards"]]
        revealed = [view["last_challenge"]["card"]] if view["last_challenge"] else []
        return cls(
            view=view,
            profile=profile,
            me=view["seat"],
            hand=hand,
            pool=make_pool(seen + revealed),
            public=make_pool(revealed),
            active=frozenset(view["spice_it_up"]),
        )

    @property
    def players(self) -> int:
        return self.view["num_players"]

    @property
    def turn_it_up(self) -> bool:
        return TURN_IT_UP in self.active

    @property
    def raider(self) -> bool:
        return SPICE_RAIDER in self.active

    def follow_ups(self, declaration: Declaration | None) -> tuple[Declaration, ...]:
        """The legal declarations after ``declaration`` (None: a new stack)."""
        return tuple(
            legal_declarations(
                declaration,
                start_it_up=START_IT_UP in self.active,
                we_love_chili=WE_LOVE_CHILI in self.active,
            )
        )

    def opponents(self) -> list[int]:
        return [seat for seat in range(self.players) if seat != self.me]

    def weight(self, seat: int) -> float:
        """How much points gained by ``seat`` hurt us: fully against the only or the leading opponent."""
        if self.players == 2:
            return 1.0
        scores = self.view["scores"]
        leader = max(scores[other] for other in self.opponents())
        return 1.0 if scores[seat] >= leader else 0.5

    def average_weight(self) -> float:
        opponents = self.opponents()
        return sum(self.weight(seat) for seat in opponents) / len(opponents)

    def next_seat(self, declaration: Declaration) -> int:
        direction = self.view["direction"]
        if self.view["options"]["chiliReverses"] and declaration[0] == CHILI:
            direction = -direction
        return (self.me + direction) % self.players


# --------------------------------------------------------------------------------------------------------------
# Odds
# --------------------------------------------------------------------------------------------------------------


def _top_odds(table: Table) -> Odds:
    """How likely the top card passes each check, from our point of view."""
    view = table.view
    top, stack = view["top"], view["stack"]
    owner = top["owner"]
    declaration = (top["spice"], top["number"])
    previous = (stack[-2]["spice"], stack[-2]["number"]) if len(stack) >= 2 else None
    legal = table.follow_ups(previous)
    if declaration not in legal:  # e.g. the first card after a Spice Raider raid
        legal = (*legal, declaration)
    hand_before = view["hand_sizes"][owner] + 1
    if not table.profile.read_bayes:
        return simple_odds(table.pool, declaration, hand_before, table.turn_it_up, table.profile.propensities)
    forced = len(stack) == 1 and _lost_last_challenge(view, owner)
    pass_rate = 0.0 if forced else (0.15 if hand_before == 1 else 0.05)
    return bayes_odds(table.pool, declaration, legal, hand_before, table.turn_it_up, pass_rate, top["copy"])


def _lost_last_challenge(view: View, seat: int) -> bool:
    challenge = view["last_challenge"]
    return bool(challenge) and challenge["loser"] == seat and view["options"]["challengeLoserMustLead"]


def _observer_odds(table: Table, declaration: Declaration) -> Odds:
    """How believable our own declaration looks to an observer who counts only the public cards. We assume
    observers judge naively (did we hold such a card at all?), as people and the medium bot do."""
    return simple_odds(table.public, declaration, len(table.hand), table.turn_it_up)


def _challenge_chance(table: Table, believed: float, last: bool, decisive: bool) -> float:
    """How likely some opponent challenges a card whose weakest trait they believe with ``believed``."""
    if decisive:
        single = 0.95
    elif last:
        single = min(0.95, max(0.15, (0.8 - believed) * 3.0))
    else:
        single = min(0.95, max(0.1, (0.55 - believed) * 3.0))
    extra_opponents = table.players - 2
    return 1.0 - (1.0 - single) ** (1.0 + 0.5 * extra_opponents)


# --------------------------------------------------------------------------------------------------------------
# Trophies and the end of the game
# --------------------------------------------------------------------------------------------------------------


def _final_value(table: Table, scores: list[int]) -> float:
    """END if we would win a game ending with these scores, -END if we would lose, 0 on a shared first place."""
    best_other = max(scores[seat] for seat in table.opponents())
    mine = scores[table.me]
    return END if mine > best_other else (-END if mine < best_other else 0.0)


def _trophy_ends_game(view: View, seat: int) -> bool:
    return view["trophies"][seat] >= 1 or view["trophies_left"] == 1


def _trophy_stake(table: Table, seat: int, won: int = 0) -> float:
    """What ``seat`` earning a trophy now (with ``won`` more cards in its pile) is worth to us, negative for an
    opponent's."""
    view = table.view
    if view["trophies"][seat] >= 1:  # a second trophy wins outright
        return WIN if seat == table.me else -WIN
    if view["trophies_left"] == 1:  # the last trophy ends the game on points
        scores = list(view["scores"])
        scores[seat] += 10 + view["hand_sizes"][seat] + won  # the trophy, an empty hand, the cards won
        return 2 * _final_value(table, scores)
    trophy = table.profile.trophy
    return trophy if seat == table.me else -trophy * table.weight(seat)


def _end_chance(view: View, draws: int) -> float:
    """Chance that drawing ``draws`` cards reaches World's End (or needs a card from an empty pile)."""
    if draws <= 0:
        return 0.0
    pile = view["draw_pile"]
    marker = pile["worlds_end"]
    if marker is None:
        return 1.0 if pile["size"] < draws else 0.0
    approx, spread = marker["approx_cards_above"], marker["uncertainty"]
    above = [approx - offset for offset in range(-spread, spread + 1) if approx - offset >= 1]
    if not above:
        return 1.0
    return sum(1 for cards in above if cards <= draws) / len(above)


def _with_end(table: Table, value: float, draws: int, deltas: dict[int, int]) -> float:
    """``value``, unless drawing ``draws`` cards ends the game: then the final standing counts, the scores changed
    by ``deltas`` (the drawer is charged one card: the end comes on the first card drawn more often than not)."""
    chance = _end_chance(table.view, draws)
    if chance <= 0:
        return value
    scores = list(table.view["scores"])
    for seat, delta in deltas.items():
        scores[seat] += delta
    return (1.0 - chance) * value + chance * _final_value(table, scores)


def _leading(table: Table) -> bool:
    scores = table.view["scores"]
    return scores[table.me] >= max(scores[seat] for seat in table.opponents())


# --------------------------------------------------------------------------------------------------------------
# Action values (points, relative to doing nothing)
# --------------------------------------------------------------------------------------------------------------


def _challenge_value(table: Table, trait: str, odds: Odds) -> float:
    view = table.view
    owner = view["top"]["owner"]
    stack, penalty = view["stack_size"], view["options"]["penaltyDraw"]
    card_value, weight = table.profile.card_value, table.weight(owner)
    believed = odds.of(trait)
    last = view["phase"] == "last_card"
    points = stack * table.profile.stack_weight
    win = points + penalty * card_value * weight
    if last and _trophy_ends_game(view, owner):
        lose = _trophy_stake(table, owner, won=stack)  # nothing else counts any more
    else:
        lose = -points * weight - penalty * card_value + (_trophy_stake(table, owner) if last else 0.0)
    if table.profile.end_aware_challenges:
        win = _with_end(table, win, penalty, {table.me: stack, owner: -1})
        if not last:
            lose = _with_end(table, lose, penalty, {owner: stack, table.me: -1})
    value = (1.0 - believed) * win + believed * lose
    return value - _decline_value(table) - table.profile.challenge_margin


def _decline_value(table: Table) -> float:
    """Letting the top card be: nothing, unless it is a last card that earns its trophy."""
    view = table.view
    if view["phase"] != "last_card":
        return 0.0
    return _trophy_stake(table, view["last_card"]["seat"])


def _pass_value(table: Table) -> float:
    value = -table.profile.card_value
    return _with_end(table, value, 1, {table.me: -1})


def _block_value(table: Table, declaration: Declaration) -> float:
    """Bonus when the next player probably has no honest card to follow ``declaration``."""
    honest = honest_support(table.pool, table.follow_ups(declaration), table.turn_it_up)
    next_hand = table.view["hand_sizes"][table.next_seat(declaration)]
    return table.profile.block_weight * (1.0 - chance_any(pool_size(table.pool), honest, next_hand))


def _play_value(table: Table, card: str, declaration: Declaration, tucked: int, copy: bool) -> float:
    """Shedding ``card`` as ``declaration`` (a play, or a copy when ``copy``) with ``tucked`` cards under it."""
    view, profile = table.view, table.profile
    top, stack = view["top"], view["stack_size"]
    penalty, card_value = view["options"]["penaltyDraw"], profile.card_value
    value = card_value
    if table.raider and top is not None and top["number"] == RAID_NUMBER and view["stack"]:
        owner = top["owner"]
        points = stack * profile.stack_weight
        value += points if owner == table.me else -points * table.weight(owner)
        stack = 0
    stack_after = stack + 1 + tucked
    last = len(table.hand) == 1
    stake = _trophy_stake(table, table.me) if last else 0.0
    odds = _observer_odds(table, declaration)
    challenged = _challenge_chance(
        table, min(odds.spice, odds.number, odds.both if copy else 1.0), last, stake >= WIN
    )
    caught = challenged * _caught_share(table, card, declaration, odds, copy)
    weight = table.average_weight()
    points = stack_after * profile.stack_weight
    value += caught * (-points * weight - penalty * card_value)
    value += (challenged - caught) * (points + penalty * card_value * weight)
    kept = 1.0 - caught
    if last:
        value += kept * stake
    else:
        value += _block_value(table, declaration)
    if table.raider and declaration[1] == RAID_NUMBER:
        value += PAW * (1.0 - challenged) * points
    if card in WILDS and not last:
        value -= profile.wild_keep
    return value


def _caught_share(table: Table, card: str, declaration: Declaration, odds: Odds, copy: bool) -> float:
    """The share of challenges that catch ``card``: a challenger names each trait in proportion to disbelief."""
    if copy:
        return 0.0 if _honest(table, card, declaration) else 1.0
    doubts = {trait: 1.0 - odds.of(trait) for trait in ("spice", "number")}
    total = sum(doubts.values())
    return sum(
        doubt / total
        for trait, doubt in doubts.items()
        if not claim_holds(card, trait, declaration, turn_it_up=table.turn_it_up)
    )


def _honest(table: Table, card: str, declaration: Declaration) -> bool:
    return claim_holds(card, "both", declaration, turn_it_up=table.turn_it_up)


def _tuck_for(table: Table, card: str, declaration: Declaration, choices: list[Action]) -> Action:
    """Change Your Luck: tuck the two highest natural cards under an honest 5 while we lead, else nothing."""
    plain = next(action for action in choices if not action.get("tuck"))
    if not (_honest(table, card, declaration) and _leading(table)):
        return plain
    rest = list(table.hand)
    rest.remove(card)
    naturals = sorted((c for c in rest if c not in WILDS), key=lambda c: CARD_NUMBER[c] or 0, reverse=True)
    wanted = sorted(naturals[:2])
    for action in choices:
        if sorted(action.get("tuck", [])) == wanted:
            return action
    return plain


def _declaration(action: Action) -> Declaration:
    return action["declare"]["spice"], action["declare"]["number"]


def _scored_actions(table: Table, legal: list[Action]) -> list[tuple[float, Action]]:
    """Every action worth considering with its value; play variants that differ only by tuck collapse to one."""
    view = table.view
    scored: list[tuple[float, Action]] = []
    groups: dict[tuple[str, str, Declaration], list[Action]] = {}
    top_odds: Odds | None = None
    for action in legal:
        kind = action["type"]
        if kind == "play":
            groups.setdefault(("play", action["card"], _declaration(action)), []).append(action)
        elif kind == "copy":
            top = view["top"]
            declaration = (top["spice"], top["number"])
            if _honest(table, action["card"], declaration):
                groups.setdefault(("copy", action["card"], declaration), []).append(action)
        elif kind == "pass":
            scored.append((_pass_value(table), action))
        elif kind == "challenge":
            top_odds = top_odds or _top_odds(table)
            scored.append((_challenge_value(table, action["trait"], top_odds), action))
        elif kind == "decline":
            scored.append((0.0, action))  # challenge values are relative to declining
    for (kind, card, declaration), choices in groups.items():
        chosen = choices[0]
        if declaration[1] == LUCK_NUMBER and CHANGE_YOUR_LUCK in table.active and len(choices) > 1:
            chosen = _tuck_for(table, card, declaration, choices)
        tucked = len(chosen.get("tuck", []))
        scored.append((_play_value(table, card, declaration, tucked, kind == "copy"), chosen))
    return scored


def _decide(view: View, legal: list[Action], rng: random.Random, profile: Profile) -> Action | None:
    """The legal action of highest value; out of turn, None unless a challenge or a copy is worth it."""
    if not legal:
        return None
    table = Table.read(view, profile)
    awaited = table.me in view["awaited"]
    scored = _scored_actions(table, legal)
    if view["phase"] == "last_card":
        # The last card first: challenge it or let it be; a play or pass (option off) also lets it be.
        challenges = [(value, action) for value, action in scored if action["type"] == "challenge"]
        best = max(challenges, key=lambda item: item[0], default=None)
        if best is not None and best[0] > 0:
            return best[1]
        declines = [action for action in legal if action["type"] == "decline"]
        moves = [action for action in legal if action["type"] in ("play", "pass")]
        if awaited and declines and not moves:
            return declines[0]
        scored = [(value, action) for value, action in scored if action["type"] in ("play", "pass", "copy")]
    if not awaited:
        scored.append((0.0, None))
    elif not scored:
        return legal[0]
    noise = [rng.random() * 1e-6 for _ in scored]
    best_index = max(range(len(scored)), key=lambda index: scored[index][0] + noise[index])
    return scored[best_index][1]


# --------------------------------------------------------------------------------------------------------------
# Levels
# --------------------------------------------------------------------------------------------------------------


def choose_easy(view: View, legal: list[Action], rng: random.Random) -> Action | None:
    """Honest when it can, else mostly pass; rare random challenges."""
    if not legal:
        return None
    awaited = view["seat"] in view["awaited"]
    challenges = [action for action in legal if action["type"] == "challenge"]
    declines = [action for action in legal if action["type"] == "decline"]
    if view["phase"] == "last_card" and declines and awaited:
        if challenges and rng.random() < 0.15:
            return rng.choice(challenges)
        if not any(action["type"] in ("play", "pass") for action in legal):
            return declines[0]
    if not awaited:
        return rng.choice(challenges) if challenges and rng.random() < 0.02 else None
    if challenges and rng.random() < 0.05:
        return rng.choice(challenges)
    turn_it_up = TURN_IT_UP in view["spice_it_up"]
    plays = [action for action in legal if action["type"] == "play" and not action.get("tuck")]
    honest = [
        action
        for action in plays
        if claim_holds(action["card"], "both", _declaration(action), turn_it_up=turn_it_up)
    ]
    if honest:
        return rng.choice(honest)
    passes = [action for action in legal if action["type"] == "pass"]
    if passes and (not plays or rng.random() < 0.7):
        return passes[0]
    if plays:
        return rng.choice(plays)
    return rng.choice(legal)


def choose_medium(view: View, legal: list[Action], rng: random.Random) -> Action | None:
    return _decide(view, legal, rng, MEDIUM)


def choose_hard(view: View, legal: list[Action], rng: random.Random) -> Action | None:
    return _decide(view, legal, rng, HARD)


LEVELS: dict[str, Bot] = {"easy": choose_easy, "medium": choose_medium, "hard": choose_hard}
