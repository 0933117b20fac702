"""Perudo's post-game analysis: how risky each bid and call was, how lucky each player's dice were.

Pure functions over the finished match's log (every roll is in it once the match is over). For each decision the
position is rebuilt by replaying the log, and two points of view are used:

* the **actor's own**, when they decided: their dice, and the others' dice unknown. The number of unknown dice
  showing the bid's face is binomial, B(n, p) with n the dice in play that are not theirs and p = 1/3 when Pacos
  are wild (the face or a Paco), 1/6 otherwise (a Paco bid, or a Palifico round). A bid of q needing k more than
  their own matching dice is true with probability P(X ≥ k) (the risk they took is 1 − that); a Dudo is right with
  P(X < k), a Calza with P(X = k);
* **all dice**, revealed when the round ended: whether the bid was true, whether the call was right.

Per player: the bids' mean probability of being true from their own dice (their risk profile: the lower, the
bolder), their boldest bid, how often their calls were right, and a luck figure: the Pacos they rolled (wild in
every round but Palifico) minus the number expected, a sixth of their dice per roll. A round where the player who
lost a die could have kept it with another choice at their last decision, knowing every die, is listed with that
choice (Dudo on a false bid, Calza on an exact one, or the smallest true bid they could have made).

Pure, like the rules (the contract is ``tapete_sdk.plugin.PostGameAnalysis``): the site puts it into words with
``analysis_words.py``. The stored format (``moves``, ``players``, ``saving``) is documented in
docs/bot-api.md.
"""

from __future__ import annotations

from math import comb

from tapete_sdk.plugin import CHANCE, LogRow

from games.perudo.bidding import PACO


def binomial_at_least(n: int, k: int, p: float) -> float:
    """P(X ≥ k) for X ~ B(n, p)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def binomial_exactly(n: int, k: int, p: float) -> float:
    if not 0 <= k <= n:
        return 0.0
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def _matching(hand: list[int], face: int, wild: bool) -> int:
    return hand.count(face) + (hand.count(PACO) if wild else 0)


def _odds(state: dict, seat: int, quantity: int, face: int) -> tuple[int, int, float]:
    """(unknown dice, how many of them the bid still needs, p per die) from ``seat``'s own dice."""
    wild = face != PACO and not state["palifico"]
    own = state["dice"][seat]
    unknown = sum(len(hand) for hand in state["dice"]) - len(own)
    return unknown, quantity - _matching(own, face, wild), (1 / 3 if wild else 1 / 6)


def _count(state: dict, face: int) -> int:
    wild = face != PACO and not state["palifico"]
    return sum(_matching(hand, face, wild) for hand in state["dice"])


def analyse(rules, options: dict, num_players: int, log: list[LogRow], *, seed: str = "") -> dict:
    """The contract's ``analyse`` (``tapete_sdk.plugin.PostGameAnalysis``); nothing is drawn, so ``seed`` is unused."""
    state = rules.initial_state(options, num_players)
    moves: list[dict] = []
    pacos = [0] * num_players
    pacos_expected = [0.0] * num_players
    last_decision: dict[
        int, dict
    ] = {}  # seat -> its latest decision this round, with what it could have done
    saving: list[dict] = []
    round_number = 0
    for step, version, seat, action in log:
        kind = action.get("type")
        if seat == CHANCE:
            if kind == "roll":
                round_number += 1
                last_decision = {}
                for player, hand in enumerate(action["dice"]):
                    pacos[player] += hand.count(PACO)
                    pacos_expected[player] += len(hand) / 6
        elif kind in {"bid", "dudo", "calza"}:
            move = _judge(state, step, version, seat, action)
            moves.append(move)
            last_decision[seat] = {
                "move": move,
                "alternative": _saving_alternative(rules, state, seat, action),
            }
        state, events = rules.apply_action(state, seat, action)
        for event in events:
            if event["type"] in {"dudo", "calza"}:
                for loser in event["reveal"]["losers"]:
                    decision = last_decision.get(loser)
                    if decision and decision["alternative"] is not None:
                        saving.append(
                            {
                                "round": round_number,
                                "seat": loser,
                                "step": decision["move"]["step"],
                                "version": decision["move"]["version"],
                                "played": decision["move"]["action"],
                                "alternative": decision["alternative"],
                            }
                        )
    players = [_player(seat, moves, pacos[seat], pacos_expected[seat]) for seat in range(num_players)]
    return {"game": "perudo", "moves": moves, "players": players, "saving": saving}


def _judge(state: dict, step: int, version: int, seat: int, action: dict) -> dict:
    move = {"step": step, "version": version, "seat": seat, "kind": action["type"], "action": dict(action)}
    if action["type"] == "bid":
        quantity, face = action["quantity"], action["face"]
        unknown, needed, p = _odds(state, seat, quantity, face)
        move["p_true_own"] = binomial_at_least(unknown, needed, p)
        move["count"] = _count(state, face)
        move["true"] = move["count"] >= quantity
        return move
    bid = state["bid"]
    unknown, needed, p = _odds(state, seat, bid["quantity"], bid["face"])
    count = _count(state, bid["face"])
    move["bid"] = {"quantity": bid["quantity"], "face": bid["face"], "seat": bid["bidder"]}
    move["count"] = count
    if action["type"] == "dudo":
        move["p_right_own"] = 1 - binomial_at_least(unknown, needed, p)
        move["right"] = count < bid["quantity"]
    else:
        move["p_right_own"] = binomial_exactly(unknown, needed, p)
        move["right"] = count == bid["quantity"]
    return move


def _saving_alternative(rules, state: dict, seat: int, action: dict) -> dict | None:
    """Another choice ``seat`` had now that would not have lost a die on this bid or call, knowing all dice."""
    legal = rules.legal_actions(state, seat)
    bid = state["bid"]
    if bid is not None:
        count = _count(state, bid["face"])
        if action["type"] != "dudo" and count < bid["quantity"] and any(a["type"] == "dudo" for a in legal):
            return {"type": "dudo"}
        if (
            action["type"] != "calza"
            and count == bid["quantity"]
            and any(a["type"] == "calza" for a in legal)
        ):
            return {"type": "calza"}
    if action["type"] == "bid" and _count(state, action["face"]) >= action["quantity"]:
        return None  # the bid was true: it did not lose the die
    for candidate in legal:
        if candidate["type"] == "bid" and _count(state, candidate["face"]) >= candidate["quantity"]:
            return {"type": "bid", "quantity": candidate["quantity"], "face": candidate["face"]}
    return None


def _player(seat: int, moves: list[dict], pacos: int, expected: float) -> dict:
    bids = [move for move in moves if move["seat"] == seat and move["kind"] == "bid"]
    calls = [move for move in moves if move["seat"] == seat and move["kind"] != "bid"]
    risks = [move["p_true_own"] for move in bids]
    return {
        "seat": seat,
        "bids": len(bids),
        "mean_p_true_own": sum(risks) / len(risks) if risks else None,
        "boldest": min(bids, key=lambda move: move["p_true_own"])["step"] if bids else None,
        "boldest_p": min(risks) if risks else None,
        "bold_bids": sum(1 for risk in risks if risk < 0.5),
        "false_bids": sum(1 for move in bids if not move["true"]),
        "calls": len(calls),
        "calls_right": sum(1 for move in calls if move["right"]),
        "pacos": pacos,
        "pacos_expected": expected,
        "luck": pacos - expected,
    }
