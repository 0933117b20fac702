""" "Play again" from a result screen: one table for the same players, options, time control and computer players.

The first player to accept opens it (and becomes its creator); the computer players take their old seats at once;
each other player who accepts takes their old seat. As soon as every human player of the old table has accepted,
the new table starts by itself; until then it waits in the lobby like any open table, where its creator may start
it once it is full (seats nobody took back can be given to a computer player or to anyone who joins).

Every player still on the old table's result screen sees the offer (``turnengine.rematch_offers.rematch_state``):
who offered, who accepted, and who declined (:func:`rematch_decline`); a player who declined may still accept.
"""

from __future__ import annotations

from lobby.errors import LobbyError
from lobby.services import count_new_table, seat_player
from moderation.sanctions import is_locked_out
from moderation.services import network_notices_for
from turnengine import services, writer
from turnengine.models import Match, RematchDecline, Seat
from turnengine.rematch_offers import rematch_state
from turnengine.updates import Update, encode_frame


def table_rematch(*, user, match_id: int, ip_address: str | None = None) -> tuple[Match, Update | None]:
    """Seat ``user`` at the rematch of the finished table ``match_id`` (opening it if needed: a new table, counted
    against the limits on tables of ``user`` and ``ip_address`` as any other); returns the new table and, if this
    made it start, the frames of its first move. The old table's lock orders the players who
    accept at once: the first opens the rematch, the others find it. On commit the players still on the old
    table's result screen hear who accepted (:func:`rematch_notice`), and the lobby hears of the new table."""
    if is_locked_out(user):
        raise LobbyError("suspended")
    started = None
    with writer.locked(match_id) as held:
        old = held.match
        if old is None:
            raise Match.DoesNotExist
        if old.status != Match.Status.FINISHED:
            raise LobbyError("not_finished")
        old_seats = list(old.seats.select_related("user"))
        mine = next((seat for seat in old_seats if seat.user_id == user.pk), None)
        if mine is None:
            raise LobbyError("not_seated")
        RematchDecline.objects.filter(match=old, user=user).delete()  # changed their mind
        new_id = Match.objects.filter(rematch_of=old).values_list("pk", flat=True).first()
        if new_id is None:
            count_new_table(user=user, ip_address=ip_address)
            new_id = _open_rematch(old, old_seats, user).pk
        with writer.locked(new_id) as change:
            new = change.match
            if new.status == Match.Status.OPEN:
                seated = _take_old_seat(new, user, mine, ip_address)
                humans = {seat.user_id for seat in old_seats if not seat.user.is_bot}
                if len(seated) == new.num_players and humans <= seated.keys():
                    services.match_begin(change)
                    network_notices_for(match=new)
                    started = change
                else:
                    change.commit(seats_changed=True)
        held.commit(frames=rematch_notice)
    return new, None if started is None else started.update


def _take_old_seat(new: Match, user, mine: Seat, ip_address: str | None) -> dict[int, int]:
    """Seat ``user`` at the locked rematch ``new`` (their old seat if it is free, from ``ip_address`` as any seat
    records its player's address) unless they sit there already; returns every seated user's seat."""
    taken = dict(new.seats.values_list("user_id", "index"))
    if user.pk not in taken:
        free = [index for index in range(new.num_players) if index not in taken.values()]
        if not free:
            raise LobbyError("table_full")
        index = mine.index if mine.index in free else free[0]
        seat_player(new, user=user, index=index, ip_address=ip_address)
        taken[user.pk] = index
    return taken


def _open_rematch(old: Match, old_seats: list[Seat], user) -> Match:
    # A ranked table seats people only: one that had computer players (before that rule) leaves their seats open.
    robots = [
        seat for seat in old_seats if seat.user.is_bot and not (old.ranked and seat.index in old.bot_seats)
    ]
    new = writer.open_table(
        game=old.game,
        options=old.options,
        num_players=old.num_players,
        ranked=old.ranked,
        created_by=user,
        time_control=old.time_control,
        min_rating=old.min_rating,
        max_rating=old.max_rating,
        rematch_of=old,
        admits_bots=old.admits_bots,
        spectator_delay=old.spectator_delay,
        spectators_allowed=old.spectators_allowed,
        bot_seats=sorted(seat.index for seat in robots if seat.index in old.bot_seats),
        seats=[Seat(index=seat.index, user=seat.user) for seat in robots],
    )
    return new


def rematch_decline(*, user, match_id: int) -> None:
    """``user`` says no to playing the finished table ``match_id`` again (before or after someone offered it):
    the others' result screens show it on commit. Saying it twice changes nothing; one who already took a seat at
    the rematch leaves that table instead (``already_accepted``)."""
    with writer.locked(match_id) as held:
        old = held.match
        if old is None:
            raise Match.DoesNotExist
        if old.status != Match.Status.FINISHED:
            raise LobbyError("not_finished")
        if not old.seats.filter(user=user).exists():
            raise LobbyError("not_seated")
        if Seat.objects.filter(match__rematch_of=old, user=user).exists():
            raise LobbyError("already_accepted")
        _decline, created = RematchDecline.objects.get_or_create(match=old, user=user)
        if created:
            held.commit(frames=rematch_notice)


def rematch_notice(old: Match) -> Update:
    """What the players still on the old table's result screen hear: who offered to play again and where, who
    accepted, who declined; the rematch's waiting page hears it too (who offered waits there)."""
    data = rematch_state(old)
    frame = encode_frame("rematch", None, data)
    groups = [old.group_name("all")]
    if data["status"] == Match.Status.OPEN:  # only its waiting page: a started table's page keeps its own state
        groups.append(Match(pk=data["match_id"]).group_name("all"))
    return Update(dict.fromkeys(groups, frame))
