from django.contrib import admin, messages

from groundview.api.models import ApiToken, default_expiry


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "user",
        "prefix",
        "created_at",
        "last_used_at",
        "expires_at",
        "revoked_at",
    ]
    list_filter = [("revoked_at", admin.EmptyFieldListFilter)]
    list_select_related = ["user"]
    search_fields = ["name", "user__username", "prefix"]
    fields = ["user", "name", "prefix", "created_at", "last_used_at", "expires_at", "revoked_at"]
    readonly_fields = ["prefix", "created_at", "last_used_at", "revoked_at"]
    actions = ["revoke"]

    # Tokens are for admins to manage, whatever their model permissions say.
    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_delete_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def get_readonly_fields(self, request, obj=None):
        # Who a token belongs to is fixed once it exists; issue a new one instead.
        return [*self.readonly_fields, "user"] if obj is not None else self.readonly_fields

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        token = obj.set_new_key()
        if obj.expires_at is None:
            # Left blank: the default lifetime (GROUNDVIEW_API_TOKEN_DAYS), as for every new token.
            obj.expires_at = default_expiry()
        super().save_model(request, obj, form, change)
        messages.warning(
            request,
            f"The new token for {obj.user} is {token} — copy it now: it is stored only as a hash "
            "and will not be shown again.",
        )

    @admin.action(description="Revoke selected tokens")
    def revoke(self, request, queryset):
        count = 0
        for token in queryset.filter(revoked_at__isnull=True):
            token.revoke()
            count += 1
        self.message_user(request, f"Revoked {count} token(s).", messages.SUCCESS)
