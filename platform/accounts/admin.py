from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    list_display = ("username", "email", "is_bot", "is_staff", "is_active", "date_joined")
    list_filter = ("is_bot", "is_staff", "is_active")
    fieldsets = (*DjangoUserAdmin.fieldsets, (_("Tapete"), {"fields": ("is_bot",)}))
