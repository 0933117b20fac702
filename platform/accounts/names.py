"""User names compared as they look, so that nobody poses as another player, a computer player or a guest.

Two names are the same name when their skeletons are equal. A name's skeleton (:func:`name_skeleton`) is Unicode's
confusable skeleton (UTS #39, section 4): the name in NFKC, each character replaced by its prototype from Unicode's
``confusables.txt`` between two NFDs, then case folded and mapped again (so ``I``, ``l`` and ``1`` meet, as do
Latin ``o`` and Cyrillic ``о``), and the separators a name may hold (``-``, ``_``, ``.``) folded into one, since
``bot_easy`` reads as ``bot-easy``. The table is Unicode's, as the ``confusable_homoglyphs`` package ships it: each
line of ``confusables.txt`` (a source character and its prototype) stored both ways round, from which
:func:`_prototypes` reads the prototypes back (see there), not a table of ours.

``accounts.models.User`` stores each name's skeleton in a column with a unique constraint, so two accounts never
hold look-alike names, even when they are chosen at the same moment; its ``clean`` refuses such a name with a
sentence first, and a name whose skeleton starts like the names the site gives (``guest-``, ``bot-``). The
skeleton maps before it folds case (``I`` looks like ``l``, not like ``i``), so ``NADIA`` and ``nadia`` have two
skeletons: ``clean`` also refuses another account's name in other capitals, as Django's sign-up form does.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

GUEST_PREFIX = "guest-"
BOT_PREFIX = "bot-"
RESERVED_PREFIXES = (GUEST_PREFIX, BOT_PREFIX)  # names the site gives; nobody chooses one that looks like them

SEPARATORS = re.compile(r"[-_.\u2010-\u2015\u2212]+")  # ASCII ones and the dashes a prototype may give


LEFT_TO_RIGHT_MARK = "\u200e"  # the package wraps right-to-left characters in it, for display


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> its prototype.

    ``confusables_data`` holds each line ``source -> prototype`` of Unicode's table both ways round: a source
    lists its one prototype, a prototype lists its sources. A prototype never is a source (UTS #39: the mapping is
    idempotent), so a character listing several is a prototype, and one listing a single string of several
    characters (``m`` lists ``rn``) or a character that lists several is that one's source. Left are pairs that
    list only each other: either may be the prototype, and for comparing names it does not matter which stands for
    both, as long as it is always the same one (the lower code point)."""

    def plain(text: str) -> str:
        return text.replace(LEFT_TO_RIGHT_MARK, "")

    listed = {plain(key): [plain(entry["c"]) for entry in entries] for key, entries in confusables_data.items()}
    table = {}
    for char, others in listed.items():
        if len(char) != 1 or len(others) != 1:
            continue
        other = others[0]
        if len(other) > 1 or len(listed.get(other, ())) > 1 or other < char:
            table[char] = other
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton(X): NFD, every character to its prototype, NFD again."""
    prototypes = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototypes.get(char, char) for char in decomposed))


def name_skeleton(name: str) -> str:
    """What a user name looks like: equal for names a reader could take one for the other."""
    folded = skeleton(skeleton(unicodedata.normalize("NFKC", name)).casefold())
    return SEPARATORS.sub("-", folded)


RESERVED_SKELETONS = tuple(name_skeleton(prefix) for prefix in RESERVED_PREFIXES)


def looks_reserved(name: str) -> bool:
    """Whether ``name`` starts like a name the site gives to guests and computer players."""
    return name_skeleton(name).startswith(RESERVED_SKELETONS)
