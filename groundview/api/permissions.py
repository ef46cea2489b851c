"""Roles: a reviewer is any active signed-in user; an admin is a staff user."""

from rest_framework.permissions import SAFE_METHODS, BasePermission


def is_admin(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active and user.is_staff)


class IsReviewer(BasePermission):
    message = "Sign in or send an API token."

    def has_permission(self, request, view):
        user = request.user
        return bool(user and user.is_authenticated and user.is_active)


class IsAdmin(BasePermission):
    message = "Only admins may do this."

    def has_permission(self, request, view):
        return is_admin(request.user)


class ReviewerReadsAdminWrites(BasePermission):
    """Reviewers read; admins also create (import answers, queue batches) and delete."""

    message = "Only admins may change this: import or delete answers, or queue batches of checks."

    def has_permission(self, request, view):
        if not IsReviewer().has_permission(request, view):
            return False
        return request.method in SAFE_METHODS or is_admin(request.user)
