"""Perudo bid legality (docs/rules/perudo.md §2), as pure functions of small values.

Every rule of §2 has the same shape: for each face, a bid is legal from some minimum quantity up to the
quantity limit, or that face may not be bid at all. So the rules are expressed as *minimums*: a tuple indexed
by face (index 0 unused) holding the lowest legal quantity for that face, or None when the face is closed.
The tuples are cached: there are only a few hundred distinct (bid, variant) combinations in a game.
"""

from __future__ import annotations

from functools import cache

PACO = 1
FACES = (1, 2, 3, 4, 5, 6)

Minimums = tuple[int | None, ...]

OPENING_WITH_PACOS: Minimums = (None, 1, 1, 1, 1, 1, 1)
OPENING_WITHOUT_PACOS: Minimums = (None, None, 1, 1, 1, 1, 1)


def pacos_for(quantity: int) -> int:
    """Face -> Pacos: at least half the quantity, rounded up (1→1, 2→1, 3→2, 4→2, 5→3, 6→3, 7→4)."""
    return (quantity + 1) // 2


def faces_for(pacos: int) -> int:
    """Pacos -> face: at least twice the quantity plus one (1→3, 2→5, 3→7, 4→9, 5→11, 6→13, 7→15)."""
    return 2 * pacos + 1


def quantity_limit(dice_in_play: int, capped: bool) -> int:
    """The highest quantity a bid may name.

    With ``capBidAtDiceInPlay`` (§2): the dice in play. Without it a bid may exceed them, up to
    ``faces_for(dice in play)``, the face bid a conversion from Pacos at the dice in play would need; some limit
    is needed so the legal actions form a finite list. With lost dice hidden, rules.py passes the dice dealt at
    the start instead of the dice in play, so that the limit does not tell how many are left.
    """
    return dice_in_play if capped else faces_for(dice_in_play)


def opening_minimums(pacos_allowed: bool) -> Minimums:
    """Opening bid: any quantity ≥ 1; Pacos only where the round and the options allow them."""
    return OPENING_WITH_PACOS if pacos_allowed else OPENING_WITHOUT_PACOS


@cache
def normal_raise_minimums(quantity: int, face: int, any_face_on_higher_quantity: bool) -> Minimums:
    """Raising (quantity, face) in a normal round, Pacos wild (§2)."""
    if face == PACO:
        # Pacos -> Pacos: more Pacos. Pacos -> face: at least 2q + 1, any face.
        return (None, quantity + 1) + (faces_for(quantity),) * 5
    minimums: list[int | None] = [None, pacos_for(quantity)]  # face -> Pacos: at least ⌈q / 2⌉
    for new_face in FACES[1:]:
        if new_face == face:
            minimums.append(quantity + 1)  # same face: more dice
        elif new_face > face:
            minimums.append(quantity)  # higher face: at least as many dice
        elif any_face_on_higher_quantity:
            minimums.append(quantity + 1)  # raiseMode anyFaceOnHigherQty: a lower face on more dice
        else:
            minimums.append(None)  # raiseMode strict: never a lower face
    return tuple(minimums)


@cache
def palifico_raise_minimums(quantity: int, face: int, may_change_face: bool, pacos_allowed: bool) -> Minimums:
    """Raising (quantity, face) in a Palifico round: the face is locked, only the quantity rises (§4).

    ``may_change_face`` (palificoOneDieMayChangeFace, for a bidder with one die, §2): ordinary ordering
    with Pacos as the lowest face, since they are not wild: more dice on any face, or as many on a higher face.
    ``pacos_allowed`` False (palificoPacoBids 'forbidden') closes the Paco face.
    """
    if may_change_face:
        minimums = [None] + [quantity if new_face > face else quantity + 1 for new_face in FACES]
    else:
        minimums = [None] * 7
        minimums[face] = quantity + 1
    if not pacos_allowed:
        minimums[PACO] = None
    return tuple(minimums)
