"""Whether a table's creator blocked a player who asks for a seat there: one check of who may sit
(``turnengine.writer.seat_refusal``).

Who blocked whom is the social app's to say (``social.blocks``); it installs its check when the site starts
(``social.apps``), as moderation installs its mute check in the engine's chat, so the engine never imports it.
"""

from __future__ import annotations

from collections.abc import Callable

from turnengine.errors import EngineError, seat_error
from turnengine.models import Match


def _nobody_blocks(blocker_id: int, blocked_id: int) -> bool:
    return False


_blocks: Callable[[int, int], bool] = _nobody_blocks


def install_block_check(check: Callable[[int, int], bool]) -> None:
    """``check(blocker_id, blocked_id)``: whether the first account blocked the second."""
    global _blocks
    _blocks = check


def creator_block_refusal(match: Match, user) -> EngineError | None:
    """``blocked_by_creator`` when the table's creator blocked ``user`` (their own seat is never refused)."""
    if match.created_by_id is None or match.created_by_id == user.pk:
        return None
    if _blocks(match.created_by_id, user.pk):
        return seat_error("blocked_by_creator")
    return None
