from django.contrib.auth.decorators import login_required
from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from groundview.api import views

app_name = "api"

router = SimpleRouter(trailing_slash=False)
router.register("sessions", views.SessionViewSet, basename="session")
router.register("answers", views.AnswerViewSet, basename="answer")
router.register("checks", views.CheckRunViewSet, basename="check")
router.register("batches", views.BatchViewSet, basename="batch")
router.register("labels", views.LabelViewSet, basename="label")

urlpatterns = [
    path("answers/<int:pk>/checks", views.AnswerChecksView.as_view(), name="answer-checks"),
    path("export/answers.jsonl", views.AnswersExportView.as_view(), name="export-answers"),
    path("export/labels.jsonl", views.LabelsJsonlExportView.as_view(), name="export-labels-jsonl"),
    path("export/labels.csv", views.LabelsCsvExportView.as_view(), name="export-labels-csv"),
    *(
        path(
            f"export/labelled-answers.{suffix}",
            view.as_view(),
            name=f"export-labelled-answers-{view.kind}",
        )
        for suffix, view in views.LABELLED_EXPORT_VIEWS.items()
    ),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # A page for people: send them to the login page rather than answering 401.
    path(
        "docs/",
        # The split view serves Swagger UI's start-up script as a file: the CSP allows no inline script.
        login_required(
            SpectacularSwaggerSplitView.as_view(
                url_name="api:schema", template_name="api/swagger_ui.html"
            )
        ),
        name="docs",
    ),
    *router.urls,
    # Everything else is a JSON 404 (after sign-in); docs and schema without their slash redirect.
    re_path(r"^(?!docs$|schema$).*$", views.NotFoundView.as_view()),
]
