"""Shared Django-admin building blocks."""

from django.contrib import admin


class ReadOnlyModelAdmin(admin.ModelAdmin):
    """Rows that are never added, edited or deleted through admin (logs, ratings, audit); actions still run."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
