from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from groundview.api.otlp import TracesView
from groundview.security.login import LoginView, ThrottledAdminAuthenticationForm

# The admin has its own sign-in page; it counts failed attempts the same way.
admin.site.login_form = ThrottledAdminAuthenticationForm

urlpatterns = [
    # Pages link the icon; this serves browsers that ask for it on pages that do not (the admin).
    path("favicon.ico", RedirectView.as_view(url=static("review/favicon.svg"))),
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/", include("groundview.api.urls")),
    # OTLP/HTTP's default trace path, so an exporter needs only groundview's base URL; before the
    # Vertex routes, whose /v1/ catch-all would answer it with a 404.
    path("v1/traces", TracesView.as_view(), name="otlp-traces"),
    # Vertex-compatible routes (Check Grounding, answers.get) keep Google's URL shapes.
    path("", include("groundview.api.vertex_urls")),
    path("", include("groundview.review.urls")),
]
