"""Moderators read who follows, befriends, blocks and invites whom (read only: a player's choices are theirs)."""

from django.contrib import admin

from social.models import Block, Follow, Friendship, Invitation
from web.admin_base import ReadOnlyModelAdmin


@admin.register(Follow)
class FollowAdmin(ReadOnlyModelAdmin):
    list_display = ("follower", "followed", "created_at")
    search_fields = ("follower__username", "followed__username")
    list_select_related = ("follower", "followed")


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlyModelAdmin):
    list_display = ("low", "high", "requested_by", "created_at", "accepted_at")
    search_fields = ("low__username", "high__username")
    list_select_related = ("low", "high", "requested_by")


@admin.register(Block)
class BlockAdmin(ReadOnlyModelAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyModelAdmin):
    list_display = ("match", "sender", "recipient", "status", "created_at", "answered_at")
    list_filter = ("status",)
    search_fields = ("sender__username", "recipient__username")
    list_select_related = ("match", "sender", "recipient")
