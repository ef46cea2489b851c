"""The checker versions page (staff only): versions fitted on human labels, compared on held-out
answers, and the button that makes one the default. The work is in checker_versions.py."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from groundview.review import checker_versions
from groundview.review.charts import calibration_svg


def staff_only(view):
    # Signed-in reviewers who are not staff get a 403, not a login page they cannot get past.
    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_staff:
            raise PermissionDenied("checker versions are for admins")
        return view(request, *args, **kwargs)

    return wrapped


@staff_only
@require_GET
def checker_versions_page(request: HttpRequest) -> HttpResponse:
    page = checker_versions.select_versions_page()
    charts = [
        (
            head,
            calibration_svg(
                head.points,
                title=f"{head.name}: claim score vs. share labelled supported",
                size=240,
            ),
        )
        for head in page.comparison
    ]
    return render(request, "review/checker_versions.html", {"page": page, "charts": charts})


@staff_only
@require_POST
def make_default_version(request: HttpRequest) -> HttpResponse:
    raw = request.POST.get("version", "")
    try:
        version_id = int(raw) if raw else None
    except ValueError:
        version_id = -1
    try:
        version = checker_versions.make_default(version_id)
    except checker_versions.VersionError as exc:
        messages.error(request, str(exc))
        return redirect("review:checker_versions")
    if version is None:
        messages.success(request, f"Checks now use the {checker_versions.base_head_name()}.")
    else:
        messages.success(request, f"Checks now use {version.name}.")
    return redirect("review:checker_versions")
