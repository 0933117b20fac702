"""The moderators' workplace in Django admin: the report queue (the reported chat lines inline, open reports per
player, quick actions), sanctions, the audit log, moderator notes, same-network notices, and the confirmation page
every moderator action goes through (``moderation.admin_actions``; each action is an audited service call)."""

from django.contrib import admin
from django.db.models import Count, OuterRef, Q, Subquery
from django.http import HttpResponseRedirect
from django.urls import path, reverse
from django.utils import formats, timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from moderation.admin_actions import act_view, action_url
from moderation.models import AuditEntry, ModeratorNote, NetworkNotice, Report, Sanction
from moderation.notices import format_moment
from moderation.sanctions import LOCKOUT_KINDS
from web.admin_base import ReadOnlyModelAdmin


def player_page_url(user) -> str:
    return reverse("admin:accounts_user_moderation", args=[user.pk])


def player_link(user):
    return format_html('<a href="{}">{}</a>', player_page_url(user), user.username)


def redirect_to_action(key: str, request, **targets):
    """A list action leads to the action's confirmation page, back to this list afterwards."""
    return HttpResponseRedirect(action_url(key, next_url=request.get_full_path(), **targets))


def sanction_buttons(*, next_url: str, **targets) -> list[tuple[str, str, str]]:
    """(label, url, css class) of the quick sanctions, with preset durations."""
    return [
        (_("Warn"), action_url("warn", next_url=next_url, **targets), ""),
        (_("Mute 1 h"), action_url("mute", next_url=next_url, duration="1h", **targets), ""),
        (_("Mute 24 h"), action_url("mute", next_url=next_url, duration="24h", **targets), ""),
        (_("Suspend 24 h"), action_url("suspend", next_url=next_url, duration="24h", **targets), "danger"),
        (_("Suspend 7 days"), action_url("suspend", next_url=next_url, duration="7d", **targets), "danger"),
        (_("Suspend 30 days"), action_url("suspend", next_url=next_url, duration="30d", **targets), "danger"),
        (_("Ban"), action_url("ban", next_url=next_url, **targets), "danger"),
    ]


class SanctionActionsMixin:
    """List actions that sanction the players behind the selected rows, through the confirmation page."""

    sanction_target_param = "users"
    actions = ["warn", "mute", "suspend", "ban"]

    def _sanction(self, request, queryset, key):
        return redirect_to_action(key, request, **{self.sanction_target_param: list(queryset.values_list("pk", flat=True))})

    @admin.action(description=_("Warn…"), permissions=["sanction"])
    def warn(self, request, queryset):
        return self._sanction(request, queryset, "warn")

    @admin.action(description=_("Mute in chat…"), permissions=["sanction"])
    def mute(self, request, queryset):
        return self._sanction(request, queryset, "mute")

    @admin.action(description=_("Suspend…"), permissions=["sanction"])
    def suspend(self, request, queryset):
        return self._sanction(request, queryset, "suspend")

    @admin.action(description=_("Ban…"), permissions=["sanction"])
    def ban(self, request, queryset):
        return self._sanction(request, queryset, "ban")

    def has_sanction_permission(self, request):
        return request.user.has_perm("moderation.add_sanction")


def short_moment(moment):
    """Day and time, short (the whole date on hover), so that a list's other columns fit a laptop's screen."""
    local = timezone.localtime(moment)
    return format_html('<time datetime="{}" title="{}">{}</time>', local.isoformat(),
                       formats.date_format(local, "DATETIME_FORMAT"), formats.date_format(local, "j M H:i"))


def chat_lines_html(report):
    lines = report.chat_messages.all()
    return format_html_join(
        "", '<div class="{}"><strong>{}:</strong> {}</div>',
        (("chat-hidden" if line.hidden else "", line.user.username, line.text) for line in lines),
    ) or "—"


class ReportStatusFilter(admin.SimpleListFilter):
    """The queue opens on the open reports; "All" shows every status."""

    title = _("status")
    parameter_name = "status"
    ALL = "all"

    def lookups(self, request, model_admin):
        return Report.Status.choices

    def queryset(self, request, queryset):
        value = self.value() or Report.Status.OPEN
        return queryset if value == self.ALL else queryset.filter(status=value)

    def choices(self, changelist):
        current = self.value() or Report.Status.OPEN
        yield {"selected": current == self.ALL, "query_string": changelist.get_query_string({self.parameter_name: self.ALL}),
               "display": _("All")}
        for value, label in self.lookup_choices:
            yield {"selected": current == value,
                   "query_string": changelist.get_query_string({self.parameter_name: value}), "display": label}


