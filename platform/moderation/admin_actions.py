"""Every moderator action in Django admin goes through one confirmation page: ``admin/moderation/act/<action>/``.

List actions (checkboxes and the action menu), the buttons on change pages, the report queue's quick links and the
per-player page all lead here, with the targets in the query string (``users=``, ``reports=`` or ``ids=``). The
page shows what will happen to each target (the rating changes a reversal undoes, the games a suspension makes the
player leave, the reports a sanction resolves, the changes a refund undoes), which targets would see nothing change and why, and asks for the
reason: one of the preset reasons, free text, or both. Confirming calls the audited service
(``moderation.services``) once per target. Durations: presets of 1 hour, 24 hours, 7 days and 30 days, or a number
of days.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from moderation import sanctions, services
from moderation.models import PresetReason, Report, Sanction
from moderation.notices import format_moment
from ratings.services import refundable_changes
from turnengine.models import ChatMessage, Match

DURATIONS = {
    "1h": (gettext_lazy("1 hour"), timedelta(hours=1)),
    "24h": (gettext_lazy("24 hours"), timedelta(hours=24)),
    "7d": (gettext_lazy("7 days"), timedelta(days=7)),
    "30d": (gettext_lazy("30 days"), timedelta(days=30)),
}
OTHER_DURATION = "days"
class ModerationActionForm(forms.Form):
    """The reason of any action, and the length of a mute or a suspension."""

    preset = forms.ChoiceField(
        label=gettext_lazy("Preset reason"),
        required=False,
        choices=[("", "—"), *PresetReason.choices],
        help_text=gettext_lazy("A sanction's preset reason is shown to the player."),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason (free text)"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=gettext_lazy("Kept in the audit log; required without a preset."),
    )
    tell_player = forms.BooleanField(
        label=gettext_lazy("Show the free text to the player too"), required=False
    )
    duration = forms.ChoiceField(
        label=gettext_lazy("For"),
        required=False,
        choices=[*((key, label) for key, (label, _length) in DURATIONS.items()),
                 (OTHER_DURATION, gettext_lazy("this many days:"))],
        initial="24h",
    )
    days = forms.IntegerField(label=gettext_lazy("Days"), required=False, min_value=1, max_value=3650)
    resolve_related = forms.BooleanField(
        label=gettext_lazy("Also resolve the other open reports about this player at the same match"),
        required=False,
        initial=True,
    )

    def __init__(self, *args, action: ModeratorAction, **kwargs):
        super().__init__(*args, **kwargs)
        self.action = action
        if not action.needs_duration:
            del self.fields["duration"], self.fields["days"]
        if action.sanction is None:
            del self.fields["tell_player"], self.fields["resolve_related"]
            self.fields["preset"].help_text = ""

    def clean(self):
        data = super().clean()
        if not data.get("preset") and not (data.get("reason") or "").strip():
            raise forms.ValidationError(_("Give a reason: choose a preset or write one."), code="no_reason")
        if self.action.needs_duration and data.get("duration") == OTHER_DURATION and not data.get("days"):
            self.add_error("days", _("How many days?"))
        return data

    def audit_reason(self) -> str:
        """The moderators' reason: the preset (in the moderator's language) and the free text."""
        preset = PresetReason(self.cleaned_data["preset"]).label if self.cleaned_data["preset"] else ""
        text = self.cleaned_data["reason"].strip()
        return " ".join(part for part in (str(preset), text) if part)

    def public_reason(self) -> str:
        """The free text the player is told besides the preset (the preset is stored as its key)."""
        return self.cleaned_data["reason"].strip() if self.cleaned_data.get("tell_player") else ""

    def chosen_duration(self) -> timedelta | None:
        """The length chosen (a bound form, once validated) or proposed (initial), if the action has one."""
        if not self.action.needs_duration:
            return None
        data = getattr(self, "cleaned_data", None) if self.is_bound else self.initial  # valid fields only
        key = (data or {}).get("duration") or "24h"
        if key == OTHER_DURATION:
            return timedelta(days=data["days"]) if data.get("days") else None
        return DURATIONS.get(key, DURATIONS["24h"])[1]


@dataclass
class Target:
    """One thing an action applies to; a sanction taken from reports also carries them."""

    obj: object
    reports: list[Report] = field(default_factory=list)


@dataclass(frozen=True)
class ModeratorAction:
    """One moderator action: who may run it, on what, what it will do, why it would change nothing, and the audited
    service call that does it."""

    key: str
    label: str
    permission: str
    model: type
    describe: Callable[[Target, timedelta | None], list[str]]
    refusal: Callable[[Target, timedelta | None], str | None]
    perform: Callable[[object, Target, ModerationActionForm], None]
    sanction: str | None = None
    needs_duration: bool = False


# --- what each action will do ------------------------------------------------------------------------------------


def _games_left(user) -> list[str]:
    lines = []
    for match in services.running_matches(user=user):
        if match.ranked:
            lines.append(_("%(match)s (ranked): the seat counts as abandoned; the table goes on and is rated.")
                         % {"match": match})
        else:
            lines.append(_("%(match)s (friendly): a computer player plays the seat.") % {"match": match})
    return lines


def _report_lines(target: Target) -> list[str]:
    if not target.reports:
        return []
    lines = [_("Report #%(id)s is linked to the sanction and resolved.") % {"id": report.pk}
             for report in target.reports]
    related = services.related_open_reports(report=target.reports[0])
    related = [report for report in related if report not in target.reports]
    if related:
        lines.append(_("With the box below ticked, also resolved: %(reports)s.")
                     % {"reports": ", ".join(f"#{report.pk}" for report in related)})
    return lines


def _describe_sanction(kind: str):
    def describe(target: Target, duration: timedelta | None) -> list[str]:
        user = target.obj
        until = format_moment(timezone.now() + duration) if duration else "—"
        name = user.username
        line = {
            Sanction.Kind.WARNING: _("%(name)s is warned: the warning shows on their next page and on their open "
                                     "tables until they acknowledge it."),
            Sanction.Kind.MUTE: _("%(name)s cannot chat until %(until)s; their chat box says so."),
            Sanction.Kind.SUSPENSION: _("%(name)s is suspended until %(until)s: their open tables say why and "
                                        "close, log-in and tables are refused."),
            Sanction.Kind.BAN: _("%(name)s is banned with no end: their open tables say why and close, log-in "
                                 "and tables are refused."),
        }[kind] % {"name": name, "until": until}
        games = _games_left(user) if kind in sanctions.LOCKOUT_KINDS else []
        return [line, *games, *_report_lines(target)]

    return describe


def _perform_sanction(kind: str):
    def perform(moderator, target: Target, form: ModerationActionForm) -> None:
        reports = target.reports
        services.moderation_sanction(
            moderator=moderator,
            user=target.obj,
            kind=kind,
            reason=form.audit_reason(),
            preset=form.cleaned_data["preset"],
            public_reason=form.public_reason(),
            duration=form.chosen_duration(),
            report=reports[0] if reports else None,
            resolve_related=bool(form.cleaned_data.get("resolve_related")),
            also_resolve=reports[1:],
        )

    return perform


def _describe_lift(target: Target, _duration) -> list[str]:
    sanction = target.obj
    until = format_moment(sanction.ends_at) if sanction.ends_at else _("no end")
    return [_("%(kind)s of %(name)s (until %(until)s) ends now.")
            % {"kind": sanction.get_kind_display(), "name": sanction.user.username, "until": until}]


def _describe_hide(target: Target, _duration) -> list[str]:
    line = target.obj
    return [_("“%(text)s” by %(name)s at %(match)s leaves every open page and every snapshot at once.")
            % {"text": line.text, "name": line.user.username, "match": line.match}]


def _describe_abort(target: Target, _duration) -> list[str]:
    match = target.obj
    return [_("%(match)s (%(status)s) stops without a result and without rating changes; its clocks stop and "
              "every open page says that a moderator aborted it.")
            % {"match": match, "status": match.get_status_display().lower()}]


def _describe_reverse(target: Target, _duration) -> list[str]:
    match = target.obj
    changes = services.reversible_changes(match=match)
    return [_("%(match)s: these rating changes are undone:") % {"match": match}] + [
        _("%(name)s: %(before)s → %(after)s (%(delta)+.1f) goes back to %(before)s.")
        % {"name": change.user.username, "before": round(change.before), "after": round(change.after),
           "delta": change.delta}
        for change in changes
    ]


def _describe_refund(target: Target, _duration) -> list[str]:
    cheater = target.obj
    lines = [_("In the ranked matches of %(name)s not reversed yet, their gains are taken back and every loss of "
               "their opponents is given back; their own losses and their opponents' gains stay:")
             % {"name": cheater.username}]
    for change in refundable_changes(cheater=cheater):
        lines.append(_("%(match)s: %(name)s %(delta)+.1f is undone.")
                     % {"match": change.match, "name": change.user.username, "delta": change.delta})
    return lines


def _describe_close(status: str):
    def describe(target: Target, _duration) -> list[str]:
        report = target.obj
        text = (_("Report #%(id)s about %(name)s (%(reason)s) is resolved without a sanction.")
                if status == Report.Status.RESOLVED
                else _("Report #%(id)s about %(name)s (%(reason)s) is dismissed."))
        return [text % {"id": report.pk, "name": report.reported.username, "reason": report.get_reason_display()}]

    return describe


def _sanction_action(key, label, kind, needs_duration=False):
    return ModeratorAction(
        key=key,
        label=label,
        permission="moderation.add_sanction",
        model=User,
        sanction=kind,
        needs_duration=needs_duration,
        describe=_describe_sanction(kind),
        refusal=lambda target, duration: services.sanction_refusal(user=target.obj, kind=kind, duration=duration),
        perform=_perform_sanction(kind),
    )


def _object_action(key, label, permission, model, keyword, describe, refusal, service) -> ModeratorAction:
    """An action on one object (a sanction, a chat line, a match, a report): ``refusal`` and ``service`` take it
    as ``keyword``."""
    return ModeratorAction(
        key=key,
        label=label,
        permission=permission,
        model=model,
        describe=describe,
        refusal=lambda target, _duration: refusal(**{keyword: target.obj}),
        perform=lambda moderator, target, form: service(
            moderator=moderator, reason=form.audit_reason(), **{keyword: target.obj}
        ),
    )


ACTIONS: dict[str, ModeratorAction] = {
    action.key: action
    for action in [
        _sanction_action("warn", gettext_lazy("Warn"), Sanction.Kind.WARNING),
        _sanction_action("mute", gettext_lazy("Mute in chat"), Sanction.Kind.MUTE, needs_duration=True),
        _sanction_action("suspend", gettext_lazy("Suspend"), Sanction.Kind.SUSPENSION, needs_duration=True),
        _sanction_action("ban", gettext_lazy("Ban"), Sanction.Kind.BAN),
        _object_action("lift", gettext_lazy("Lift the sanction"), "moderation.change_sanction", Sanction,
                       "sanction", _describe_lift, services.lift_refusal, services.moderation_lift),
        _object_action("hide", gettext_lazy("Hide the chat line"), "moderation.add_sanction", ChatMessage,
                       "message", _describe_hide, services.hide_refusal, services.moderation_hide_message),
        _object_action("abort", gettext_lazy("Abort the match"), "moderation.add_sanction", Match,
                       "match", _describe_abort, services.abort_refusal, services.moderation_abort_match),
        _object_action("reverse", gettext_lazy("Reverse the ratings"), "ratings.add_ratingreversal", Match,
                       "match", _describe_reverse, services.reverse_refusal, services.moderation_reverse_ratings),
        ModeratorAction(
            key="refund",
            label=gettext_lazy("Refund their opponents"),
            permission="ratings.add_ratingreversal",
            model=User,
            describe=_describe_refund,
            refusal=lambda target, _duration: services.refund_refusal(user=target.obj),
            perform=lambda moderator, target, form: services.moderation_refund(
                moderator=moderator, user=target.obj, reason=form.audit_reason()
            ),
        ),
        _object_action("resolve", gettext_lazy("Resolve the report"), "moderation.change_report", Report,
                       "report", _describe_close(Report.Status.RESOLVED), services.report_refusal,
                       partial(services.report_close, status=Report.Status.RESOLVED)),
        _object_action("dismiss", gettext_lazy("Dismiss the report"), "moderation.change_report", Report,
                       "report", _describe_close(Report.Status.DISMISSED), services.report_refusal,
                       partial(services.report_close, status=Report.Status.DISMISSED)),
    ]
}


def register_action(action: ModeratorAction) -> None:
    """An upper app's action on the same confirmation page (tournaments add theirs from their app's ``ready()``)."""
    ACTIONS[action.key] = action


# --- links and the page --------------------------------------------------------------------------------------------


def _ids(raw: str) -> list[int]:
    field = forms.IntegerField(min_value=1)
    ids = []
    for part in raw.split(","):
        try:
            ids.append(field.clean(part))
        except forms.ValidationError:
            continue
    return ids


def action_url(key: str, *, next_url: str = "", **targets) -> str:
    """The confirmation page of ``key`` for ``users=``, ``reports=`` or ``ids=`` (lists of primary keys), plus
    initial fields such as ``duration="7d"``."""
    query = {name: ",".join(str(pk) for pk in value) if isinstance(value, list | tuple) else value
             for name, value in targets.items()}
    if next_url:
        query["next"] = next_url
    return f"{reverse('admin:moderation_act', args=[key])}?{urlencode(query)}"


def resolve_targets(action: ModeratorAction, query) -> list[Target]:
    """Sanctions take ``users=`` or ``reports=`` (one sanction per reported player, linked to their reports); the
    other actions take ``ids=`` of their own model."""
    if action.model is User and "reports" in query:
        reports = Report.objects.filter(pk__in=_ids(query["reports"])).select_related("reported", "match")
        by_user: dict[int, Target] = {}
        for report in reports.order_by("created_at"):
            by_user.setdefault(report.reported_id, Target(report.reported)).reports.append(report)
        return list(by_user.values())
    key = "users" if action.model is User else "ids"
    objects = action.model._default_manager.filter(pk__in=_ids(query.get(key, ""))).order_by("pk")
    if action.model in (Sanction, ChatMessage):
        objects = objects.select_related("user")
    return [Target(obj) for obj in objects]


def act_view(request, key: str, *, admin_site):
    """The confirmation page: GET shows what will happen; POST with a reason does it."""
    action = ACTIONS.get(key)
    if action is None:
        raise Http404
    if not request.user.has_perm(action.permission):
        raise PermissionDenied(action.permission)  # named on the admin's 403 page (tapete.errors)
    targets = resolve_targets(action, request.GET)
    if not targets:
        raise Http404(_("Nothing selected."))
    initial = {name: request.GET[name] for name in ("duration", "preset") if name in request.GET}
    form = ModerationActionForm(request.POST or None, action=action, initial=initial)
    valid = request.method == "POST" and form.is_valid()
    duration = form.chosen_duration()
    if action.needs_duration and duration is None:  # no number of days yet: preview the default length
        duration = DURATIONS["24h"][1]
    rows = [(target, action.describe(target, duration), action.refusal(target, duration)) for target in targets]
    doable = [target for target, _lines, refusal in rows if refusal is None]
    next_url = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}, request.is_secure()):
        next_url = reverse(f"admin:{action.model._meta.app_label}_{action.model._meta.model_name}_changelist")
    if valid and doable:
        done = 0
        for target in doable:
            try:
                action.perform(request.user, target, form)
                done += 1
            except services.Refused as refused:
                messages.error(request, f"{target.obj}: {refused.message}")
        if done:
            messages.success(request, _("%(action)s: done for %(count)d.") % {"action": action.label, "count": done})
        return redirect(next_url)
    context = {
        **admin_site.each_context(request),
        "title": _("%(action)s: confirm") % {"action": action.label},
        "action": action,
        "rows": rows,
        "doable": doable,
        "form": form,
        "next_url": next_url,
        "related_reports": any(target.reports and services.related_open_reports(report=target.reports[0])
                               for target in targets),
    }
    return TemplateResponse(request, "admin/moderation/confirm_action.html", context)
