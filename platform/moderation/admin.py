"""The moderators' workplace in Django admin: the report queue, sanctions, the audit log, same-network notices,
and moderation actions on players. Every action calls a service, which writes the audit log."""

from datetime import timedelta

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from moderation import services
from moderation.forms import ModerationActionForm
from moderation.models import AuditEntry, NetworkNotice, Report, Sanction
from tapete.admin_base import ReadOnlyModelAdmin


def action_reason(request) -> str | None:
    reason = (request.POST.get("reason") or "").strip()
    if not reason:
        return None
    return reason


def action_days(request) -> int:
    raw = request.POST.get("days") or "1"
    return int(raw) if raw.isdigit() and int(raw) > 0 else 1


def sanction_users(modeladmin, request, users, kind: str) -> None:
    """Apply one sanction to players chosen in admin; refuses without a reason."""
    reason = action_reason(request)
    if reason is None:
        modeladmin.message_user(request, _("Give a reason for the sanction."), messages.ERROR)
        return
    days = timedelta(days=action_days(request))
    for user in users:
        if kind == Sanction.Kind.WARNING:
            services.moderation_warn(moderator=request.user, user=user, reason=reason)
        elif kind == Sanction.Kind.MUTE:
            services.moderation_mute(moderator=request.user, user=user, reason=reason, duration=days)
        elif kind == Sanction.Kind.SUSPENSION:
            services.moderation_suspend(moderator=request.user, user=user, reason=reason, duration=days)
        else:
            services.moderation_ban(moderator=request.user, user=user, reason=reason)
    modeladmin.message_user(
        request, _("Done: %(count)d player(s).") % {"count": len(users)}, messages.SUCCESS
    )


class SanctionActionsMixin:
    """Admin actions that sanction the players behind the selected rows (``sanction_targets``)."""

    action_form = ModerationActionForm
    actions = ["warn", "mute", "suspend", "ban"]

    def sanction_targets(self, queryset):
        raise NotImplementedError

    @admin.action(description=_("Warn (reason required)"), permissions=["sanction"])
    def warn(self, request, queryset):
        sanction_users(self, request, self.sanction_targets(queryset), Sanction.Kind.WARNING)

    @admin.action(description=_("Mute in chat for the given days"), permissions=["sanction"])
    def mute(self, request, queryset):
        sanction_users(self, request, self.sanction_targets(queryset), Sanction.Kind.MUTE)

    @admin.action(description=_("Suspend for the given days"), permissions=["sanction"])
    def suspend(self, request, queryset):
        sanction_users(self, request, self.sanction_targets(queryset), Sanction.Kind.SUSPENSION)

    @admin.action(description=_("Ban"), permissions=["sanction"])
    def ban(self, request, queryset):
        sanction_users(self, request, self.sanction_targets(queryset), Sanction.Kind.BAN)

    def has_sanction_permission(self, request):
        return request.user.has_perm("moderation.add_sanction")


@admin.register(Report)
class ReportAdmin(SanctionActionsMixin, admin.ModelAdmin):
    list_display = ("created_at", "reported", "reason", "reporter", "match", "move", "status", "handled_by")
    list_filter = ("status", "reason", "created_at")
    search_fields = ("reported__username", "reporter__username", "comment", "match__id")
    readonly_fields = (
        "reporter",
        "reported",
        "reason",
        "comment",
        "match",
        "move",
        "chat_lines",
        "created_at",
        "status",
        "handled_by",
        "handled_at",
    )
    exclude = ("chat_messages",)
    actions = [*SanctionActionsMixin.actions, "resolve", "dismiss"]

    def sanction_targets(self, queryset):
        return list({report.reported for report in queryset.select_related("reported")})

    @admin.display(description=_("chat lines"))
    def chat_lines(self, report):
        return " / ".join(f"{line.user}: {line.text}" for line in report.chat_messages.select_related("user"))

    @admin.action(description=_("Mark resolved"), permissions=["change"])
    def resolve(self, request, queryset):
        self._close(request, queryset, Report.Status.RESOLVED)

    @admin.action(description=_("Dismiss"), permissions=["change"])
    def dismiss(self, request, queryset):
        self._close(request, queryset, Report.Status.DISMISSED)

    def _close(self, request, queryset, status):
        reason = action_reason(request) or str(_("Handled from the report queue."))
        for report in queryset:
            services.report_close(moderator=request.user, report=report, status=status, reason=reason)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "starts_at", "ends_at", "by", "lifted_at")
    list_filter = ("kind", ("lifted_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username", "reason")
    readonly_fields = ("user", "kind", "reason", "starts_at", "ends_at", "by", "lifted_at")
    action_form = ModerationActionForm
    actions = ["lift"]

    @admin.action(description=_("Lift the sanction"), permissions=["change"])
    def lift(self, request, queryset):
        reason = action_reason(request) or str(_("Lifted by a moderator."))
        for sanction in queryset.filter(lifted_at__isnull=True):
            services.moderation_lift(moderator=request.user, sanction=sanction, reason=reason)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyModelAdmin):
    list_display = ("created_at", "moderator", "action", "target_user", "match", "reason")
    list_filter = ("action", "created_at")
    search_fields = ("moderator__username", "target_user__username", "reason")
    readonly_fields = ("created_at", "moderator", "action", "target_user", "match", "detail", "reason")


@admin.register(NetworkNotice)
class NetworkNoticeAdmin(admin.ModelAdmin):
    list_display = ("created_at", "match", "ip_address", "usernames")
    search_fields = ("ip_address", "usernames")
    readonly_fields = ("created_at", "match", "ip_address", "usernames")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
