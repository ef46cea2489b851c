from django.urls import path

from groundview.review import checker_version_views, views

app_name = "review"

urlpatterns = [
    path("", views.answer_list, name="answer_list"),
    path("answers/<int:pk>/", views.answer_detail, name="answer_detail"),
    path("answers/<int:pk>/label/", views.save_label, name="save_label"),
    path("answers/<int:pk>/undo-claim/", views.undo_claim, name="undo_claim"),
    path("answers/<int:pk>/check/", views.rerun_check, name="rerun_check"),
    path("answers/<int:pk>/check-status.json", views.check_status, name="check_status"),
    path("queue/", views.queue, name="queue"),
    path("queue/skip/<int:pk>/", views.queue_skip, name="queue_skip"),
    path("queue/reset-skips/", views.queue_reset_skips, name="queue_reset_skips"),
    path("queue/progress.json", views.queue_progress, name="queue_progress"),
    path("agreement/", views.agreement, name="agreement"),
    path(
        "checker-versions/",
        checker_version_views.checker_versions_page,
        name="checker_versions",
    ),
    path(
        "checker-versions/default/",
        checker_version_views.make_default_version,
        name="make_default_version",
    ),
    path("disagreements/", views.disagreements, name="disagreements"),
    path("disagreements/settle/", views.adjudicate, name="adjudicate"),
]
