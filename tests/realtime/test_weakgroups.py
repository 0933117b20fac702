"""The weak groups behind the socket register and the heartbeat (``realtime.weakgroups``)."""

from __future__ import annotations

import gc

from realtime.weakgroups import WeakGroups


class Socket:
    pass


def test_groups_count_their_members_once_and_drop_when_emptied():
    groups, first, second = WeakGroups(), Socket(), Socket()
    groups.add("user:1", first)
    groups.add("user:1", first)
    groups.add("user:1", second)
    groups.add("user:2", second)
    assert groups.count("user:1") == 2 and groups.count("user:2") == 1 and groups.count("user:3") == 0
    assert {key: set(items) for key, items in groups.members().items()} == {"user:1": {first, second}, "user:2": {second}}
    groups.discard("user:1", first)
    groups.discard("user:1", first)
    groups.discard("user:3", first)
    assert groups.count("user:1") == 1
    groups.discard("user:2", second)
    assert "user:2" not in groups and "user:1" in groups and groups


def test_a_collected_member_leaves_its_groups():
    groups, kept = WeakGroups(), Socket()
    gone = Socket()
    groups.add(7, gone)
    groups.add(7, kept)
    groups.add(8, gone)
    del gone
    gc.collect()
    assert groups.count(7) == 1 and 8 not in groups
    assert groups.members() == {7: [kept]}
    groups.discard(7, kept)
    assert not groups
