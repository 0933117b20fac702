"""Spicy's post-game analysis: which declarations were bluffs, how promising each challenge was.

A declaration (a play or a Copy Cat copy) is a **bluff** when the real card, revealed in the finished match's log,
does not bear it out on both traits (wilds and Turn It Up! as the rules count them, ``cards.claim_holds``).

A challenge's **chance of success from the challenger's knowledge**: the share of the cards the challenger had not
seen (the deck minus their hand, their own cards and tucks in the stack and the last card revealed by a
challenge: what their view showed) that would fail the challenged trait, i.e. the chance of winning if the card
under the declaration were any card they could not rule out. It ignores what the owner may have chosen to declare,
so it measures what the challenger could count, not what they read.

Per player: their declarations, the share that were bluffs, bluffs caught; their challenges and how many won.

Pure, like the rules (the contract is ``tapete_sdk.plugin.PostGameAnalysis``): the site puts it into words with
``analysis_words.py``.
"""

from __future__ import annotations

from tapete_sdk.plugin import CHANCE, LogRow

from games.spicy.bots_odds import make_pool
from games.spicy.cards import TURN_IT_UP, claim_holds


def challenge_odds(view: dict, trait: str, turn_it_up: bool) -> float:
    """The chance that the top card fails ``trait``, counting over the cards ``view``'s seat has not seen."""
    seen = list(view["hand"] or [])
    for entry in view["stack"]:
        if "card" in entry:
            seen += [entry["card"], *entry.get("tucked_cards", [])]
    if view["last_challenge"]:
        seen.append(view["last_challenge"]["card"])
    top = view["stack"][-1]
    declaration = (top["spice"], top["number"])
    pool = make_pool(seen)
    total = sum(copies for _card, copies in pool)
    failing = sum(
        copies for card, copies in pool if not claim_holds(card, trait, declaration, turn_it_up=turn_it_up)
    )
    return failing / total if total else 0.0


def analyse(rules, options: dict, num_players: int, log: list[LogRow], *, seed: str = "") -> dict:
    """The contract's ``analyse`` (``tapete_sdk.plugin.PostGameAnalysis``); nothing is drawn, so ``seed`` is unused."""
    state = rules.initial_state(options, num_players)
    moves: list[dict] = []
    for step, version, seat, action in log:
        kind = action.get("type")
        if seat != CHANCE and kind in {"play", "copy"}:
            if kind == "play":
                declaration = (action["declare"]["spice"], action["declare"]["number"])
            else:
                top = state["stack"][-1]
                declaration = (top["spice"], top["number"])
            turn_it_up = TURN_IT_UP in state["spice_it_up"]
            honest = claim_holds(action["card"], "both", declaration, turn_it_up=turn_it_up)
            moves.append(
                {
                    "step": step,
                    "version": version,
                    "seat": seat,
                    "kind": kind,
                    "declared": {"spice": declaration[0], "number": declaration[1]},
                    "card": action["card"],
                    "bluff": not honest,
                }
            )
        elif seat != CHANCE and kind == "challenge":
            top = state["stack"][-1]
            trait = action.get("trait") or "both"
            turn_it_up = TURN_IT_UP in state["spice_it_up"]
            holds = claim_holds(top["card"], trait, (top["spice"], top["number"]), turn_it_up=turn_it_up)
            moves.append(
                {
                    "step": step,
                    "version": version,
                    "seat": seat,
                    "kind": "challenge",
                    "owner": top["owner"],
                    "trait": trait,
                    "card": top["card"],
                    "p_success_own": challenge_odds(rules.view(state, seat), trait, turn_it_up),
                    "won": not holds,
                }
            )
        state, _events = rules.apply_action(state, seat, action)
    return {"game": "spicy", "moves": moves, "players": [_player(seat, moves) for seat in range(num_players)]}


def _player(seat: int, moves: list[dict]) -> dict:
    declarations = [move for move in moves if move["seat"] == seat and move["kind"] in {"play", "copy"}]
    bluffs = [move for move in declarations if move["bluff"]]
    challenges = [move for move in moves if move["seat"] == seat and move["kind"] == "challenge"]
    caught = [move for move in moves if move["kind"] == "challenge" and move["owner"] == seat and move["won"]]
    return {
        "seat": seat,
        "declarations": len(declarations),
        "bluffs": len(bluffs),
        "bluff_rate": len(bluffs) / len(declarations) if declarations else None,
        "caught": len(caught),
        "challenges": len(challenges),
        "challenges_won": sum(1 for move in challenges if move["won"]),
        "challenge_rate": (
            sum(1 for move in challenges if move["won"]) / len(challenges) if challenges else None
        ),
    }
