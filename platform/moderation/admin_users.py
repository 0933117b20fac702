"""Players in admin (registered by ``ModerationConfig.ready``): superusers edit accounts; moderators see them (never their password), open their moderation
page (``moderation.player_page``) and sanction them through the confirmation page."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.urls import path
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from moderation.admin import SanctionActionsMixin, player_page_url
from moderation.player_page import player_page


@admin.register(User)
class UserAdmin(SanctionActionsMixin, DjangoUserAdmin):
    list_display = ("username", "moderation_link", "email", "is_bot", "is_guest", "is_staff", "is_active", "date_joined")
    list_filter = ("is_bot", "is_guest", "is_staff", "is_active")
    fieldsets = (*DjangoUserAdmin.fieldsets, (_("Tapete"), {"fields": ("is_bot", "is_guest", "time_zone")}))
    change_form_template = "admin/moderation/buttons_change_form.html"

    @admin.display(description=_("moderation"))
    def moderation_link(self, user):
        return format_html('<a href="{}">{}</a>', player_page_url(user), _("moderation page"))

    def get_urls(self):
        view = self.admin_site.admin_view(
            lambda request, user_id: player_page(request, user_id, admin_site=self.admin_site)
        )
        return [path("<int:user_id>/moderation/", view, name="accounts_user_moderation"), *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        user = self.get_object(request, object_id)
        buttons = [(_("Moderation page"), player_page_url(user), "")] if user is not None else []
        return super().change_view(request, object_id, form_url, {"buttons": buttons, **(extra_context or {})})

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and not request.user.has_perm("accounts.change_user"):
            # Read-only viewers (moderators) never see the password field, not even its hash summary.
            return [
                (name, {**options, "fields": [f for f in options["fields"] if f != "password"]})
                for name, options in fieldsets
            ]
        return fieldsets