def lockout_in_force(field: str):
    """A subquery: ``field`` of the suspension or ban in force for the report's player (a ban first)."""
    now = timezone.now()
    return Subquery(
        Sanction.objects.filter(user=OuterRef("reported"), kind__in=LOCKOUT_KINDS, lifted_at__isnull=True,
                                starts_at__lte=now)
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))
        .order_by("kind", "-ends_at")  # "ban" sorts before "suspension"
        .values(field)[:1]
    )


@admin.register(Report)
class ReportAdmin(SanctionActionsMixin, admin.ModelAdmin):
    # and, after the chat lines, the reader's quick actions (get_list_display): both on a laptop's screen
    list_display = ("reported_at", "reported_player", "reported_chat", "reason", "open_about_player", "match_link",
                    "status")
    list_filter = (ReportStatusFilter, "reason", "created_at")
    search_fields = ("reported__username", "reporter__username", "comment", "match__id")
    readonly_fields = (
        "reporter", "reported_player", "reason", "comment", "match_link", "move", "reported_chat", "created_at",
        "status", "handled_by", "handled_at", "linked_sanctions",
    )
    exclude = ("chat_messages", "reported", "match")
    actions = [*SanctionActionsMixin.actions, "resolve", "dismiss"]
    sanction_target_param = "reports"
    change_form_template = "admin/moderation/buttons_change_form.html"

    def get_queryset(self, request):
        open_about = (
            Report.objects.filter(reported=OuterRef("reported"), status=Report.Status.OPEN)
            .values("reported").annotate(count=Count("pk")).values("count")
        )
        return (
            super().get_queryset(request)
            .select_related("reported", "reporter", "match", "handled_by")
            .prefetch_related("chat_messages__user")
            .annotate(open_reports=Subquery(open_about), lockout_kind=lockout_in_force("kind"),
                      lockout_until=lockout_in_force("ends_at"))
        )

    @admin.display(description=_("reported"), ordering="created_at")
    def reported_at(self, report):
        return short_moment(report.created_at)

    @admin.display(description=_("reported player"), ordering="reported__username")
    def reported_player(self, report):
        """The player's page, and whether a suspension or a ban is already in force."""
        if report.lockout_kind == Sanction.Kind.BAN:
            standing = _("banned")
        elif report.lockout_kind == Sanction.Kind.SUSPENSION:
            standing = _("suspended until %(until)s") % {"until": format_moment(report.lockout_until)}
        else:
            return player_link(report.reported)
        return format_html('{}<br><strong class="badge-active">{}</strong>', player_link(report.reported), standing)

    @admin.display(description=_("open reports"), ordering="open_reports")
    def open_about_player(self, report):
        return report.open_reports or 0

    @admin.display(description=_("reported chat lines"))
    def reported_chat(self, report):
        return chat_lines_html(report)

    @admin.display(description=_("match"))
    def match_link(self, report):
        if report.match is None:
            return "—"
        return format_html('<a href="{}">{}</a>', reverse("admin:turnengine_match_change", args=[report.match.pk]),
                           report.match)

    @admin.display(description=_("sanctions taken"))
    def linked_sanctions(self, report):
        return ", ".join(str(sanction) for sanction in report.sanctions.all()) or "—"

    def get_list_display(self, request):
        """The quick actions column is the reader's: only the actions they may run, back to this queue after."""
        columns = list(super().get_list_display(request))
        columns.insert(columns.index("reported_chat") + 1, self.quick_actions_for(request))
        return columns

    def quick_actions_for(self, request):
        here = request.get_full_path()
        may_sanction = request.user.has_perm("moderation.add_sanction")
        may_close = request.user.has_perm("moderation.change_report")

        @admin.display(description=_("quick actions"))
        def quick_actions(report):
            if report.status != Report.Status.OPEN:
                return "—"
            links = [
                *([(_("Warn"), action_url("warn", next_url=here, reports=[report.pk])),
                   (_("Mute 24 h"), action_url("mute", next_url=here, reports=[report.pk], duration="24h")),
                   (_("Suspend 7 days"), action_url("suspend", next_url=here, reports=[report.pk], duration="7d"))]
                  if may_sanction else []),
                *([(_("Dismiss"), action_url("dismiss", next_url=here, ids=[report.pk]))] if may_close else []),
            ]
            if not links:
                return "—"
            return format_html('<span class="quick-actions">{}</span>',
                               format_html_join("", '<a href="{}">{}</a>', ((url, label) for label, url in links)))

        return quick_actions

    def change_view(self, request, object_id, form_url="", extra_context=None):
        report = self.get_object(request, object_id)
        extra = {}
        if report is not None:
            here = request.get_full_path()
            extra = {
                "report": report,
                "player_url": player_page_url(report.reported),
                "buttons": [
                    *(sanction_buttons(next_url=here, reports=[report.pk])
                      if report.status == Report.Status.OPEN and request.user.has_perm("moderation.add_sanction")
                      else []),
                    *([(_("Resolve without a sanction"), action_url("resolve", next_url=here, ids=[report.pk]), "quiet"),
                       (_("Dismiss"), action_url("dismiss", next_url=here, ids=[report.pk]), "quiet")]
                      if report.status == Report.Status.OPEN and request.user.has_perm("moderation.change_report")
                      else []),
                ],
            }
        return super().change_view(request, object_id, form_url, {**extra, **(extra_context or {})})

    @admin.action(description=_("Resolve without a sanction…"), permissions=["change"])
    def resolve(self, request, queryset):
        return redirect_to_action("resolve", request, ids=list(queryset.values_list("pk", flat=True)))

    @admin.action(description=_("Dismiss…"), permissions=["change"])
    def dismiss(self, request, queryset):
        return redirect_to_action("dismiss", request, ids=list(queryset.values_list("pk", flat=True)))

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    list_display = ("kind", "user_link", "starts", "ends", "by", "lifted", "acknowledged", "report")
    list_display_links = ("kind",)  # the sanction's own page (the player's name links to the player's page)
    list_select_related = ("user", "by", "report__reported", "report__reporter")
    list_filter = ("kind", ("lifted_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username", "reason")
    readonly_fields = (
        "user", "kind", "reason", "preset", "public_reason", "starts_at", "ends_at", "by", "lifted_at", "acknowledged_at",
        "report",
    )
    actions = ["lift"]
    change_form_template = "admin/moderation/buttons_change_form.html"

    @admin.display(description=_("player"), ordering="user__username")
    def user_link(self, sanction):
        return player_link(sanction.user)

    @admin.display(description=_("from"), ordering="starts_at")
    def starts(self, sanction):
        return short_moment(sanction.starts_at)

    @admin.display(description=_("until"), ordering="ends_at")
    def ends(self, sanction):
        if sanction.kind == Sanction.Kind.WARNING or sanction.ends_at is None:
            return "—"
        return short_moment(sanction.ends_at)

    @admin.display(description=_("lifted"), ordering="lifted_at")
    def lifted(self, sanction):
        return short_moment(sanction.lifted_at) if sanction.lifted_at else "—"

    @admin.display(description=_("acknowledged"), ordering="acknowledged_at")
    def acknowledged(self, sanction):
        return short_moment(sanction.acknowledged_at) if sanction.acknowledged_at else "—"

    @admin.action(description=_("Lift the sanction…"), permissions=["change"])
    def lift(self, request, queryset):
        return redirect_to_action("lift", request, ids=list(queryset.values_list("pk", flat=True)))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        sanction = self.get_object(request, object_id)
        buttons = []
        if sanction is not None:
            here = request.get_full_path()
            buttons = [(_("Player's moderation page"), player_page_url(sanction.user), "quiet")]
            if sanction.lifted_at is None and request.user.has_perm("moderation.change_sanction"):
                buttons.append((_("Lift…"), action_url("lift", next_url=here, ids=[sanction.pk]), ""))
        return super().change_view(request, object_id, form_url, {"buttons": buttons, **(extra_context or {})})

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyModelAdmin):
    list_display = ("logged_at", "moderator", "action", "target_user", "match", "reason")
    list_select_related = ("moderator", "target_user", "match")

    @admin.display(description=_("time"), ordering="created_at")
    def logged_at(self, entry):
        return short_moment(entry.created_at)
    list_filter = ("action", "created_at")
    search_fields = ("moderator__username", "target_user__username", "reason")
    readonly_fields = ("created_at", "moderator", "action", "target_user", "match", "detail", "reason")

    def get_urls(self):
        """The confirmation page of every moderator action (``moderation.admin_actions``)."""
        view = self.admin_site.admin_view(lambda request, key: act_view(request, key, admin_site=self.admin_site))
        return [path("act/<slug:key>/", view, name="moderation_act"), *super().get_urls()]


@admin.register(ModeratorNote)
class ModeratorNoteAdmin(ReadOnlyModelAdmin):
    """Notes are written from the player's moderation page (audited), never edited."""

    list_display = ("created_at", "user", "by", "text")
    search_fields = ("user__username", "text")
    readonly_fields = ("created_at", "user", "by", "text")


@admin.register(NetworkNotice)
class NetworkNoticeAdmin(admin.ModelAdmin):
    list_display = ("created_at", "match", "ip_address", "usernames")
    search_fields = ("ip_address", "usernames")
    readonly_fields = ("created_at", "match", "ip_address", "usernames")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
